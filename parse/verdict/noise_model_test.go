package verdict

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"github.com/fairbench/fairbench/parse"
)

// noiseModelFile holds the noise of real runs as a model the simulations
// draw from: per run, the host's drift across turns, each turn's own
// (process) offset, each measurement's own, and slow turns. It is fitted
// from the runs under ../../site/results by `go test -run TestNoiseModel
// -update` and frozen, so that the simulations do not change when the site
// is collected again.
const noiseModelFile = "testdata/noise-model.json"

// noiseModel is the noise of one run, on log throughput. A run is a
// sequence of turns (one server process of one target serving every
// scenario of one round); its measurements are
//
//	log value = target's level + host(turn) + process(turn) + own
//
// host follows an AR(1) from turn to turn with correlation HostPhi and
// marginal standard deviation HostSD; process and own are independent
// normal offsets; a share SlowShare of turns run slow by SlowLog on top.
type noiseModel struct {
	Run       string  `json:"run"`
	Turns     int     `json:"turns"`
	HostSD    float64 `json:"host_sd"`
	HostPhi   float64 `json:"host_phi"`
	ProcessSD float64 `json:"process_sd"`
	OwnSD     float64 `json:"own_sd"`
	SlowShare float64 `json:"slow_share"`
	SlowLog   float64 `json:"slow_log"`
}

// slowCut is how far below the run's median turn effect a turn counts as
// slow when fitting (log: 0.26 is ×0.77).
const slowCut = 0.26

// fitNoiseModel fits a noiseModel to the cells of one run: the turn
// effects in time order give the host's autocovariance at lags 1 and 2
// (φ = γ₂/γ₁, σ²host = γ₁/φ), their variance less the host's and the
// measurements' share gives the process's, and the measurements' spread
// within their turn gives their own.
func fitNoiseModel(run string, cells []*Cell) noiseModel {
	turnOf := map[*parse.Measurement]turnKey{}
	first := map[turnKey]int{}
	for _, c := range cells {
		for _, m := range c.Reps {
			k := turnKey{c.Target, m.Rep}
			turnOf[m] = k
			if o, ok := first[k]; !ok || m.Order < o {
				first[k] = m.Order
			}
		}
	}
	var turns []turnKey
	for k := range first {
		turns = append(turns, k)
	}
	sort.Slice(turns, func(i, j int) bool { return first[turns[i]] < first[turns[j]] })
	index := map[turnKey]int{}
	for i, k := range turns {
		index[k] = i
	}
	effect := turnEffects(cells, turnOf, index)
	// own: spread of measurements around cell mean + turn effect
	var own []float64
	perTurn := 0.0
	for _, c := range cells {
		mean := 0.0
		for _, m := range c.Reps {
			mean += math.Log(m.Throughput())
		}
		mean /= float64(len(c.Reps))
		for _, m := range c.Reps {
			own = append(own, math.Log(m.Throughput())-mean-effect[index[turnOf[m]]])
			perTurn++
		}
	}
	perTurn /= float64(len(turns))
	nm := noiseModel{Run: run, Turns: len(turns)}
	_, ownVar := LogMeanVar(expAll(own))
	// the within-turn spread loses one value of each turn to its mean
	ownVar *= perTurn / math.Max(perTurn-1, 1)
	nm.OwnSD = math.Sqrt(ownVar)
	med := MedianOf(effect)
	var kept []float64
	var slow []float64
	for _, e := range effect {
		if e < med-slowCut {
			slow = append(slow, e-med)
			kept = append(kept, math.NaN())
			continue
		}
		kept = append(kept, e)
	}
	nm.SlowShare = float64(len(slow)) / float64(len(effect))
	if len(slow) > 0 {
		nm.SlowLog = MedianOf(slow)
	}
	g0, g1, g2 := autocov(kept, 0), autocov(kept, 1), autocov(kept, 2)
	if g1 > 0 && g2 > 0 {
		nm.HostPhi = math.Min(0.95, g2/g1)
		nm.HostSD = math.Sqrt(math.Min(g0, g1/nm.HostPhi))
	}
	nm.ProcessSD = math.Sqrt(math.Max(0, g0-nm.HostSD*nm.HostSD-ownVar/perTurn))
	return nm
}

// turnKey is one turn: a target's repetition in one run.
type turnKey struct {
	target string
	rep    int
}

