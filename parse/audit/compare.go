package audit

import (
	"fmt"
	"math"
	"sort"

	"golang.org/x/perf/benchmath"
)

// How a Comparison decided.
const (
	// MethodUTest: both sides have at least Thresholds.UTestReps values and
	// the Mann-Whitney U test (benchmath) decided, Holm-adjusted where many
	// targets meet one baseline.
	MethodUTest = "mann-whitney"
	// MethodRanges: a side has MinReps to UTestReps-1 values; a difference is
	// claimed only when the ranges do not overlap and the gap exceeds Noise.
	MethodRanges = "ranges"
	// MethodNone: a side has fewer than MinReps values; nothing is claimed.
	MethodNone = "none"
)

// Comparison is the verdict on two stats of one metric: Base and Other.
type Comparison struct {
	Base, Other Stat
	// Ratio is Other.Median / Base.Median.
	Ratio float64
	// Lo and Hi bound the ratio at Confidence: the distribution-free
	// (Hodges–Lehmann / Moses) interval of the shift between the logarithms
	// of the two samples. When the sizes cannot reach the confidence asked
	// for, they are the widest interval the data give, and Confidence says
	// how much less it is.
	Lo, Hi     float64
	Confidence float64
	Method     string  // MethodUTest, MethodRanges or MethodNone
	P          float64 // the U test's p-value; NaN unless Method is MethodUTest
	PAdjusted  float64 // P after Holm–Bonferroni; P for a single comparison
	// Differs reports that a difference is claimed.
	Differs bool
	// Reason says in words why a difference is or is not claimed.
	Reason string
	// Verdict is the decision this comparison shows, when it came from
	// Verdicts.Versus (the one decision layer); zero from CompareStats.
	Verdict Verdict
}

// Delta is the change from Base to Other as a table shows it: "+12.34%",
// "~" when no difference is claimed, "?" when too few repetitions to tell.
func (c Comparison) Delta() string {
	switch {
	case c.Method == MethodNone:
		return "?"
	case !c.Differs:
		return "~"
	}
	return fmt.Sprintf("%+.2f%%", (c.Ratio-1)*100)
}

// CompareStats compares two stats of the same metric. Use CompareBaseline
// when many cells meet one baseline, so that the p-values are adjusted.
func CompareStats(base, other Stat, th Thresholds) Comparison {
	c := Comparison{Base: base, Other: other, P: math.NaN(), PAdjusted: math.NaN()}
	c.Ratio = other.Median / base.Median
	c.Lo, c.Hi, c.Confidence = ratioInterval(base.Values, other.Values, th.Confidence)
	n := min(base.N, other.N)
	switch {
	case n < th.MinReps || !base.Valid() || !other.Valid():
		c.Method = MethodNone
		c.Reason = fmt.Sprintf("too few repetitions to tell (n=%d+%d, need %d on both sides)", base.N, other.N, th.MinReps)
	case n < th.UTestReps:
		c.Method = MethodRanges
		c.decideByRanges(th)
	default:
		c.Method = MethodUTest
		bt := &benchmath.Thresholds{CompareAlpha: th.Alpha}
		cmp := benchmath.AssumeNothing.Compare(
			benchmath.NewSample(cloneFloats(base.Values), bt),
			benchmath.NewSample(cloneFloats(other.Values), bt))
		c.P, c.PAdjusted = cmp.P, cmp.P
		c.decideByP(th)
	}
	return c
}

// decideByP sets Differs and Reason from PAdjusted and the noise threshold.
func (c *Comparison) decideByP(th Thresholds) {
	change := math.Abs(c.Ratio - 1)
	switch {
	case !(c.PAdjusted < th.Alpha):
		c.Differs = false
		c.Reason = fmt.Sprintf("~: p=%.3f is not below %.2f", c.PAdjusted, th.Alpha)
	case !(change > th.Noise):
		c.Differs = false
		c.Reason = fmt.Sprintf("~: p=%.3f but the %.1f%% change is within the %.0f%% noise threshold", c.PAdjusted, change*100, th.Noise*100)
	default:
		c.Differs = true
		c.Reason = fmt.Sprintf("p=%.3f < %.2f and the %.1f%% change exceeds the %.0f%% noise threshold", c.PAdjusted, th.Alpha, change*100, th.Noise*100)
	}
}

// decideByRanges claims a difference only when the ranges are apart by more
// than the noise threshold.
func (c *Comparison) decideByRanges(th Thresholds) {
	b, o := c.Base, c.Other
	var gap float64
	switch {
	case o.Min > b.Max:
		gap = o.Min/b.Max - 1
	case o.Max < b.Min:
		gap = b.Min/o.Max - 1
	default:
		c.Reason = fmt.Sprintf("~: n=%d+%d is too few for a U test and the ranges overlap", b.N, o.N)
		return
	}
	if !(gap > th.Noise) {
		c.Reason = fmt.Sprintf("~: n=%d+%d; the ranges are apart by %.1f%%, within the %.0f%% noise threshold", b.N, o.N, gap*100, th.Noise*100)
		return
	}
	c.Differs = true
	c.Reason = fmt.Sprintf("n=%d+%d; the ranges do not overlap and are apart by %.1f%%, beyond the %.0f%% noise threshold", b.N, o.N, gap*100, th.Noise*100)
}

