package audit

import (
	"fmt"
	"math"
	"strings"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// RuleResolving reports a calibration run's resolving power, and runs of
// its host measured at settings below it.
const RuleResolving = "resolving-power" // what a calibration run resolved, and runs measured below its settings

// resolvingFindings states what each calibration run (targets with
// planted_on) resolved: a note of the smallest planted cost resolved and
// the largest missed, a warning instead when a larger cost was missed
// than one resolved; an error for a planted copy claimed faster than its
// base or for twins claimed apart (the verdicts are then not to be
// trusted on this host); a warning naming planted copies not measured
// against their base. Each other run of the same host whose repetitions
// or windows fall short of a calibration run that resolved something gets
// a warning: its verdicts can miss differences of that size.
func resolvingFindings(set *parse.Set, d *verdict.Decided) []Finding {
	var fs []Finding
	res := d.Resolving
	host := map[string]string{}
	for _, r := range set.Runs {
		host[r.ID] = r.Facts.Hostname
	}
	for _, r := range res {
		fs = append(fs, calibrationFindings(r)...)
	}
	for _, run := range set.Runs {
		if len(run.Planted) > 0 {
			continue
		}
		if f, ok := belowCalibration(run, d.Verdicts, res, host); ok {
			fs = append(fs, f)
		}
	}
	return fs
}

// calibrationFindings are one calibration run's note, warnings and errors.
func calibrationFindings(r verdict.Resolving) []Finding {
	var fs []Finding
	var wrong []string
	for _, p := range r.Planted {
		if p.Wrong {
			wrong = append(wrong, fmt.Sprintf("%s/%s (%s)", p.Target, p.Scenario, p.Verdict.Explain()))
		}
	}
	if len(wrong) > 0 {
		fs = append(fs, Finding{Rule: RuleResolving, Level: LevelError, Run: r.Run, Message: fmt.Sprintf(
			"a planted slowdown was claimed faster than its base: %s; verdicts on this host at these settings are not to be trusted: find what favours one process (CPU placement, other load) and collect again",
			strings.Join(wrong, "; "))})
	}
	if r.TwinsClaimed > 0 {
		fs = append(fs, Finding{Rule: RuleResolving, Level: LevelError, Run: r.Run, Message: fmt.Sprintf(
			"the A/A twins were claimed apart in %d of %d scenarios of this calibration run: the host puts differences between copies of one program; find the cause and collect again",
			r.TwinsClaimed, r.Twins)})
	}
	if u := r.UnmeasuredSummary(); u != "" {
		fs = append(fs, Finding{Rule: RuleResolving, Level: LevelWarning, Run: r.Run, Message: u +
			"; the calibration says nothing of their costs: read why in the run's gate and conformance records, and collect again"})
	}
	if c := r.CostSummary(); c != "" {
		level := LevelInfo
		if !r.Monotone() {
			level = LevelWarning
		}
		fs = append(fs, Finding{Rule: RuleResolving, Level: level, Run: r.Run, Message: fmt.Sprintf(
			"at %s of %s: %s; the A/A twins were claimed apart in %d of %d scenarios",
			parse.Plural(r.Reps, "repetition"), r.Window.Round(1e6), c, r.TwinsClaimed, r.Twins)})
	}
	return fs
}

// belowCalibration warns when run, measured on the host of a calibration
// run that resolved a planted cost, has fewer repetitions or shorter
// windows than that run.
func belowCalibration(run *parse.Run, d *verdict.Verdicts, res []verdict.Resolving, host map[string]string) (Finding, bool) {
	n, window, ok := d.Settings(run.ID)
	if !ok {
		return Finding{}, false
	}
	for _, r := range res {
		if math.IsNaN(r.Smallest) || host[r.Run] != host[run.ID] {
			continue
		}
		// Windows within 10% count as the same setting: tools run a little long.
		if n < r.Reps || float64(window) < 0.9*float64(r.Window) {
			return Finding{Rule: RuleResolving, Level: LevelWarning, Run: run.ID, Message: fmt.Sprintf(
				"measured at %s of %s, below the %s of %s at which calibration run %s resolved +%.1f%% on this host: differences of that size may read \"~\" here; collect with at least those settings",
				parse.Plural(n, "repetition"), window.Round(1e6), parse.Plural(r.Reps, "repetition"), r.Window.Round(1e6), r.Run, 100*r.Smallest)}, true
		}
	}
	return Finding{}, false
}
