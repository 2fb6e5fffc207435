package verdict

import (
	"math"

	"github.com/fairbench/fairbench/parse"
)

// Floor is the noise floor of one scenario of one run: the smallest
// relative difference a verdict may claim there.
type Floor struct {
	// Value is max(Threshold, AA): a claim's ratio interval must lie wholly
	// beyond 1+Value (or below 1/(1+Value)).
	Value float64
	// Threshold is the documented threshold, Thresholds.Noise.
	Threshold float64
	// AA is the upper confidence bound (at Thresholds.Confidence) of the
	// A/A pair's |log ratio| in this scenario, as a relative difference;
	// NaN when the run has no A/A pair measured here.
	AA float64
	// AADiff is the A/A pair's log ratio of geometric means, and AASE its
	// standard error (0 without a pair): what the bound is made of.
	AADiff, AASE float64
	// Pair is the A/A pair's cell names, empty without one.
	Pair [2]string
}

// defaultFloor is the floor of a scenario without an A/A pair.
func defaultFloor(th Thresholds) Floor {
	return Floor{Value: th.Noise, Threshold: th.Noise, AA: math.NaN()}
}

// AAPairOf is the run's A/A pair: run.json's, else the first of the
// caller's pairs with both targets among the run's cells.
func AAPairOf(run *parse.Run, groups [][]*Cell, fallback [][2]string) ([2]string, bool) {
	if run != nil && len(run.AAPair) == 2 {
		return [2]string{run.AAPair[0], run.AAPair[1]}, true
	}
	for _, p := range fallback {
		for _, g := range groups {
			if a, b := AACells(g, p); a != nil && b != nil {
				return p, true
			}
		}
	}
	return [2]string{}, false
}

// AACells finds the A/A pair's two cells in one scenario's cells.
func AACells(cells []*Cell, pair [2]string) (a, b *Cell) {
	for _, c := range cells {
		if a == nil && c.is(pair[0]) {
			a = c
		}
		if b == nil && c.is(pair[1]) {
			b = c
		}
	}
	return a, b
}

// is reports whether the cell is the target called name.
func (c *Cell) is(name string) bool { return c.Name == name || c.Target == name }

// NoiseFloors is each scenario's floor: max(the documented threshold, the
// upper confidence bound of the A/A pair's |log ratio|).
func NoiseFloors(runs []*parse.Run, cells []*Cell, m Metric, fallback [][2]string, th Thresholds) map[ScenarioKey]Floor {
	byID := map[string]*parse.Run{}
	for _, r := range runs {
		byID[r.ID] = r
	}
	out := map[ScenarioKey]Floor{}
	groups := GroupByScenario(cells)
	byRun := map[string][][]*Cell{}
	for _, g := range groups {
		byRun[g[0].Run] = append(byRun[g[0].Run], g)
	}
	for _, g := range groups {
		k := ScenarioKey{g[0].Run, g[0].Scenario}
		f := defaultFloor(th)
		out[k] = f
		pair, ok := AAPairOf(byID[k.Run], byRun[k.Run], fallback)
		if !ok {
			continue
		}
		a, b := AACells(g, pair)
		if a == nil || b == nil {
			continue
		}
		f.Pair = [2]string{a.Name, b.Name}
		if okA, _ := Testable(a, m, th); okA {
			if okB, _ := Testable(b, m, th); okB {
				w := WelchLog(a.Stat(m).Values, b.Stat(m).Values)
				f.AADiff, f.AASE = w.Diff, w.SE
				lo, hi := w.Interval(th.Confidence)
				f.AA = math.Expm1(math.Max(math.Abs(math.Log(lo)), math.Abs(math.Log(hi))))
				f.Value = math.Max(f.Threshold, f.AA)
			}
		}
		out[k] = f
	}
	return out
}
