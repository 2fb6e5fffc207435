package audit

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// Rules that name one cause across many cells.
const (
	RuleHostFirstRep = "host-first-rep" // repetition 1 slowest across the run's cells: the host, not a warm-up
	RuleOutlierRep   = "outlier-rep"    // one repetition far from the others of its cell
)

// runGroups splits cells by run, the runs sorted.
func runGroups(cells []*verdict.Cell) (ids []string, byRun map[string][]*verdict.Cell) {
	return groupCells(cells, func(c *verdict.Cell) string { return c.Run })
}

// groupCells splits cells by key, keeping their order within a group; the
// keys come sorted.
func groupCells(cells []*verdict.Cell, key func(*verdict.Cell) string) (keys []string, by map[string][]*verdict.Cell) {
	by = map[string][]*verdict.Cell{}
	for _, c := range cells {
		k := key(c)
		if by[k] == nil {
			keys = append(keys, k)
		}
		by[k] = append(by[k], c)
	}
	sort.Strings(keys)
	return keys, by
}

// binomialTail is P(X ≥ x) for X ~ Binomial(n, p).
func binomialTail(x, n int, p float64) float64 {
	if x <= 0 {
		return 1
	}
	total := 0.0
	for k := x; k <= n; k++ {
		lc, _ := math.Lgamma(float64(n + 1))
		lk, _ := math.Lgamma(float64(k + 1))
		lnk, _ := math.Lgamma(float64(n - k + 1))
		total += math.Exp(lc - lk - lnk + float64(k)*math.Log(p) + float64(n-k)*math.Log1p(-p))
	}
	return math.Min(1, total)
}

// cellList names cells for a message: "a/ping, b/json and 3 more".
func cellList(cells []*verdict.Cell) string {
	var names []string
	for _, c := range cells {
		names = append(names, c.Name+"/"+c.Scenario)
	}
	sort.Strings(names)
	if len(names) > 8 {
		return strings.Join(names[:8], ", ") + fmt.Sprintf(" and %d more", len(names)-8)
	}
	return strings.Join(names, ", ")
}

// dumpsOfCells is every dump of cells, sorted, each once.
func dumpsOfCells(cells []*verdict.Cell) []string {
	var d []string
	for _, c := range cells {
		d = append(d, c.Dumps()...)
	}
	return uniqueSorted(d)
}

// advice is what a run already does, read from its run.json, so that a
// remedy never asks for it again.
type advice struct {
	governor    bool // the host reports a governor other than performance
	unpinned    bool // the run did not pin server and client CPUs
	sharedSrv   bool // some repetition did not get a fresh server
	interleaved bool // the run's repetitions were interleaved across targets
	warmup      string
}

func runAdvice(run *parse.Run) advice {
	if run == nil {
		return advice{governor: true, unpinned: true, sharedSrv: true}
	}
	a := advice{
		governor: run.Facts.Governor != "" && run.Facts.Governor != "performance",
		unpinned: run.Isolation.ServerCPUs == "" || run.Isolation.ClientCPUs == "",
	}
	type key struct {
		target, scenario string
		rep              int
	}
	started := map[key]bool{}
	var warm []float64
	orders := 0
	for _, m := range run.Measurements {
		if m.Phase == parse.PhaseThroughput { // a latency or sweep point is not a repetition
			k := key{m.Target, m.Scenario, m.Rep}
			started[k] = started[k] || m.StartupS > 0
		}
		if m.Warmup && m.Phase == parse.PhaseThroughput && !m.Start.IsZero() && m.End.After(m.Start) {
			warm = append(warm, m.End.Sub(m.Start).Seconds())
		}
		if m.Order > 0 {
			orders++
		}
	}
	for _, ok := range started {
		a.sharedSrv = a.sharedSrv || !ok
	}
	a.interleaved = orders == len(run.Measurements) && len(run.Measurements) > 0
	if len(warm) > 0 {
		a.warmup = fmt.Sprintf("%.1f s", verdict.MedianOf(warm))
	}
	return a
}

// hostRemedy is what to do about a host-wide effect, without what the run
// already does.
func (a advice) hostRemedy() string {
	var do []string
	if a.governor {
		do = append(do, "set the CPU governor to performance")
	}
	if a.unpinned {
		do = append(do, "pin server and client CPUs")
	}
	if a.sharedSrv {
		do = append(do, "give each repetition a fresh server")
	}
	if !a.interleaved {
		do = append(do, "interleave targets across repetitions")
	}
	do = append(do, "stop other load on the host (on a VM, neighbours share it: run more repetitions, or on dedicated hardware)")
	return strings.Join(do, "; ")
}

