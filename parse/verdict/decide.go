package verdict

import (
	"math"
	"slices"
	"sort"

	"github.com/fairbench/fairbench/parse"
)

// DecideOptions configure Decide.
type DecideOptions struct {
	// Thresholds: Alpha, Confidence, Noise and MinReps are used; the zero
	// value means DefaultThresholds.
	Thresholds Thresholds
	// AAPairs are A/A pairs (target or cell names) for runs whose run.json
	// names none (parse.Run.AAPair): a run takes the first pair with both
	// targets among its cells. run.json wins where it names one.
	AAPairs [][2]string
}

// Verdicts are every pairwise decision of a set of cells on one metric,
// made once. Pages, exports and commands read them; none decides again.
type Verdicts struct {
	Metric     Metric
	Thresholds Thresholds
	// Scenarios are one per scenario of each run, sorted by run, scenario.
	Scenarios []*ScenarioVerdicts
	byCell    map[*Cell]*ScenarioVerdicts
}

// RunFloor is the largest floor among a run's scenarios: the margin its
// claims must clear, which its A/A twins raise above the threshold where
// they stood apart beyond their noise (Floor.Systematic), and which no
// number of rounds lowers. ok is false for a run with no scenario.
func (d *Verdicts) RunFloor(run string) (f Floor, ok bool) {
	for _, sv := range d.Scenarios {
		if sv.Run == run && (!ok || sv.Floor.Value > f.Value) {
			f, ok = sv.Floor, true
		}
	}
	return f, ok
}

// ScenarioVerdicts are the decisions of one family: every pair of targets
// in one scenario of one run measured on one host pair (hosts.go).
type ScenarioVerdicts struct {
	Run, Scenario string
	// Hosts is the family's host pair, "server→client" (Cell.Hosts).
	Hosts  string
	Metric Metric
	// Cells are highest geometric mean first, then by name; cells that
	// cannot be tested (too few repetitions, no data) last, by name.
	Cells []*Cell
	// Pairs are every pair of Cells, A < B bytewise, sorted by A then B;
	// past MaxPairwise cells, every pair with the reference (reference.go).
	Pairs []Verdict
	// Ranks are one per cell, in the order of Cells.
	Ranks []Rank
	Floor Floor
	// Family is the number of pairs tested (the m of Holm's correction).
	Family int
	// ClientBound are the cells the client-saturated rule holds to "~".
	ClientBound map[*Cell]bool
	index       map[[2]*Cell]int
	test        *familyTest // on Metric, for Power
}

// Rank is where the verdicts place a cell among k ranked cells: Lo = 1 +
// the number of cells judged faster than it, Hi = k − the number judged
// slower. A cell tied ("~") with its neighbours has a range, never a bare
// place a verdict does not support.
type Rank struct {
	Cell   *Cell
	Lo, Hi int
	// Ranked is false for a cell that could not be tested (Lo = Hi = 0).
	Ranked bool
}

// Decide makes every pairwise verdict of cells on metric m. set supplies
// the runs (their A/A pairs, for the noise floor) and the measurements'
// CPU use (for the client-saturated rule); it may be nil.
func Decide(set *parse.Set, cells []*Cell, m Metric, opts DecideOptions) *Verdicts {
	th := opts.Thresholds
	if th == (Thresholds{}) {
		th = DefaultThresholds
	}
	d := &Verdicts{Metric: m, Thresholds: th, byCell: map[*Cell]*ScenarioVerdicts{}}
	var runs []*parse.Run
	if set != nil {
		runs = set.Runs
	}
	bound := ClientBound(set, cells, th)
	floors := NoiseFloors(runs, cells, m, opts.AAPairs, th)
	for _, g := range GroupByScenario(cells) {
		sv := decideScenario(g, m, th, floors[KeyOf(g[0])], bound)
		d.Scenarios = append(d.Scenarios, sv)
		for _, c := range sv.Cells {
			d.byCell[c] = sv
		}
	}
	return d
}