// turnEffects is each turn's mean, over its measurements, of log value
// minus its cell's mean of log values.
func turnEffects(cells []*Cell, turnOf map[*parse.Measurement]turnKey, index map[turnKey]int) []float64 {
	sum := make([]float64, len(index))
	count := make([]float64, len(index))
	for _, c := range cells {
		mean := 0.0
		for _, m := range c.Reps {
			mean += math.Log(m.Throughput())
		}
		mean /= float64(len(c.Reps))
		for _, m := range c.Reps {
			i := index[turnOf[m]]
			sum[i] += math.Log(m.Throughput()) - mean
			count[i]++
		}
	}
	for i := range sum {
		sum[i] /= count[i]
	}
	return sum
}

// autocov is the autocovariance of x at lag, NaN entries left out.
func autocov(x []float64, lag int) float64 {
	var mean float64
	var n int
	for _, v := range x {
		if !math.IsNaN(v) {
			mean += v
			n++
		}
	}
	mean /= float64(n)
	var s float64
	var m int
	for i := lag; i < len(x); i++ {
		if math.IsNaN(x[i]) || math.IsNaN(x[i-lag]) {
			continue
		}
		s += (x[i] - mean) * (x[i-lag] - mean)
		m++
	}
	return s / float64(m)
}

func expAll(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = math.Exp(x)
	}
	return out
}

