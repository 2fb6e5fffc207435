package audit

import (
	"fmt"
	"math"
	"sort"
	"strings"

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

// aaPairOf is the run's A/A pair: run.json's, else the first of the
// caller's pairs with both targets among the run's cells.
func aaPairOf(run *parse.Run, groups [][]*Cell, fallback [][2]string) ([2]string, bool) {
	if run != nil && len(run.AAPair) == 2 {
		return [2]string{run.AAPair[0], run.AAPair[1]}, true
	}
	for _, p := range fallback {
		for _, g := range groups {
			if a, b := aaCells(g, p); a != nil && b != nil {
				return p, true
			}
		}
	}
	return [2]string{}, false
}

// aaCells finds the A/A pair's two cells in one scenario's cells.
func aaCells(cells []*Cell, pair [2]string) (a, b *Cell) {
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

// noiseFloors is each scenario's floor: max(the documented threshold, the
// upper confidence bound of the A/A pair's |log ratio|).
func noiseFloors(runs []*parse.Run, cells []*Cell, m Metric, fallback [][2]string, th Thresholds) map[scenarioKey]Floor {
	byID := map[string]*parse.Run{}
	for _, r := range runs {
		byID[r.ID] = r
	}
	out := map[scenarioKey]Floor{}
	groups := groupByScenario(cells)
	byRun := map[string][][]*Cell{}
	for _, g := range groups {
		byRun[g[0].Run] = append(byRun[g[0].Run], g)
	}
	for _, g := range groups {
		k := scenarioKey{g[0].Run, g[0].Scenario}
		f := defaultFloor(th)
		out[k] = f
		pair, ok := aaPairOf(byID[k.run], byRun[k.run], fallback)
		if !ok {
			continue
		}
		a, b := aaCells(g, pair)
		if a == nil || b == nil {
			continue
		}
		f.Pair = [2]string{a.Name, b.Name}
		if okA, _ := testable(a, m, th); okA {
			if okB, _ := testable(b, m, th); okB {
				w := welchLog(a.Stat(m).Values, b.Stat(m).Values)
				f.AADiff, f.AASE = w.diff, w.se
				lo, hi := w.interval(th.Confidence)
				f.AA = math.Expm1(math.Max(math.Abs(math.Log(lo)), math.Abs(math.Log(hi))))
				f.Value = math.Max(f.Threshold, f.AA)
			}
		}
		out[k] = f
	}
	return out
}

// aaFindings checks each run's A/A pair against the documented threshold
// (Thresholds.Noise): per scenario a one-sided Welch test on logs of
// "|log ratio| > log(1+Noise)", Holm-adjusted across the run's scenarios.
// One error finding per run lists the scenarios where the twins differ by
// more than the threshold; one warning per pair never measured together.
func aaFindings(runs []*parse.Run, cells []*Cell, fallback [][2]string, th Thresholds) []Finding {
	byRun := map[string][][]*Cell{}
	var ids []string
	for _, g := range groupByScenario(cells) {
		if byRun[g[0].Run] == nil {
			ids = append(ids, g[0].Run)
		}
		byRun[g[0].Run] = append(byRun[g[0].Run], g)
	}
	byID := map[string]*parse.Run{}
	for _, r := range runs {
		byID[r.ID] = r
	}
	var fs []Finding
	for _, id := range ids {
		pair, ok := aaPairOf(byID[id], byRun[id], fallback)
		if !ok {
			continue
		}
		if f, ok := aaRun(id, pair, byRun[id], th); ok {
			fs = append(fs, f)
		}
	}
	for _, p := range fallback {
		if _, found := aaPairOf(nil, groupByScenario(cells), [][2]string{p}); !found {
			fs = append(fs, Finding{Rule: RuleAAPair, Level: LevelWarning, Target: p[0] + " = " + p[1],
				Message: "the A/A pair was not measured in any common scenario, so the run's noise was not checked; list the same program twice in the suite under these two names"})
		}
	}
	return fs
}

// aaRun checks one run's A/A pair across its scenarios.
func aaRun(run string, pair [2]string, groups [][]*Cell, th Thresholds) (Finding, bool) {
	type check struct {
		scenario string
		ratio    float64
		p        float64
	}
	var checks []check
	var dumps []string
	measured := false
	for _, g := range groups {
		a, b := aaCells(g, pair)
		if a == nil || b == nil {
			continue
		}
		measured = true
		okA, _ := testable(a, MetricRPS, th)
		okB, _ := testable(b, MetricRPS, th)
		if !okA || !okB {
			continue
		}
		w := welchLog(a.RPS.Values, b.RPS.Values)
		checks = append(checks, check{g[0].Scenario, math.Exp(w.diff), aaExceedP(w, math.Log1p(th.Noise))})
		dumps = append(dumps, a.Dumps()...)
		dumps = append(dumps, b.Dumps()...)
	}
	name := pair[0] + " = " + pair[1]
	if !measured {
		return Finding{Rule: RuleAAPair, Level: LevelWarning, Run: run, Target: name,
			Message: "the A/A pair was not measured in any scenario of this run, so its noise was not checked; list the same program twice in the suite under these two names"}, true
	}
	ps := make([]float64, len(checks))
	for i, c := range checks {
		ps[i] = c.p
	}
	adj, _ := holm(ps, th.Alpha)
	var failed []string
	for i, c := range checks {
		if adj[i] < th.Alpha {
			failed = append(failed, fmt.Sprintf("%s %+.1f%% (p=%.2g)", c.scenario, (c.ratio-1)*100, adj[i]))
		}
	}
	if len(failed) == 0 {
		return Finding{}, false
	}
	sort.Strings(failed)
	return Finding{Rule: RuleAAPair, Level: LevelError, Run: run, Target: name, Dumps: uniqueSorted(dumps),
		Message: fmt.Sprintf("the same program under two names differs by more than the %.0f%% threshold in %s (Holm-adjusted across %d scenarios): %s; the noise floor of those scenarios is raised to the pair's bound, so smaller differences read \"~\"; find the cause (other load, CPU placement, frequency scaling) and run again",
			th.Noise*100, plural(len(failed), "scenario"), len(checks), strings.Join(failed, ", "))}, true
}

// aaExceedP is the one-sided p of "the twins differ by more than delta in
// log": the t statistic of |diff| − delta.
func aaExceedP(w welch, delta float64) float64 {
	excess := math.Abs(w.diff) - delta
	if w.se == 0 {
		if excess > 0 {
			return 0
		}
		return 1
	}
	half := studentTwoSided(excess/w.se, w.df) / 2
	if excess > 0 {
		return half
	}
	return 1 - half
}
