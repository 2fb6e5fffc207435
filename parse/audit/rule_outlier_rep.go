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
