package audit

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/fairbench/fairbench/parse/verdict"
)

const RuleOutlierRep = "outlier-rep" // one repetition far from the others of its cell

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
	worst, dev, spread := farthestRep(v)
	if worst < 0 || !(dev > 3*spread && dev > math.Log1p(2*th.MaxCV) && !(dev <= 4*scenarioCV)) {
		return Finding{}, false
	}
	return cellFinding(c, RuleOutlierRep, LevelWarning, fmt.Sprintf(
		"repetition %d ran %+.0f%% from the median of the others, which lie within %.1f%% of it: one stall or burst, not the cell's noise; the median is robust to it, but it widens this target's intervals, so its verdicts lean to \"~\"; read its dump, and run the cell again",
		c.Reps[worst].Rep, math.Expm1(signedLog(v, worst))*100, math.Expm1(spread)*100),
		[]string{c.Reps[worst].Source.File}), true
}

// farthestRep finds the value of v (all positive, at least two) farthest
// from the median of the others in log terms, the first of equals: its
// index, that distance, and the others' own spread (the farthest of them
// from their median). v is sorted once: without one value, the others'
// median is one or two of the sorted values next to the middle, and their
// extremes are the sorted ends, so each value costs a constant and a
// cell of n repetitions n log n, not n² log n.
func farthestRep(v []float64) (worst int, dev, spread float64) {
	sorted := slices.Sorted(slices.Values(v))
	n := len(sorted) - 1 // the others
	// without is the k-th of the others when the value at sorted[p] is out.
	without := func(k, p int) float64 {
		if k < p {
			return sorted[k]
		}
		return sorted[k+1]
	}
	worst = -1
	for i, x := range v {
		p, _ := slices.BinarySearch(sorted, x)
		med := without(n/2, p)
		if n%2 == 0 {
			med = (without(n/2-1, p) + med) / 2
		}
		med = math.Log(med)
		if d := math.Abs(math.Log(x) - med); d > dev {
			lo, hi := without(0, p), without(n-1, p)
			worst, dev, spread = i, d, math.Max(math.Abs(math.Log(lo)-med), math.Abs(math.Log(hi)-med))
		}
	}
	return worst, dev, spread
}

// signedLog is log v[i] − log(median of the others).
func signedLog(v []float64, i int) float64 {
	others := slices.Delete(slices.Clone(v), i, i+1)
	sort.Float64s(others)
	return math.Log(v[i]) - math.Log(verdict.MedianSorted(others))
}