// ScenarioKey identifies a family: a run, a scenario and a host pair
// (KeyOf); Alone names the one cell of a family of a cell measured on
// several host pairs.
type ScenarioKey struct{ Run, Scenario, Hosts, Alone string }

// GroupByScenario splits cells into families: by run, scenario and host
// pair (KeyOf), sorted in that order. Cells measured on different server
// or client hosts are never in one group.
func GroupByScenario(cells []*Cell) [][]*Cell {
	groups := map[ScenarioKey][]*Cell{}
	var keys []ScenarioKey
	for _, c := range cells {
		k := KeyOf(c)
		if groups[k] == nil {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], c)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		return a.Run+"\x00"+a.Scenario+"\x00"+a.Hosts+"\x00"+a.Alone < b.Run+"\x00"+b.Scenario+"\x00"+b.Hosts+"\x00"+b.Alone
	})
	out := make([][]*Cell, len(keys))
	for i, k := range keys {
		out[i] = groups[k]
	}
	return out
}

// Testable reports whether a cell can enter a test, and if not, why: it
// needs a positive number in each of at least MinReps repetitions, a gate
// record that passed it where its run has a run.json (Cell.Ungated), and, on
// a metric that counts error responses (all but MetricGoodRPS), no more
// than RankErrorShare of its requests answered with an error (a zero
// RankErrorShare, as in Thresholds made before it, checks none).
func Testable(c *Cell, m Metric, th Thresholds) (bool, string) {
	s := c.Stat(m)
	switch {
	case s.N == 0 || !(s.Min > 0):
		return false, ReasonNoData
	case c.Ungated:
		return false, ReasonUngated
	case m != MetricGoodRPS && th.RankErrorShare > 0 && c.ErrorShare() > th.RankErrorShare:
		return false, ReasonErrors
	case s.N < max(th.MinReps, 2):
		return false, ReasonTooFewReps
	}
	return true, ""
}

func decideScenario(cells []*Cell, m Metric, th Thresholds, floor Floor, bound map[*Cell]bool) *ScenarioVerdicts {
	if len(cells) > MaxPairwise {
		return decideByReference(cells, m, th, floor, bound) // reference.go
	}
	sv := &ScenarioVerdicts{Run: cells[0].Run, Scenario: cells[0].Scenario, Hosts: cells[0].Hosts, Metric: m,
		Floor: floor, ClientBound: map[*Cell]bool{}, index: map[[2]*Cell]int{}}
	sv.Cells = sortByEstimate(cells, m, th)
	for _, c := range sv.Cells {
		if bound[c] {
			sv.ClientBound[c] = true
		}
	}
	byName := append([]*Cell(nil), sv.Cells...)
	sort.SliceStable(byName, func(i, j int) bool { return byName[i].Name < byName[j].Name })
	for i, a := range byName {
		for _, b := range byName[i+1:] {
			sv.index[[2]*Cell{a, b}] = len(sv.Pairs)
			sv.Pairs = append(sv.Pairs, Verdict{Run: sv.Run, Scenario: sv.Scenario, A: a.Name, B: b.Name, CellA: a, CellB: b})
		}
	}
	sv.test = newFamilyTest(sv.Cells, m, th)
	sv.Family = judge(sv.Pairs, th, floor, bound, sv.test, newFamilyTest(sv.Cells, MetricEfficiency, th))
	sv.Ranks = ranks(sv, m, th)
	return sv
}

// Judge decides vs as one family: each pair's CellA against its CellB on
// metric m, a t-test on logs (blocked by round where the cells are one
// run's, measured in the same rounds: MethodBlockedLog; else Welch's),
// Holm over the pairs tested, a claim only when the interval at the pair's
// Holm step clears the floor's margin. The A/A pair is judged against the
// threshold alone, since the margin is made of its own difference. Pairs
// that cannot be tested read "~" with their reason. It returns the
// family's size.
func Judge(vs []Verdict, m Metric, th Thresholds, floor Floor, bound map[*Cell]bool) int {
	var cells []*Cell
	for _, v := range vs {
		for _, c := range []*Cell{v.CellA, v.CellB} {
			if !slices.Contains(cells, c) {
				cells = append(cells, c)
			}
		}
	}
	return judge(vs, th, floor, bound, newFamilyTest(cells, m, th), newFamilyTest(cells, MetricEfficiency, th))
}

