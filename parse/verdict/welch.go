package verdict

import (
	"math"
	"sort"
)

// MethodWelchLog is how a Verdict is decided: Welch's t-test on the
// logarithms of the repetitions' throughput, two-sided, with Holm's
// step-down correction over the family (every tested pair of targets in
// one scenario of one run).
//
// Why this test, at the 4 to 10 repetitions benchmarks have:
//
//   - Rank tests cannot reject there once corrected. The smallest two-sided
//     Mann-Whitney p for 4 against 4 is 2/70 = 0.029; Holm over the 105 pairs
//     of 15 targets asks the first for 0.05/105 = 0.00048, so a U test would
//     say "~" to a target ten times slower. benchstat (benchmath's U test, no
//     correction) is safe only because it compares one pair at a time.
//   - A t statistic has power at n = 4: its p-value is continuous, so a
//     difference that is large against the noise reaches any level.
//     hyperfine's own significance script uses Welch's t-test; criterion
//     uses a t statistic with a bootstrap.
//   - Logarithms: throughput is a rate and its noise is multiplicative (a
//     slow spell of the host costs a share, not a fixed count), so the
//     difference of mean logs is the log of the ratio of geometric means,
//     and the interval is one of ratios. The geometric mean is therefore the
//     estimator shown beside the verdict.
//   - Welch, not Student: targets differ in steadiness (a runtime with a
//     garbage collector is noisier), and Welch does not assume equal
//     variances.
//
// Assumptions, stated: the log throughputs of one cell are independent and
// roughly normal. Heavy tails and a single outlier repetition inflate the
// variance and make the test more cautious, not less; the simulation tests
// (verdict_sim_test.go) check the family-wise false-claim rate under
// Gaussian noise, heavy tails, one outlier, unequal variances and residuals
// resampled from real A/A runs. Where the cells were measured in rounds,
// MethodBlockedLog takes the host's shared state of each round out first;
// Welch is for cells whose rounds are not known (dumps read without
// run.json, a repetition missing, two runs).
const MethodWelchLog = "welch-t-log"

// Welch is Welch's two-sample t-test on log values.
type Welch struct {
	Diff float64 // mean log a − mean log b: the log of the ratio of geometric means
	SE   float64 // standard error of diff
	DF   float64 // Welch–Satterthwaite degrees of freedom
	p    float64 // two-sided p-value
}

// WelchLog tests a against b on their logarithms. Every value must be
// positive and each side must hold at least two values.
func WelchLog(a, b []float64) Welch {
	ma, va := LogMeanVar(a)
	mb, vb := LogMeanVar(b)
	na, nb := float64(len(a)), float64(len(b))
	sa, sb := va/na, vb/nb
	w := Welch{Diff: ma - mb, SE: math.Sqrt(sa + sb)}
	if w.SE == 0 {
		// Both cells repeated one value exactly: nothing to weigh the
		// difference against, so it is certain or absent.
		w.DF = na + nb - 2
		w.p = 1
		if w.Diff != 0 {
			w.p = 0
		}
		return w
	}
	w.DF = (sa + sb) * (sa + sb) / (sa*sa/(na-1) + sb*sb/(nb-1))
	w.p = StudentTwoSided(w.Diff/w.SE, w.DF)
	return w
}

// Interval is the confidence interval of the ratio exp(diff) at level.
func (w Welch) Interval(level float64) (lo, hi float64) {
	if w.SE == 0 {
		r := math.Exp(w.Diff)
		return r, r
	}
	q := studentQuantile(1-(1-level)/2, w.DF)
	return math.Exp(w.Diff - q*w.SE), math.Exp(w.Diff + q*w.SE)
}

// equivalenceP is the p of two one-sided tests that the log ratio lies
// within ±delta: the larger of the p of "diff ≤ −delta" and of "diff ≥
// delta", each rejected on the t distribution of the test. With SE 0 it is
// 0 inside the margin and 1 outside.
func (w Welch) equivalenceP(delta float64) float64 {
	if w.SE == 0 {
		if math.Abs(w.Diff) < delta {
			return 0
		}
		return 1
	}
	lower := StudentTwoSided((w.Diff+delta)/w.SE, w.DF) / 2 // H0: diff ≤ −delta
	upper := StudentTwoSided((w.Diff-delta)/w.SE, w.DF) / 2 // H0: diff ≥ delta
	if w.Diff+delta < 0 {
		lower = 1 - lower
	}
	if w.Diff-delta > 0 {
		upper = 1 - upper
	}
	return math.Max(lower, upper)
}

// LogMeanVar is the mean and the sample variance of log v.
func LogMeanVar(v []float64) (mean, variance float64) {
	logs := make([]float64, len(v))
	for i, x := range v {
		logs[i] = math.Log(x)
	}
	return MeanVar(logs)
}

// MeanVar is the mean and the sample variance of v; the variance is 0 for
// fewer than two values.
func MeanVar(v []float64) (mean, variance float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	for _, x := range v {
		variance += (x - mean) * (x - mean)
	}
	if len(v) > 1 {
		variance /= float64(len(v) - 1)
	}
	return mean, variance
}

// Holm adjusts p-values for their number, step-down (Holm 1979): the
// adjusted p of the j-th smallest (from 0) is the running maximum of
// (m−j)·p, capped at 1. It also returns each one's step level, α/(m−j):
// the level at which that test must reject for Holm to reject it.
func Holm(p []float64, alpha float64) (adj, step []float64) {
	m := len(p)
	idx := make([]int, m)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(x, y int) bool { return p[idx[x]] < p[idx[y]] })
	adj, step = make([]float64, m), make([]float64, m)
	running := 0.0
	for j, i := range idx {
		running = math.Max(running, math.Min(1, float64(m-j)*p[i]))
		adj[i], step[i] = running, alpha/float64(m-j)
	}
	return adj, step
}