// CompareBaseline compares each of others with base on metric m, and adjusts
// the U-test p-values for the number of comparisons (Holm–Bonferroni).
// The result is in the order of others.
func CompareBaseline(base *Cell, others []*Cell, m Metric, th Thresholds) []Comparison {
	cs := make([]Comparison, len(others))
	for i, o := range others {
		cs[i] = CompareStats(base.Stat(m), o.Stat(m), th)
	}
	HolmBonferroni(cs, th)
	return cs
}

// HolmBonferroni adjusts PAdjusted of the U-test comparisons in cs for their
// number, step-down (Holm 1979), and decides each again. Comparisons by
// ranges or with too few repetitions carry no p-value and are left alone.
func HolmBonferroni(cs []Comparison, th Thresholds) {
	var idx []int
	for i, c := range cs {
		if c.Method == MethodUTest {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return cs[idx[a]].P < cs[idx[b]].P })
	m := len(idx)
	running := 0.0
	for rank, i := range idx {
		adj := math.Min(1, float64(m-rank)*cs[i].P)
		running = math.Max(running, adj)
		cs[i].PAdjusted = running
		cs[i].decideByP(th)
	}
}

func cloneFloats(v []float64) []float64 { return append([]float64(nil), v...) }

// ratioInterval is the confidence interval of other/base at level conf: the
// Moses interval of the shift between log(other) and log(base), from the
// sorted pairwise differences and the exact null distribution of the
// Mann-Whitney U statistic. It returns the bounds and their actual level.
// When no interval reaches conf it returns the widest one (the extreme
// pairwise ratios) with its own, lower level; with one value a side it
// returns 0, +Inf.
func ratioInterval(base, other []float64, conf float64) (lo, hi, actual float64) {
	n, m := len(base), len(other)
	if n == 0 || m == 0 {
		return 0, math.Inf(1), 1
	}
	d := make([]float64, 0, n*m)
	for _, x := range base {
		for _, y := range other {
			if x <= 0 || y <= 0 {
				return 0, math.Inf(1), 1
			}
			d = append(d, math.Log(y)-math.Log(x))
		}
	}
	sort.Float64s(d)
	cdf := uNullCDF(n, m)
	// k is how many pairwise differences are cut from each end.
	k := 0
	for k+1 <= n*m/2 && cdf(k) <= (1-conf)/2 {
		k++
	}
	if k == 0 {
		k = 1
	}
	actual = 1 - 2*cdf(k-1)
	if actual <= 0 {
		return 0, math.Inf(1), 1
	}
	return math.Exp(d[k-1]), math.Exp(d[n*m-k]), actual
}

// uNullCDF returns P(U <= u) for the Mann-Whitney U statistic of samples of
// sizes n and m under the null hypothesis, without ties. Small sizes are
// counted exactly; large ones use the normal approximation.
func uNullCDF(n, m int) func(u int) float64 {
	if n*m > 2500 {
		mean := float64(n*m) / 2
		sd := math.Sqrt(float64(n*m*(n+m+1)) / 12)
		return func(u int) float64 {
			z := (float64(u) + 0.5 - mean) / sd
			return 0.5 * math.Erfc(-z/math.Sqrt2)
		}
	}
	counts := uNullCounts(n, m)
	total := 0.0
	for _, c := range counts {
		total += c
	}
	cum := make([]float64, len(counts))
	run := 0.0
	for i, c := range counts {
		run += c
		cum[i] = run / total
	}
	return func(u int) float64 {
		switch {
		case u < 0:
			return 0
		case u >= len(cum):
			return 1
		}
		return cum[u]
	}
}

// uNullCounts[u] is the number of orderings of n and m distinct values in
// which the U statistic is u: the coefficients of the Gaussian binomial,
// built by adding one value at a time.
func uNullCounts(n, m int) []float64 {
	// f[j] holds the counts for sizes (i, j) as i grows.
	f := make([][]float64, m+1)
	for j := range f {
		f[j] = []float64{1} // i = 0: one ordering, U = 0
	}
	for i := 1; i <= n; i++ {
		prev := f[0] // j = 0: one ordering, U = 0
		for j := 1; j <= m; j++ {
			// The largest value is from the first sample (adds j to U,
			// leaving sizes i-1, j) or from the second (sizes i, j-1).
			a, b := f[j], prev
			next := make([]float64, i*j+1)
			for u, c := range a {
				next[u+j] += c
			}
			for u, c := range b {
				next[u] += c
			}
			f[j], prev = next, next
		}
	}
	return f[m]
}
