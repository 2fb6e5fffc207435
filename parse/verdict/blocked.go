package verdict

import (
	"math"
	"slices"
)

// MethodBlockedLog is how a Verdict is decided where the run measured its
// targets in rounds (collect's schedule: round r is every target's r-th
// repetition, each a fresh server process, in a random order): the pair's
// mean log difference over the rounds, its variance from each target's own
// residuals in a two-way (target × round) fit, a t-test with the
// Satterthwaite degrees of freedom, Holm's step-down over the family.
//
// Why blocks: a host's speed drifts over minutes (a virtual CPU is not
// always as fast, a neighbour takes a core) and the turns of one round run
// minutes apart at most, so what a round's turns share — the host's state
// of those minutes — leaves the comparison instead of widening it. Welch on
// the same values counts that shared part twice, once in each target's
// spread.
//
// Why per-target variances: a runtime with a garbage collector is noisier
// than one without; one pooled variance would be too small for the noisy
// pairs (false claims) and too large for the steady ones. Each target's
// variance is Shukla's (1972) unbiased estimate from the additive fit's
// residuals, which needs three targets or more; a family of two is tested
// on its paired differences (n−1 degrees of freedom).
//
// Assumptions, stated: log throughput = target + round + residual, the
// residuals independent with a variance per target. A round's order is
// random (run.json's schedule), so a slow turn or a carry-over from the
// turn before lands on no target in particular. The simulations
// (verdict_sim_test.go, noise_model_test.go) check the family-wise false
// claims under round effects, drift across turns, slow turns, carry-over
// and unequal variances.
const MethodBlockedLog = "blocked-t-log"

// familyTest tests the pairs of one family (one scenario of one run) on
// one metric: blocked by round where every testable cell measured the same
// rounds, each once, in a run whose order is known; else Welch.
type familyTest struct {
	m      Metric
	byCell map[*Cell][]float64 // log values in round order, blocked only
	rounds int
	// variance is each cell's residual variance (blocked): Shukla's for
	// three cells or more, half the paired differences' variance for two
	// (paired); dfEach is one estimate's degrees of freedom.
	variance map[*Cell]float64
	dfEach   float64
	paired   bool
}

// newFamilyTest prepares the tests of cells (one family) on metric m.
func newFamilyTest(cells []*Cell, m Metric, th Thresholds) *familyTest {
	ft := &familyTest{m: m}
	var testable []*Cell
	for _, c := range cells {
		if ok, _ := Testable(c, m, th); ok {
			testable = append(testable, c)
		}
	}
	rounds, ok := commonRounds(testable, m)
	if !ok || len(testable) < 2 || len(rounds) < max(th.MinReps, 3) {
		return ft
	}
	ft.rounds, ft.byCell = len(rounds), map[*Cell][]float64{}
	for _, c := range testable {
		ft.byCell[c] = byRound(c, m, rounds)
	}
	if len(testable) >= 3 {
		ft.variance, ft.dfEach = shukla(testable, ft.byCell)
		return ft
	}
	a, b := ft.byCell[testable[0]], ft.byCell[testable[1]]
	d := make([]float64, len(a))
	for r := range a {
		d[r] = a[r] - b[r]
	}
	_, vd := MeanVar(d)
	ft.paired = true
	ft.variance = map[*Cell]float64{testable[0]: vd / 2, testable[1]: vd / 2}
	return ft
}

// commonRounds is the rounds every cell measured, sorted; false unless
// every cell is of one run and measured exactly those, each once, with its
// order known (read from run.json: without it a repetition number is only
// a file's place).
func commonRounds(cells []*Cell, m Metric) ([]int, bool) {
	var want []int
	for i, c := range cells {
		if len(c.Stat(m).Values) != len(c.Reps) || c.Run != cells[0].Run {
			return nil, false
		}
		var got []int
		for _, r := range c.Reps {
			if r.Order <= 0 {
				return nil, false
			}
			got = append(got, r.Rep)
		}
		slices.Sort(got)
		if len(slices.Compact(slices.Clone(got))) != len(got) {
			return nil, false
		}
		if i == 0 {
			want = got
		} else if !slices.Equal(got, want) {
			return nil, false
		}
	}
	return want, len(cells) > 0
}

// byRound is c's log values in the order of rounds.
func byRound(c *Cell, m Metric, rounds []int) []float64 {
	values := c.Stat(m).Values
	at := make(map[int]int, len(rounds)) // a round's place in rounds
	for i := len(rounds) - 1; i >= 0; i-- {
		at[rounds[i]] = i
	}
	out := make([]float64, len(rounds))
	for i, r := range c.Reps {
		out[at[r.Rep]] = math.Log(values[i])
	}
	return out
}