// judge is Judge with the family's tests on its metric and on
// MetricEfficiency made.
func judge(vs []Verdict, th Thresholds, floor Floor, bound map[*Cell]bool, test, efficiencyTest *familyTest) int {
	m := test.m
	var tested []int
	var ps []float64
	var tests []Welch
	for i := range vs {
		v := &vs[i]
		a, b := v.CellA, v.CellB
		v.Metric, v.Floor, v.Verdict, v.Alpha = m, floor.Value, VerdictTie, th.Alpha
		v.Margin, v.PEq = floor.Resolve, math.NaN()
		if floor.IsPair(a, b) {
			v.Floor = floor.Threshold
		}
		v.Ratio = a.Stat(m).GeoMean / b.Stat(m).GeoMean
		v.Lo, v.Hi, v.Level, v.P, v.PAdj = math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN()
		okA, whyA := Testable(a, m, th)
		okB, whyB := Testable(b, m, th)
		switch {
		case !okA:
			v.Reason = whyA
		case !okB:
			v.Reason = whyB
		case (bound[a] || bound[b]) && efficient(a, b, th):
			// Where the load generator capped a side, its req/s measures
			// the client; what each target served per CPU second of its
			// server it does not cap, so the pair is decided on that.
			v.Metric = MetricEfficiency
			v.Ratio = a.Efficiency.GeoMean / b.Efficiency.GeoMean
			w := efficiencyTest.test(a, b)
			v.Method, v.P = efficiencyTest.method(), w.p
			tested = append(tested, i)
			ps = append(ps, w.p)
			tests = append(tests, w)
		case bound[a] && bound[b]:
			v.Reason = ReasonClientBound
		default:
			w := test.test(a, b)
			v.Method, v.P = test.method(), w.p
			tested = append(tested, i)
			ps = append(ps, w.p)
			tests = append(tests, w)
		}
	}
	adj, step := Holm(ps, th.Alpha)
	for k, i := range tested {
		v := &vs[i]
		clear := math.Log1p(v.Floor)
		if v.Method == MethodBlockedSpeed {
			// The ratio its interval surrounds: the geometric means' own
			// with the host speed probe's share taken out.
			v.Ratio = math.Exp(tests[k].Diff)
		}
		v.PAdj, v.Level = adj[k], 1-step[k]
		v.Lo, v.Hi = tests[k].Interval(v.Level)
		switch {
		case !(v.PAdj < th.Alpha):
			v.Reason = ReasonNotSignificant
		case math.Log(v.Lo) > clear:
			v.Verdict, v.Reason = VerdictA, ReasonDiffers
		case math.Log(v.Hi) < -clear:
			v.Verdict, v.Reason = VerdictB, ReasonDiffers
		default:
			v.Reason = ReasonWithinFloor
		}
		if v.Metric == MetricEfficiency {
			if v.Verdict != VerdictTie {
				v.Reason = ReasonEfficiency
			}
			continue
		}
		// A saturated side's number is a lower bound of its capacity: a
		// claim in its favour stands, as "at least"; any other outcome
		// cannot be told from the client's limit.
		if a, b := bound[v.CellA], bound[v.CellB]; a || b {
			switch {
			case v.Verdict == VerdictA && a, v.Verdict == VerdictB && b:
				v.Reason = ReasonAtLeast
			default:
				v.Verdict, v.Reason = VerdictTie, ReasonClientBound
			}
		}
	}
	equivalent(vs, tested, tests, th, floor.Resolve)
	for i := range vs {
		vs[i].Family = len(tested)
	}
	return len(tested)
}

