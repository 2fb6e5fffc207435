package audit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// Rules about noise: one cell's, and a whole scenario's, where the host
// rather than one target is the likely cause.
const (
	RuleNoisyCell     = "noisy-cell"     // a cell's robust CV above MaxCV
	RuleNoisyScenario = "noisy-scenario" // the median CV of a scenario's cells above MaxCV
)

// noisyCell fires when a cell's robust CV is above th.MaxCV.
func noisyCell(c *verdict.Cell, th verdict.Thresholds) (Finding, bool) {
	s := c.RPS
	if !(s.N >= 2 && s.CV > th.MaxCV) {
		return Finding{}, false
	}
	return cellFinding(c, RuleNoisyCell, LevelWarning, fmt.Sprintf(
		"robust CV %.1f%% is above %.0f%% (req/s from %s to %s) while the scenario's other targets are steadier: this target is noisy on its own (a garbage collector, a JIT, a cache), so its differences below that noise read \"~\"; lengthen the duration or run more repetitions",
		s.CV*100, th.MaxCV*100, parse.FormatCount(s.Min), parse.FormatCount(s.Max)), nil), true
}

// noisyScenarioFindings fires for a scenario whose cells are noisy as a
// rule (median robust CV above MaxCV): the host, not one target, is noisy.
func noisyScenarioFindings(runs map[string]*parse.Run, cells []*verdict.Cell, th verdict.Thresholds) []Finding {
	type key struct{ run, scenario string }
	cvs := map[key][]float64{}
	dumps := map[key][]string{}
	for _, c := range cells {
		if c.RPS.N >= 2 {
			k := key{c.Run, c.Scenario}
			cvs[k] = append(cvs[k], c.RPS.CV)
			dumps[k] = append(dumps[k], c.Dumps()...)
		}
	}
	var fs []Finding
	for k, v := range cvs {
		sort.Float64s(v)
		if len(v) < 2 || !(verdict.MedianSorted(v) > th.MaxCV) {
			continue
		}
		sort.Strings(dumps[k])
		fs = append(fs, Finding{Rule: RuleNoisyScenario, Level: LevelWarning, Run: k.run, Scenario: k.scenario,
			Message: fmt.Sprintf("the median robust CV of the %d targets is %.1f%%, above %.0f%%: the whole scenario is noisy, so the host is the likely cause, and differences below that noise read \"~\"; %s.",
				len(v), verdict.MedianSorted(v)*100, th.MaxCV*100, runAdvice(runs[k.run]).hostRemedy()),
			Dumps: dumps[k]})
	}
	return fs
}

// foldNoisyCells drops noisy-cell findings of scenarios that are noisy as
// a whole (one cause: the host), naming those cells in the scenario's
// finding instead; and when most of a run's scenarios are noisy, their
// findings become one for the run.
func foldNoisyCells(fs []Finding, runs map[string]*parse.Run, scenarioCount map[string]int) []Finding {
	type key struct{ run, scenario string }
	noisy := map[key]int{}
	for i, f := range fs {
		if f.Rule == RuleNoisyScenario {
			noisy[key{f.Run, f.Scenario}] = i
		}
	}
	folded := map[int][]string{}
	var out []Finding
	for _, f := range fs {
		if i, ok := noisy[key{f.Run, f.Scenario}]; ok && f.Rule == RuleNoisyCell {
			folded[i] = append(folded[i], f.Target)
			continue
		}
		out = append(out, f)
	}
	perRun := map[string][]Finding{}
	var rest []Finding
	for _, f := range out {
		if f.Rule != RuleNoisyScenario {
			rest = append(rest, f)
			continue
		}
		if i := noisy[key{f.Run, f.Scenario}]; len(folded[i]) > 0 {
			sort.Strings(folded[i])
			f.Message += " Noisy targets here: " + strings.Join(folded[i], ", ") + "."
		}
		perRun[f.Run] = append(perRun[f.Run], f)
	}
	ids := make([]string, 0, len(perRun))
	for id := range perRun {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		group := perRun[id]
		if len(group) < 3 || 2*len(group) < scenarioCount[id] {
			rest = append(rest, group...)
			continue
		}
		var names, dumps []string
		for _, f := range group {
			names = append(names, f.Scenario)
			dumps = append(dumps, f.Dumps...)
		}
		sort.Strings(names)
		rest = append(rest, Finding{Rule: RuleNoisyScenario, Level: LevelWarning, Run: id, Dumps: uniqueSorted(dumps),
			Message: fmt.Sprintf("%d of %d scenarios are noisy as a whole (the median robust CV of their targets is above the threshold): %s. One cause, the host; its noise raises every scenario's floor. %s",
				len(group), scenarioCount[id], strings.Join(names, ", "), capitalize(runAdvice(runs[id]).hostRemedy()))})
	}
	return rest
}

// noisyFindings are the noisy cells and scenarios, each noisy cell of a
// noisy scenario folded into the scenario's finding.
func noisyFindings(in *input) []Finding {
	fs := in.perCell(noisyCell)
	fs = append(fs, noisyScenarioFindings(in.runs, in.cells, in.th)...)
	return foldNoisyCells(fs, in.runs, in.scenarios)
}