// shukla is each cell's residual variance in the additive two-way fit of
// y (cells × rounds), Shukla's unbiased estimate
//
//	σ²ᵢ = k/((k−2)(n−1)) Σᵣ e²ᵢᵣ − 1/((k−1)(k−2)(n−1)) Σᵢ Σᵣ e²ᵢᵣ,
//
// kept at least a tenth of the pooled residual variance (the estimate can
// fall below zero for a steady cell among noisy ones), with the degrees of
// freedom one cell's estimate carries, (n−1)(k−1)/k.
func shukla(cells []*Cell, y map[*Cell][]float64) (map[*Cell]float64, float64) {
	k, n := float64(len(cells)), float64(len(y[cells[0]]))
	rowMean := map[*Cell]float64{}
	colMean := make([]float64, int(n))
	grand := 0.0
	for _, c := range cells {
		for r, v := range y[c] {
			rowMean[c] += v / n
			colMean[r] += v / k
			grand += v / (k * n)
		}
	}
	ss := map[*Cell]float64{}
	total := 0.0
	for _, c := range cells {
		for r, v := range y[c] {
			e := v - rowMean[c] - colMean[r] + grand
			ss[c] += e * e
			total += e * e
		}
	}
	pooled := total / ((k - 1) * (n - 1))
	out := map[*Cell]float64{}
	for _, c := range cells {
		v := k/((k-2)*(n-1))*ss[c] - total/((k-1)*(k-2)*(n-1))
		out[c] = math.Max(v, pooled/10)
	}
	return out, (n - 1) * (k - 1) / k
}

// PairTest is the test Decide gives cells a and b of family (one scenario
// of one run, every cell of it) on metric m: blocked by round where the
// family was measured in rounds, else Welch's.
func PairTest(family []*Cell, a, b *Cell, m Metric, th Thresholds) Welch {
	return newFamilyTest(family, m, th).test(a, b)
}

// blocked reports whether the family is tested by rounds.
func (ft *familyTest) blocked() bool { return ft.byCell != nil }

// method names the test the family's pairs get.
func (ft *familyTest) method() string {
	if ft.blocked() {
		return MethodBlockedLog
	}
	return MethodWelchLog
}

// test is a against b: the log ratio of their geometric means, its
// standard error, degrees of freedom and two-sided p.
func (ft *familyTest) test(a, b *Cell) Welch {
	ya, yb := ft.byCell[a], ft.byCell[b]
	if ya == nil || yb == nil {
		return WelchLog(a.Stat(ft.m).Values, b.Stat(ft.m).Values)
	}
	n := float64(ft.rounds)
	d := make([]float64, len(ya))
	for r := range ya {
		d[r] = ya[r] - yb[r]
	}
	w := Welch{}
	w.Diff, _ = MeanVar(d)
	sa, sb := ft.variance[a]/n, ft.variance[b]/n
	vd, df := sa+sb, n-1
	if !ft.paired {
		df = ft.dfEach * vd * vd / (sa*sa + sb*sb)
	}
	return finishT(w, vd, df)
}

// finishT completes w (Diff set) with its variance vd and df: SE, DF, p.
func finishT(w Welch, vd, df float64) Welch {
	w.SE, w.DF = math.Sqrt(vd), df
	if w.SE == 0 {
		w.p = 1
		if w.Diff != 0 {
			w.p = 0
		}
		return w
	}
	w.p = StudentTwoSided(w.Diff/w.SE, w.DF)
	return w
}

// sigma is the family's per-repetition noise on log values as its tests
// see it: the root mean residual variance of blocked cells, else of each
// cell's spread; 0 with no testable cell.
func (ft *familyTest) sigma(cells []*Cell) (sigma float64, n int) {
	var vs, ns []float64
	for _, c := range cells {
		if v, ok := ft.variance[c]; ok {
			vs = append(vs, v)
		} else {
			_, v := LogMeanVar(c.Stat(ft.m).Values)
			vs = append(vs, v)
		}
		ns = append(ns, float64(c.Stat(ft.m).N))
	}
	if len(vs) == 0 {
		return 0, 0
	}
	mean := 0.0
	for _, v := range vs {
		mean += v / float64(len(vs))
	}
	return math.Sqrt(mean), int(MedianOf(ns))
}
