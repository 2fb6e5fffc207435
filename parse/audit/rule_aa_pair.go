package audit

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// aaFindings checks each run's A/A pair against the documented threshold
// (Thresholds.Noise): per scenario a one-sided t-test on logs (the test
// Decide gives the pair: verdict.PairTest) of
// "|log ratio| > log(1+Noise)", Holm-adjusted across the run's scenarios.
// One error finding per run lists the scenarios where the twins differ by
// more than the threshold; one warning per pair never measured together.
func aaFindings(runs []*parse.Run, cells []*verdict.Cell, fallback [][2]string, th verdict.Thresholds) []Finding {
	byRun := map[string][][]*verdict.Cell{}
	var ids []string
	for _, g := range verdict.GroupByScenario(cells) {
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
		pair, ok := verdict.AAPairOf(byID[id], byRun[id], fallback)
		if !ok {
			continue
		}
		if f, ok := aaRun(id, pair, byRun[id], th, true); ok {
			fs = append(fs, f)
		}
		// A suite's further pairs (aa_pairs: a pair per runtime) set no
		// floor, but are the control of their runtime's targets in
		// compare's gate: checked alike.
		if r := byID[id]; r != nil {
			for _, more := range r.Pairs() {
				if more == pair {
					continue
				}
				if f, ok := aaRun(id, more, byRun[id], th, false); ok {
					fs = append(fs, f)
				}
			}
		}
	}
	for _, p := range fallback {
		if _, found := verdict.AAPairOf(nil, verdict.GroupByScenario(cells), [][2]string{p}); !found {
			fs = append(fs, Finding{Rule: RuleAAPair, Level: LevelWarning, Target: p[0] + " = " + p[1],
				Message: "the A/A pair was not measured in any common scenario, so the run's noise was not checked; list the same program twice in the suite under these two names"})
		}
	}
	return fs
}

// aaRun checks one run's A/A pair across its scenarios; floor says it is
// the pair the run's noise floor comes from.
func aaRun(run string, pair [2]string, groups [][]*verdict.Cell, th verdict.Thresholds, floor bool) (Finding, bool) {
	type check struct {
		scenario string
		ratio    float64
		p        float64
	}
	var checks []check
	var dumps []string
	measured := false
	for _, g := range groups {
		a, b := verdict.AACells(g, pair)
		if a == nil || b == nil {
			continue
		}
		measured = true
		okA, _ := verdict.Testable(a, verdict.MetricRPS, th)
		okB, _ := verdict.Testable(b, verdict.MetricRPS, th)
		if !okA || !okB {
			continue
		}
		w := verdict.PairTest(g, a, b, verdict.MetricRPS, th)
		checks = append(checks, check{g[0].Scenario, math.Exp(w.Diff), aaExceedP(w, math.Log1p(th.Noise))})
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
	adj, _ := verdict.Holm(ps, th.Alpha)
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
	effect := "the noise floor of those scenarios is raised to the pair's bound, so smaller differences read \"~\""
	if !floor {
		effect = "these twins are the control compare's gate reads their runtime's targets against, so its yardstick widens"
	}
	return Finding{Rule: RuleAAPair, Level: LevelError, Run: run, Target: name, Dumps: uniqueSorted(dumps),
		Message: fmt.Sprintf("the same program under two names differs by more than the %.0f%% threshold in %s (Holm-adjusted across %d scenarios): %s; %s; find the cause (other load, CPU placement, frequency scaling) and run again",
			th.Noise*100, parse.Plural(len(failed), "scenario"), len(checks), strings.Join(failed, ", "), effect)}, true
}

// aaExceedP is the one-sided p of "the twins differ by more than delta in
// log": the t statistic of |diff| − delta.
func aaExceedP(w verdict.Welch, delta float64) float64 {
	excess := math.Abs(w.Diff) - delta
	if w.SE == 0 {
		if excess > 0 {
			return 0
		}
		return 1
	}
	half := verdict.StudentTwoSided(excess/w.SE, w.DF) / 2
	if excess > 0 {
		return half
	}
	return 1 - half
}

// Rules about the repetitions of one cell and how they ran.
const RuleAAPair = "aa-pair" // an A/A pair that is not "~", or was not measured
