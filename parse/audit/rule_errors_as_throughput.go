package audit

import (
	"fmt"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// RuleErrorsAsThroughput fires for a cell whose tool's req/s is above its
// good req/s by more than Noise: the tool counted failed responses.
const RuleErrorsAsThroughput = "errors-as-throughput"

// errorsAsThroughput fires when the median req/s counts failed responses.
func errorsAsThroughput(c *verdict.Cell, th verdict.Thresholds) (Finding, bool) {
	if !(c.RPS.Valid() && c.GoodRPS.Valid() && c.RPS.Median > c.GoodRPS.Median*(1+th.Noise)) {
		return Finding{}, false
	}
	return cellFinding(c, RuleErrorsAsThroughput, LevelError, fmt.Sprintf(
		"the tool's %s req/s counts failed responses; good responses were %s/s, %.1f%% fewer; publish good responses per second, or fix the errors first",
		parse.FormatCount(c.RPS.Median), parse.FormatCount(c.GoodRPS.Median), (1-c.GoodRPS.Median/c.RPS.Median)*100), nil), true
}