// equivalent marks the tested pairs of vs (tests[k] is vs[tested[k]]'s)
// that claim no difference and whose ratio two one-sided tests put within
// ±margin, Holm-corrected over the family at α: VerdictEquivalent. A
// false equivalence (a pair at least margin apart called equivalent) is
// thereby as rare as a false difference. A client-bound pair's number is
// the client's, so it is never called equivalent.
func equivalent(vs []Verdict, tested []int, tests []Welch, th Thresholds, margin float64) {
	if !(margin > 0) {
		return
	}
	ps := make([]float64, len(tested))
	for k := range tested {
		ps[k] = tests[k].equivalenceP(math.Log1p(margin))
	}
	adj, _ := Holm(ps, th.Alpha)
	for k, i := range tested {
		v := &vs[i]
		v.Margin, v.PEq = margin, adj[k]
		if v.Verdict == VerdictTie && (v.Reason == ReasonNotSignificant || v.Reason == ReasonWithinFloor) && adj[k] < th.Alpha {
			v.Verdict, v.Reason = VerdictEquivalent, ReasonEquivalent
		}
	}
}

// efficient reports whether both cells can be tested on requests per
// server CPU second: every repetition recorded its server's CPU.
func efficient(a, b *Cell, th Thresholds) bool {
	okA, _ := Testable(a, MetricEfficiency, th)
	okB, _ := Testable(b, MetricEfficiency, th)
	return okA && okB
}

// sortByEstimate orders cells by geometric mean, highest first, then by
// name; untestable cells last, by name.
func sortByEstimate(cells []*Cell, m Metric, th Thresholds) []*Cell {
	out := append([]*Cell(nil), cells...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		oa, _ := Testable(a, m, th)
		ob, _ := Testable(b, m, th)
		if oa != ob {
			return oa
		}
		if ga, gb := a.Stat(m).GeoMean, b.Stat(m).GeoMean; oa && ga != gb {
			return ga > gb
		}
		return a.Name < b.Name
	})
	return out
}

// ranks derives each cell's rank range from the verdicts.
func ranks(sv *ScenarioVerdicts, m Metric, th Thresholds) []Rank {
	k := 0
	for _, c := range sv.Cells {
		if ok, _ := Testable(c, m, th); ok {
			k++
		}
	}
	out := make([]Rank, len(sv.Cells))
	for i, c := range sv.Cells {
		out[i] = Rank{Cell: c}
		if ok, _ := Testable(c, m, th); !ok {
			continue
		}
		faster, slower := 0, 0
		for _, o := range sv.Cells {
			if o == c {
				continue
			}
			v, _ := sv.Pair(c, o)
			switch v.Faster() {
			case o:
				faster++
			case c:
				slower++
			}
		}
		out[i] = Rank{Cell: c, Lo: 1 + faster, Hi: k - slower, Ranked: true}
	}
	return out
}

// Pair is the verdict on cells a and b of this scenario, in either order
// (the record keeps A < B bytewise); false when either is not in it.
func (sv *ScenarioVerdicts) Pair(a, b *Cell) (Verdict, bool) {
	if a.Name > b.Name {
		a, b = b, a
	}
	i, ok := sv.index[[2]*Cell{a, b}]
	if !ok {
		return Verdict{}, false
	}
	return sv.Pairs[i], true
}

// Rank is the rank range of cell c; the zero Rank when c is not here.
func (sv *ScenarioVerdicts) Rank(c *Cell) Rank {
	for _, r := range sv.Ranks {
		if r.Cell == c {
			return r
		}
	}
	return Rank{}
}

