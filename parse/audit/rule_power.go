package audit

import (
	"fmt"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// RulePower states what a scenario of a run could resolve.
const RulePower = "power" // the smallest difference the run could claim, and the repetitions for 5% and 10%

// powerFindings says per family what the run could resolve: per scenario,
// and per host pair where the run measured it on several.
func powerFindings(d *verdict.Decided) []Finding {
	var fs []Finding
	for _, sv := range d.Scenarios {
		p, ok := d.Power(sv)
		if !ok {
			continue
		}
		need := func(pct, n int) string {
			switch {
			case n == 0:
				return fmt.Sprintf("%d%% needs more than 200 repetitions (or a quieter host)", pct)
			case n <= p.N:
				return fmt.Sprintf("%d%% is resolved already", pct)
			}
			return fmt.Sprintf("%d%% needs about %d repetitions", pct, n)
		}
		on := ""
		if len(d.Families(sv.Run, sv.Scenario)) > 1 {
			on = " on " + sv.Hosts
		}
		fs = append(fs, Finding{Rule: RulePower, Level: LevelInfo, Run: sv.Run, Scenario: sv.Scenario, Message: fmt.Sprintf(
			"at %s and %.1f%% noise per repetition, over %d pairs, the smallest difference this run could claim%s is %.0f%%; %s, %s (80%% power); differences smaller than that read \"~\" here, whatever their size",
			parse.Plural(p.N, "repetition"), p.Sigma*100, max(len(sv.Cells)*(len(sv.Cells)-1)/2, 1), on, p.Smallest*100, need(5, p.Need5), need(10, p.Need10))})
	}
	return fs
}
