package audit

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// Rules about the repetitions of one cell and how they ran.
const (
	RuleTooFewReps     = "too-few-reps"    // fewer than MinReps repetitions
	RuleNoisyCell      = "noisy-cell"      // a cell's robust CV above MaxCV
	RuleNoisyScenario  = "noisy-scenario"  // the median CV of a scenario's cells above MaxCV
	RuleSlowFirstRep   = "slow-first-rep"  // the first repetition well below the others: warm-up too short
	RuleDrift          = "drift"           // req/s rising or falling at every repetition, in more cells than chance gives
	RuleNotInterleaved = "not-interleaved" // a target's repetitions ran back to back (needs the run order)
	RuleResponseSize   = "response-size"   // bytes per response differ across repetitions
	RuleAAPair         = "aa-pair"         // an A/A pair that is not "~", or was not measured
)

// cellFindings runs the rules that look at one cell's repetitions.
func cellFindings(c *verdict.Cell, th verdict.Thresholds) []Finding {
	var fs []Finding
	s := c.RPS
	if s.N < th.MinReps {
		fs = append(fs, cellFinding(c, RuleTooFewReps, LevelWarning, fmt.Sprintf(
			"%s behind this number: no difference with it can be claimed, and its noise is unknown; run at least %d repetitions",
			parse.Plural(s.N, "repetition"), th.MinReps), nil))
	}
	if s.N >= 2 && s.CV > th.MaxCV {
		fs = append(fs, cellFinding(c, RuleNoisyCell, LevelWarning, fmt.Sprintf(
			"robust CV %.1f%% is above %.0f%% (req/s from %s to %s) while the scenario's other targets are steadier: this target is noisy on its own (a garbage collector, a JIT, a cache), so its differences below that noise read \"~\"; lengthen the duration or run more repetitions",
			s.CV*100, th.MaxCV*100, parse.FormatCount(s.Min), parse.FormatCount(s.Max)), nil))
	}
	if f, ok := responseSize(c, th); ok {
		fs = append(fs, f)
	}
	return fs
}

// slowFirstRep fires when the first repetition is the slowest and well
// below the median of the others. The first is repetition 1 when it ran
// first: where rep 1 was taken again later (its turn ran on a slow host,
// manifest.HostSpeed), the cell's earliest measurement is not the first
// of the target's processes, and a slow one there is an outlier-rep's.
func slowFirstRep(c *verdict.Cell, th verdict.Thresholds) (Finding, bool) {
	v := c.RPS.Values
	if len(v) < 3 || c.Reps[0].Rep != 1 {
		return Finding{}, false
	}
	others := slices.Clone(v[1:])
	sort.Float64s(others)
	med := verdict.MedianSorted(others)
	if !(v[0] < others[0] && v[0] < med*(1-th.SlowFirst)) {
		return Finding{}, false
	}
	return cellFinding(c, RuleSlowFirstRep, LevelWarning, fmt.Sprintf(
		"the first repetition ran %.1f%% below the median of the others (%s vs %s req/s): the server was not warm yet; lengthen the warm-up",
		(1-v[0]/med)*100, parse.FormatCount(v[0]), parse.FormatCount(med)), []string{c.Reps[0].Source.File}), true
}

// drift fires when every repetition is above (or below) the one before
// and the whole change exceeds the noise threshold.
func drift(c *verdict.Cell, th verdict.Thresholds) (Finding, bool) {
	v := c.RPS.Values
	if len(v) < th.DriftReps || v[0] <= 0 {
		return Finding{}, false
	}
	up, down := true, true
	for i := 1; i < len(v); i++ {
		up = up && v[i] > v[i-1]
		down = down && v[i] < v[i-1]
	}
	change := v[len(v)-1]/v[0] - 1
	if !(up || down) || !(math.Abs(change) > th.Noise) {
		return Finding{}, false
	}
	way := "rose"
	if down {
		way = "fell"
	}
	return cellFinding(c, RuleDrift, LevelWarning, fmt.Sprintf(
		"req/s %s at every one of %d repetitions (%s to %s, %+.1f%%)",
		way, len(v), parse.FormatCount(v[0]), parse.FormatCount(v[len(v)-1]), change*100), nil), true
}

// bytesPerResponse is what one response cost on the wire, 0 if unknown.
func bytesPerResponse(m *parse.Measurement) float64 {
	switch {
	case m.BytesRead > 0 && m.Requests > 0:
		return float64(m.BytesRead) / float64(m.Requests)
	case m.BytesPerSec > 0 && verdict.ReqPerSec(m) > 0:
		return m.BytesPerSec / verdict.ReqPerSec(m)
	}
	return 0
}

// responseSize fires when bytes per response differ across repetitions.
func responseSize(c *verdict.Cell, th verdict.Thresholds) (Finding, bool) {
	var sizes []float64
	for _, m := range c.Reps {
		if b := bytesPerResponse(m); b > 0 {
			sizes = append(sizes, b)
		}
	}
	if len(sizes) < 2 {
		return Finding{}, false
	}
	sorted := slices.Clone(sizes)
	sort.Float64s(sorted)
	lo, hi := sorted[0], sorted[len(sorted)-1]
	if !((hi-lo)/verdict.MedianSorted(sorted) > th.SizeSpread) {
		return Finding{}, false
	}
	return cellFinding(c, RuleResponseSize, LevelWarning, fmt.Sprintf(
		"bytes per response went from %.0f to %.0f across repetitions: the target did not send the same response every time (errors, caching, a changed body); check the responses with the gate and fix the target",
		lo, hi), nil), true
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

// interleaveFindings fires for cells whose repetitions ran back to back
// while other targets were measured in the same run. It needs the run order.
func interleaveFindings(set *parse.Set) []Finding {
	byRun := map[string][]*parse.Measurement{}
	for _, m := range set.Measurements {
		if m.Run != "" && !m.Warmup && inThroughputPass(m) {
			byRun[m.Run] = append(byRun[m.Run], m)
		}
	}
	var fs []Finding
	for _, ms := range byRun {
		fs = append(fs, runInterleave(ms)...)
	}
	return fs
}

func runInterleave(ms []*parse.Measurement) []Finding {
	targets := map[string]bool{}
	for _, m := range ms {
		if m.Order <= 0 {
			return nil // the order is not known
		}
		targets[m.Target] = true
	}
	if len(targets) < 2 {
		return nil
	}
	ms = slices.Clone(ms)
	sort.Slice(ms, func(i, j int) bool { return ms[i].Order < ms[j].Order })
	cells := verdict.Cells(&parse.Set{Measurements: ms}, verdict.DefaultThresholds)
	pos := map[*parse.Measurement]int{}
	for i, m := range ms {
		pos[m] = i
	}
	var fs []Finding
	for _, c := range cells {
		n := len(c.Reps)
		if n < 2 || pos[c.Reps[n-1]]-pos[c.Reps[0]] != n-1 {
			continue
		}
		fs = append(fs, cellFinding(c, RuleNotInterleaved, LevelWarning,
			"its repetitions ran back to back with no other target between them, so a slow spell of the host lands on this target alone; interleave targets across repetitions (rep 1 of every target, then rep 2, as fairbench collect does)", nil))
	}
	return fs
}
