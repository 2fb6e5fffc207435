package verdict

import (
	"math"
	"slices"
)

// MethodBlockedLog is how a Verdict is decided where the run measured its
// targets in rounds (collect's schedule: round r is every target's r-th
// repetition, each a fresh server process, in a random order): the pair's
// mean log difference over the rounds, tested on the variance of those
// same differences (a paired t-test, n−1 degrees of freedom), Holm's
// step-down over the family.
//
// Why blocks: a host's speed drifts over minutes (a virtual CPU is not
// always as fast, a neighbour takes a core) and the turns of one round run
// minutes apart at most, so what a round's turns share — the host's state
// of those minutes — leaves the comparison instead of widening it. Welch on
// the same values counts that shared part twice, once in each target's
// spread.
//
// Why each pair's own differences: targets differ in steadiness (a
// runtime with a garbage collector is noisier than one without), and a
// variance pooled over the family, or each target's share of a two-way
// fit, lets one noisy target widen the intervals of every steady pair
// beside it: a target swinging ±35% hid a 6% difference between two
// steady ones. The pair's round differences carry exactly the variance
// their test needs (round effects cancel in them), whatever the others do.
// The degrees of freedom this gives up are bought back by rounds (collect
// adds rounds until the family resolves what the suite asks) and, at few
// rounds, lent by the family where its pairs' variances agree: each
// pair's variance is moderated toward theirs (moderated.go), a pair
// noisier than the family keeping its own.
//
// Assumptions, stated: log throughput = target + round + residual, the
// residuals independent with a variance per target. A round's order is
// random (run.json's schedule), so a slow turn or a carry-over from the
// turn before lands on no target in particular. The simulations
// (verdict_sim_test.go, noise_model_test.go, blocked_test.go) check the
// family-wise false claims under round effects, drift across turns, slow
// turns, carry-over, unequal variances and one noisy target among steady
// ones.
const MethodBlockedLog = "blocked-t-log"

// familyTest tests the pairs of one family (one scenario of one run) on
// one metric: blocked by round where every testable cell measured the same
// rounds, each once, in a run whose order is known; else Welch.
type familyTest struct {
	m      Metric
	byCell map[*Cell][]float64 // log values in round order, blocked only
	rounds int
	// speed is the host speed probe's fit (speed.go) where every
	// repetition of a blocked family was probed: its pairs are then
	// tested with the probe's share taken out.
	speed *SpeedFit
	// mod moderates each pair's variance with the family's (moderated.go);
	// index is each testable cell's place in it.
	mod   moderation
	index map[*Cell]int
}

// newFamilyTest prepares the tests of cells (one family) on metric m.
func newFamilyTest(cells []*Cell, m Metric, th Thresholds) *familyTest {
	return newFamilyTestModerated(cells, m, th, true)
}

// newFamilyTestModerated is newFamilyTest, each pair's variance moderated
// by the family's or not (the simulations compare the two).
func newFamilyTestModerated(cells []*Cell, m Metric, th Thresholds, moderated bool) *familyTest {
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
	ft.rounds, ft.byCell, ft.index = len(rounds), map[*Cell][]float64{}, map[*Cell]int{}
	for i, c := range testable {
		ft.byCell[c] = byRound(c, m, rounds)
		ft.index[c] = i
	}
	ft.speed = fitSpeed(ft, testable)
	if moderated {
		ft.mod = ft.moderation(testable)
	}
	return ft
}

// moderation is the moderation of the family's pairs (moderated.go), from
// every pair of its testable cells.
func (ft *familyTest) moderation(cells []*Cell) moderation {
	var vs []float64
	for i, a := range cells {
		for _, b := range cells[i+1:] {
			_, v := MeanVar(ft.diffs(a, b))
			vs = append(vs, v)
		}
	}
	return moderationOf(vs, len(cells), float64(ft.rounds-1), maxPriorDF(ft.rounds, len(cells), ft.speed != nil))
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
	if ft.speed != nil {
		return MethodBlockedSpeed
	}
	if ft.blocked() {
		return MethodBlockedLog
	}
	return MethodWelchLog
}

// test is a against b: the log ratio of their geometric means, its
// standard error, degrees of freedom and two-sided p.
func (ft *familyTest) test(a, b *Cell) Welch {
	d := ft.diffs(a, b)
	if d == nil {
		return WelchLog(a.Stat(ft.m).Values, b.Stat(ft.m).Values)
	}
	w := Welch{}
	var v float64
	w.Diff, v = MeanVar(d)
	n := float64(len(d))
	extra := 0.0
	if ft.speed != nil {
		extra = ft.speed.betaShare(a, b)
	}
	v, df := ft.mod.pair(ft.index[a], ft.index[b], v, n-1)
	return finishT(w, v/n+extra, df)
}

// diffs is a's log value minus b's in each round, with the host speed
// probe's share taken out where the family has its fit; nil where either
// was not measured in the family's rounds.
func (ft *familyTest) diffs(a, b *Cell) []float64 {
	ya, yb := ft.byCell[a], ft.byCell[b]
	if ya == nil || yb == nil {
		return nil
	}
	d := make([]float64, len(ya))
	for r := range ya {
		d[r] = ya[r] - yb[r]
	}
	if ft.speed != nil {
		ft.speed.adjust(d, a, b)
	}
	return d
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
// see it: for a blocked family, the root mean over its pairs of half the
// variance of their round differences (a pair's difference has twice one
// side's variance); else the root mean of each cell's spread. n is the
// median repetitions per cell; sigma is 0 with no testable cell.
func (ft *familyTest) sigma(cells []*Cell) (sigma float64, n int) {
	var vs, ns []float64
	for _, c := range cells {
		ns = append(ns, float64(c.Stat(ft.m).N))
	}
	if ft.blocked() {
		for i, a := range cells {
			for _, b := range cells[i+1:] {
				if d := ft.diffs(a, b); d != nil {
					_, v := MeanVar(d)
					vs = append(vs, v/2)
				}
			}
		}
	}
	if len(vs) == 0 {
		for _, c := range cells {
			_, v := LogMeanVar(c.Stat(ft.m).Values)
			vs = append(vs, v)
		}
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

// df is the degrees of freedom of a pair's test at n repetitions: n−1
// paired by round and the family's prior's (moderated.go, bounded as at n
// rounds), else about 2n−2 (Welch at equal variances).
func (ft *familyTest) df(n int) float64 {
	if ft.blocked() {
		return float64(n-1) + min(ft.mod.prior.D0, maxPriorDF(n, len(ft.byCell), ft.speed != nil))
	}
	return float64(2*n - 2)
}