// firstRepFindings tells a host pattern from a target's warm-up: when the
// run's cells have their first repetition slowest more often than chance
// (1 in n each) allows at α, that is one host-first-rep finding for the
// run; otherwise each cell whose first repetition is slow and well below
// the rest gets slow-first-rep.
func firstRepFindings(runs map[string]*parse.Run, cells []*verdict.Cell, th verdict.Thresholds) []Finding {
	var fs []Finding
	ids, byRun := runGroups(cells)
	for _, id := range ids {
		slow, eligible, chance, p := beyondChance(byRun[id], 3,
			func(n int) float64 { return 1 / float64(n) },
			func(c *verdict.Cell) bool { _, ok := slowFirstRep(c, th); return ok })
		if len(slow) == 0 {
			continue
		}
		if len(slow) >= 3 && p < th.Alpha {
			fs = append(fs, Finding{Rule: RuleHostFirstRep, Level: LevelWarning, Run: id, Dumps: firstDumps(slow),
				Message: fmt.Sprintf("repetition 1 was the slowest and at least %.0f%% below the rest in %d of %d cells (chance would give about %.1f, p=%.2g): the host was slow at the start of the run, not one target's warm-up; it widens every interval alike. %s; or discard a first round of every target: %s",
					th.SlowFirst*100, len(slow), eligible, chance, p, capitalize(runAdvice(runs[id]).hostRemedy()), cellList(slow))})
			continue
		}
		for _, c := range slow {
			if !standsApart(c.RPS.Values) {
				continue // as slow as the noise makes a first repetition by chance
			}
			f, _ := slowFirstRep(c, th)
			if w := runAdvice(runs[id]).warmup; w != "" {
				f.Message += fmt.Sprintf(" (the warm-up ran %s)", w)
			}
			fs = append(fs, f)
		}
	}
	return fs
}

// standsApart reports whether the first value lies below the others by
// more than twice their own range: a warm-up, not the cell's noise.
func standsApart(v []float64) bool {
	others := slices.Clone(v[1:])
	sort.Float64s(others)
	return others[0]-v[0] > 2*(others[len(others)-1]-others[0])
}