// TestNoiseModel checks the frozen noise models, or with -update fits them
// again from the runs under ../../site/results.
func TestNoiseModel(t *testing.T) {
	if *update {
		runs, _ := filepath.Glob("../../site/results/*")
		var models []noiseModel
		for _, dir := range runs {
			set, err := parse.ReadAll([]string{dir})
			if err != nil {
				t.Fatal(err)
			}
			cells := Cells(set, DefaultThresholds)
			if len(cells) == 0 || len(set.Runs) != 1 {
				continue
			}
			models = append(models, fitNoiseModel(set.Runs[0].ID, cells))
		}
		b, err := json.MarshalIndent(models, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(noiseModelFile, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	models := noiseModels(t)
	if len(models) < 3 {
		t.Fatalf("%d noise models in %s, want the committed runs'", len(models), noiseModelFile)
	}
	for _, m := range models {
		if !(m.OwnSD >= 0 && m.OwnSD < 1) || m.HostSD < 0 || m.HostPhi < 0 || m.HostPhi > 0.95 || m.SlowShare < 0 || m.SlowShare > 0.5 {
			t.Errorf("implausible model %+v", m)
		}
	}
}

// noiseModels reads noiseModelFile.
func noiseModels(t *testing.T) []noiseModel {
	t.Helper()
	b, err := os.ReadFile(noiseModelFile)
	if err != nil {
		t.Fatal(err)
	}
	var models []noiseModel
	if err := json.Unmarshal(b, &models); err != nil {
		t.Fatalf("%s: %v", noiseModelFile, err)
	}
	return models
}

// simRun is one simulated run under a noise model: k targets, s scenarios,
// n rounds. level[t] is target t's log level (identical targets: all 0);
// carry is the log effect on a turn of following target 0's turn (a
// negative carry slows the next target); random orders each round at
// random, else rotates it (round r starts r targets later).
type simRun struct {
	k, s, n int
	level   []float64
	carry   float64
	random  bool
}

// draw simulates the run's measurements as a set of cells named "t0"…,
// scenarios "s0"…, each measurement with its rep (round) and order.
func (sr simRun) draw(r *rand.Rand, nm noiseModel) []*Cell {
	var ms []*parse.Measurement
	host, order := 0.0, 0
	slowLeft := 0
	prev := -1
	for round := 1; round <= sr.n; round++ {
		seq := make([]int, sr.k)
		for i := range seq {
			seq[i] = (i + round - 1) % sr.k
		}
		if sr.random {
			r.Shuffle(len(seq), func(i, j int) { seq[i], seq[j] = seq[j], seq[i] })
		}
		for _, t := range seq {
			host = nm.HostPhi*host + math.Sqrt(1-nm.HostPhi*nm.HostPhi)*nm.HostSD*r.NormFloat64()
			turn := host + nm.ProcessSD*r.NormFloat64()
			if slowLeft > 0 {
				turn += nm.SlowLog
				slowLeft--
			} else if r.Float64() < nm.SlowShare/2 {
				// spells of two turns on average, so SlowShare of turns are slow
				slowLeft = 1
				turn += nm.SlowLog
			}
			if prev == 0 && t != 0 {
				turn += sr.carry
			}
			prev = t
			for s := 0; s < sr.s; s++ {
				order++
				x := sr.level[t] + turn + nm.OwnSD*r.NormFloat64()
				m := meas("sim", "t"+itoa(t), "s"+itoa(s), round, 1000*math.Exp(x))
				m.Order = order
				ms = append(ms, m)
			}
		}
	}
	set := &parse.Set{Measurements: ms}
	return Cells(set, DefaultThresholds)
}

func itoa(i int) string { return string(rune('0'+i/10)) + string(rune('0'+i%10)) }

// simDecide decides a simulated run's cells.
func simDecide(cells []*Cell) *Verdicts {
	return Decide(&parse.Set{}, cells, MetricRPS, DecideOptions{})
}

// pagesWithFalseClaims counts the scenarios (pages) of runs of identical
// targets in which any pair was claimed.
func pagesWithFalseClaims(seed uint64, runs int, nm noiseModel, sr simRun) (bad, pages int) {
	r := newRand(seed)
	for range runs {
		d := simDecide(sr.draw(r, nm))
		for _, sv := range d.Scenarios {
			pages++
			if slices.ContainsFunc(sv.Pairs, func(v Verdict) bool { return v.Claimed() }) {
				bad++
			}
		}
	}
	return bad, pages
}

// simRuns is how many runs each noise model simulates; FAIRBENCH_SOAK=1
// multiplies them by 10.
func simRuns() int {
	if os.Getenv("FAIRBENCH_SOAK") == "1" {
		return 100
	}
	return 10
}

// TestVerdictsUnderRunNoise: runs shaped like the committed ones (their
// fitted noise: host drift, process offsets, slow turns), six identical
// targets over eleven scenarios and eight rounds in a random order each
// round, one target slowing the turn after it by 10%: the pages with any
// claim stay within α. A rotating order puts the slowed turn on the same
// target every round, which is why the schedule is random.
func TestVerdictsUnderRunNoise(t *testing.T) {
	for i, nm := range noiseModels(t) {
		if nm.Turns < 40 {
			continue // the early runs: fewer repetitions than the site's settings
		}
		null := simRun{k: 6, s: 11, n: 8, level: make([]float64, 6), carry: math.Log(0.9), random: true}
		bad, pages := pagesWithFalseClaims(uint64(100+i), simRuns(), nm, null)
		limit := binomialBound(DefaultThresholds.Alpha, pages)
		t.Logf("%s: %d of %d pages with a false claim (limit %.0f)", nm.Run, bad, pages, limit)
		if float64(bad) > limit {
			t.Errorf("%s: %d of %d pages of identical targets claim a difference, over the bound %.1f", nm.Run, bad, pages, limit)
		}
	}
}

// TestVerdictsPowerUnderRunNoise measures, under each committed run's
// noise, how often a target 10% faster than five others is claimed faster
// at eight repetitions, and checks that the power finding agrees: where
// fewer than 80% of its pairs are shown, Power asks for more than eight
// repetitions for 10% (or says no count can). A claim the wrong way is a
// directional error, bounded like a false claim: the pages holding one stay
// within α/2 (a two-sided test errs each way with half its α).
func TestVerdictsPowerUnderRunNoise(t *testing.T) {
	for i, nm := range noiseModels(t) {
		if nm.Turns < 40 {
			continue
		}
		sr := simRun{k: 6, s: 11, n: 8, level: []float64{0, 0, 0, 0, 0, math.Log(1.1)}, random: true}
		r := newRand(uint64(200 + i))
		shown, wrong, total, pages, wrongPages := 0, 0, 0, 0, 0
		var need []float64
		for range simRuns() {
			d := simDecide(sr.draw(r, nm))
			for _, sv := range d.Scenarios {
				if p, ok := sv.Power(d.Thresholds); ok {
					need = append(need, float64(p.Need10))
				}
				pages++
				before := wrong
				for _, v := range sv.Pairs {
					if v.A != "t05" && v.B != "t05" {
						continue
					}
					total++
					switch f := v.Faster(); {
					case f == nil:
					case f.Target == "t05":
						shown++
					default:
						wrong++
					}
				}
				if wrong > before {
					wrongPages++
				}
			}
		}
		power := float64(shown) / float64(total)
		n10 := MedianOf(need)
		t.Logf("%s: a 10%% faster target shown in %.0f%% of its pairs at 8 repetitions (%d the wrong way); Power: 10%% needs %.0f repetitions (0: none can)", nm.Run, 100*power, wrong, n10)
		if limit := binomialBound(DefaultThresholds.Alpha/2, pages); float64(wrongPages) > limit {
			t.Errorf("%s: %d of %d pages claim the 10%% faster target slower, over the bound %.1f", nm.Run, wrongPages, pages, limit)
		}
		if power < 0.8 && n10 != 0 && n10 <= 8 {
			t.Errorf("%s: %.0f%% shown at 8 repetitions, yet Power says %.0f are enough for 10%%", nm.Run, 100*power, n10)
		}
	}
}