// Matrix is the pairwise verdicts as a square table in the order of Cells:
// Matrix()[i][j] is VerdictA when Cells[i] is judged faster than Cells[j],
// VerdictB when slower, VerdictTie otherwise, and "" on the diagonal.
func (sv *ScenarioVerdicts) Matrix() [][]string {
	n := len(sv.Cells)
	out := make([][]string, n)
	for i, a := range sv.Cells {
		out[i] = make([]string, n)
		for j, b := range sv.Cells {
			if i == j {
				continue
			}
			v, _ := sv.Pair(a, b)
			switch v.Faster() {
			case a:
				out[i][j] = VerdictA
			case b:
				out[i][j] = VerdictB
			default:
				out[i][j] = VerdictTie
			}
		}
	}
	return out
}

// Scenario is the family holding cell c, nil when c was not decided.
func (d *Verdicts) Scenario(c *Cell) *ScenarioVerdicts { return d.byCell[c] }

// Find is the family of one scenario of one run, nil when there is none
// or when the run measured the scenario on several host pairs: then
// Families has each, and no one of them speaks for the scenario.
func (d *Verdicts) Find(run, scenario string) *ScenarioVerdicts {
	if fs := d.Families(run, scenario); len(fs) == 1 {
		return fs[0]
	}
	return nil
}

// Pair is the verdict on two cells. Cells of different runs or scenarios
// have no verdict: the result is "~" with ReasonOtherRun (or, for two
// scenarios, false); cells of one run measured on different host pairs
// read "~" with ReasonOtherHosts.
func (d *Verdicts) Pair(a, b *Cell) (Verdict, bool) {
	sa, sb := d.byCell[a], d.byCell[b]
	switch {
	case sa == nil || sb == nil:
		return Verdict{}, false
	case sa == sb:
		return sa.Pair(a, b)
	case a.Scenario != b.Scenario:
		return Verdict{}, false
	}
	if a.Name > b.Name {
		a, b = b, a
	}
	v := Verdict{Scenario: a.Scenario, Metric: d.Metric, A: a.Name, B: b.Name, CellA: a, CellB: b,
		Ratio: a.Stat(d.Metric).GeoMean / b.Stat(d.Metric).GeoMean, Lo: math.NaN(), Hi: math.NaN(),
		Level: math.NaN(), P: math.NaN(), PAdj: math.NaN(), Verdict: VerdictTie, Reason: ReasonOtherRun, Alpha: d.Thresholds.Alpha}
	if a.Run == b.Run {
		v.Run, v.Reason = a.Run, ReasonOtherHosts
	}
	return v, true
}

// Over is v read as the other cell ÷ base (base one of v's cells): the
// same decision, its ratio, interval and verdict turned round where the
// record is base ÷ other.
func (v Verdict) Over(base *Cell) Verdict {
	if v.CellA != base {
		return v
	}
	t := v
	t.A, t.B, t.CellA, t.CellB = v.B, v.A, v.CellB, v.CellA
	t.Ratio, t.Lo, t.Hi = 1/v.Ratio, 1/v.Hi, 1/v.Lo
	switch v.Verdict {
	case VerdictA:
		t.Verdict = VerdictB
	case VerdictB:
		t.Verdict = VerdictA
	}
	return t
}

// All is every verdict, family by family, for export.
func (d *Verdicts) All() []Verdict {
	var out []Verdict
	for _, sv := range d.Scenarios {
		out = append(out, sv.Pairs...)
	}
	return out
}

// Versus is the verdict on other against base as a Comparison (Ratio is
// other ÷ base), for pages that show many targets against one. It is the
// same decision as Pair, only turned round; ok is false without a verdict.
func (d *Verdicts) Versus(base, other *Cell) (Comparison, bool) {
	v, ok := d.Pair(base, other)
	if !ok {
		return Comparison{}, false
	}
	turned := v.Over(base)
	c := Comparison{Base: base.Stat(d.Metric), Other: other.Stat(d.Metric), Verdict: v,
		Ratio: turned.Ratio, Lo: turned.Lo, Hi: turned.Hi, Confidence: v.Level, Method: v.Method,
		P: v.P, PAdjusted: v.PAdj, Differs: v.Claimed(), Reason: turned.Explain()}
	if c.Method == "" {
		c.Method = MethodNone
	}
	return c, true
}