// firstDumps is the first repetition's dump of each cell.
func firstDumps(cells []*verdict.Cell) []string {
	var d []string
	for _, c := range cells {
		d = append(d, c.Reps[0].Source.File)
	}
	return uniqueSorted(d)
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// beyondChance counts the cells of one run that show a pattern (hit) among
// those with at least minReps repetitions, where chance(n) is the
// probability that a cell of n repetitions shows it by luck. It returns the
// cells that show it, how many were eligible, how many chance gives, and p,
// the binomial tail of that count at the cells' mean chance.
func beyondChance(cells []*verdict.Cell, minReps int, chance func(n int) float64, hit func(*verdict.Cell) bool) (hits []*verdict.Cell, eligible int, expected, p float64) {
	for _, c := range cells {
		n := len(c.RPS.Values)
		if n < minReps {
			continue
		}
		eligible++
		expected += chance(n)
		if hit(c) {
			hits = append(hits, c)
		}
	}
	if len(hits) == 0 {
		return nil, eligible, expected, 1
	}
	return hits, eligible, expected, binomialTail(len(hits), eligible, expected/float64(eligible))
}

// driftFindings reports drift only beyond chance: a cell's repetitions all
// rise or all fall with probability 2/n! when nothing drifts, so over many
// cells some do. One finding per run names the cells, when their number is
// above what chance gives at α.
func driftFindings(runs map[string]*parse.Run, cells []*verdict.Cell, th verdict.Thresholds) []Finding {
	var fs []Finding
	ids, byRun := runGroups(cells)
	for _, id := range ids {
		drifting, eligible, chance, p := beyondChance(byRun[id], th.DriftReps,
			func(n int) float64 { return 2 / math.Gamma(float64(n+1)) },
			func(c *verdict.Cell) bool { _, ok := drift(c, th); return ok })
		if len(drifting) == 0 || !(p < th.Alpha) {
			continue
		}
		fs = append(fs, Finding{Rule: RuleDrift, Level: LevelWarning, Run: id, Dumps: dumpsOfCells(drifting),
			Message: fmt.Sprintf("req/s rose or fell at every repetition in %d of %d cells, where chance gives about %.1f (p=%.2g): the host or the servers drift over the run (heat, frequency scaling, a leak): %s. %s",
				len(drifting), eligible, chance, p, cellList(drifting), capitalize(runAdvice(runs[id]).hostRemedy()))})
	}
	return fs
}

// outlierFindings runs outlierRep on every cell with its scenario's
// median robust CV.
func outlierFindings(cells []*verdict.Cell, th verdict.Thresholds) []Finding {
	var fs []Finding
	for _, g := range verdict.GroupByScenario(cells) {
		var cvs []float64
		for _, c := range g {
			if c.RPS.N >= 2 {
				cvs = append(cvs, c.RPS.CV)
			}
		}
		cv := verdict.MedianOf(cvs)
		for _, c := range g {
			if f, ok := outlierRep(c, cv, th); ok {
				fs = append(fs, f)
			}
		}
	}
	return fs
}

// outlierRep fires for the one repetition farthest from the others of its
// cell when it lies more than three times the others' own spread, more
// than four times the scenario's typical noise (its median robust CV), and
// more than twice MaxCV from their median: a stall or a burst, not noise.
func outlierRep(c *verdict.Cell, scenarioCV float64, th verdict.Thresholds) (Finding, bool) {
	v := c.RPS.Values
	if len(v) < 4 || !(c.RPS.Min > 0) {
		return Finding{}, false
	}
	worst, dev, spread := -1, 0.0, 0.0
	for i := range v {
		others := slices.Delete(slices.Clone(v), i, i+1)
		sort.Float64s(others)
		med := math.Log(verdict.MedianSorted(others))
		d := math.Abs(math.Log(v[i]) - med)
		if d > dev {
			s := 0.0
			for _, o := range others {
				s = math.Max(s, math.Abs(math.Log(o)-med))
			}
			worst, dev, spread = i, d, s
		}
	}
	if worst < 0 || !(dev > 3*spread && dev > math.Log1p(2*th.MaxCV) && !(dev <= 4*scenarioCV)) {
		return Finding{}, false
	}
	return cellFinding(c, RuleOutlierRep, LevelWarning, fmt.Sprintf(
		"repetition %d ran %+.0f%% from the median of the others, which lie within %.1f%% of it: one stall or burst, not the cell's noise; the median is robust to it, but it widens this target's intervals, so its verdicts lean to \"~\"; read its dump, and run the cell again",
		c.Reps[worst].Rep, math.Expm1(signedLog(v, worst))*100, math.Expm1(spread)*100),
		[]string{c.Reps[worst].Source.File}), true
}

// signedLog is log v[i] − log(median of the others).
func signedLog(v []float64, i int) float64 {
	others := slices.Delete(slices.Clone(v), i, i+1)
	sort.Float64s(others)
	return math.Log(v[i]) - math.Log(verdict.MedianSorted(others))
}

// foldNoisyCells drops noisy-cell findings of scenarios that are noisy as
// a whole (one cause: the host), naming those cells in the scenario's
// finding instead; and when most of a run's scenarios are noisy, their
// findings become one for the run.
func foldNoisyCells(fs []Finding, runs map[string]*parse.Run, scenarioCount map[string]int) []Finding {
	type key struct{ run, scenario string }
	noisy := map[key]int{}
	for i, f := range fs {
		if f.Rule == RuleNoisyScenario {
			noisy[key{f.Run, f.Scenario}] = i
		}
	}
	folded := map[int][]string{}
	var out []Finding
	for _, f := range fs {
		if i, ok := noisy[key{f.Run, f.Scenario}]; ok && f.Rule == RuleNoisyCell {
			folded[i] = append(folded[i], f.Target)
			continue
		}
		out = append(out, f)
	}
	perRun := map[string][]Finding{}
	var rest []Finding
	for _, f := range out {
		if f.Rule != RuleNoisyScenario {
			rest = append(rest, f)
			continue
		}
		if i := noisy[key{f.Run, f.Scenario}]; len(folded[i]) > 0 {
			sort.Strings(folded[i])
			f.Message += " Noisy targets here: " + strings.Join(folded[i], ", ") + "."
		}
		perRun[f.Run] = append(perRun[f.Run], f)
	}
	ids := make([]string, 0, len(perRun))
	for id := range perRun {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		group := perRun[id]
		if len(group) < 3 || 2*len(group) < scenarioCount[id] {
			rest = append(rest, group...)
			continue
		}
		var names, dumps []string
		for _, f := range group {
			names = append(names, f.Scenario)
			dumps = append(dumps, f.Dumps...)
		}
		sort.Strings(names)
		rest = append(rest, Finding{Rule: RuleNoisyScenario, Level: LevelWarning, Run: id, Dumps: uniqueSorted(dumps),
			Message: fmt.Sprintf("%d of %d scenarios are noisy as a whole (the median robust CV of their targets is above the threshold): %s. One cause, the host; its noise raises every scenario's floor. %s",
				len(group), scenarioCount[id], strings.Join(names, ", "), capitalize(runAdvice(runs[id]).hostRemedy()))})
	}
	return rest
}

// closedLoopFindings says once per run that its latency is closed-loop,
// instead of once per cell. Where the run measured the open-model latency
// phase too (open, from openCells), it points to those numbers rather than
// advising to measure them.
func closedLoopFindings(cells []*verdict.Cell, open []*openCell) []Finding {
	openByRun := map[string][]*openCell{}
	for _, c := range open {
		openByRun[c.run] = append(openByRun[c.run], c)
	}
	var fs []Finding
	ids, byRun := runGroups(cells)
	for _, id := range ids {
		var closed []*verdict.Cell
		for _, c := range byRun[id] {
			if isClosedLoop(c) {
				closed = append(closed, c)
			}
		}
		if len(closed) == 0 {
			continue
		}
		msg := fmt.Sprintf("latency is closed-loop in %d of %d cells: each connection waits for its response before sending the next request, so slow responses hold back the requests that would have seen them and tail percentiles (p90 and up) are understated (coordinated omission); for tail claims measure at a constant rate with wrk2 -R",
			len(closed), len(byRun[id]))
		if oc := openByRun[id]; len(oc) > 0 {
			msg = fmt.Sprintf("latency is closed-loop in %d of %d cells, so their tail percentiles are understated (coordinated omission); this run measured latency at constant offered rates too, which is the latency a user feels: see the latency phase (%s)",
				len(closed), len(byRun[id]), openSummary(oc))
		}
		fs = append(fs, Finding{Rule: RuleClosedLoop, Level: LevelInfo, Run: id, Dumps: dumpsOfCells(closed), Message: msg})
	}
	return fs
}

// openSummary is the p99 of each open cell at its offered rate nearest
// half its capacity (the median over that rate's repetitions): "a/ping:
// p99 4.1 ms at 50% (500 req/s)", eight cells at most; a point that fell
// behind its rate says who did, so its p99 is not read as the server's.
func openSummary(cells []*openCell) string {
	var parts []string
	for _, c := range cells {
		var best []*parse.Measurement
		bestDist := math.Inf(1)
		for _, g := range byRate(c.points) {
			d := math.Abs(g[0].Open.Fraction - 0.5)
			if g[0].Open.Fraction <= 0 {
				d = 1 + g[0].Rate // no share of capacity: the lowest fixed rate
			}
			if d < bestDist {
				best, bestDist = g, d
			}
		}
		var p99 []float64
		for _, m := range best {
			for _, p := range m.Latency.Percentiles {
				if p.P == 99 {
					p99 = append(p99, float64(p.Value))
				}
			}
		}
		if len(p99) == 0 {
			continue
		}
		part := fmt.Sprintf("%s/%s: p99 %s at %s", c.target, c.scenario, formatMS(time.Duration(verdict.MedianOf(p99))), rateLabel(best[0]))
		for _, m := range best {
			if who, _ := whoFellBehind(m); who != behindNone {
				part += ", where " + who + " fell behind (" + RuleAchievedBelowOffered + ")"
				break
			}
		}
		parts = append(parts, part)
	}
	if len(parts) == 0 {
		return "its points printed no p99"
	}
	if len(parts) > 8 {
		return strings.Join(parts[:8], "; ") + fmt.Sprintf("; and %d more", len(parts)-8)
	}
	return strings.Join(parts, "; ")
}

// isClosedLoop reports whether the cell prints tail percentiles of
// closed-loop latency.
func isClosedLoop(c *verdict.Cell) bool {
	for _, m := range c.Reps {
		for _, p := range m.Latency.Percentiles {
			if p.P >= 90 && !m.Latency.Corrected {
				return true
			}
		}
	}
	return false
}
