package audit

import (
	"fmt"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// RuleErrorsAsThroughput fires for a cell whose tool's req/s is above its
// good req/s by more than Noise: the tool counted failed responses.
const RuleErrorsAsThroughput = "errors-as-throughput"

// errorsAsThroughput fires when the median req/s counts failed responses,
// down to a target whose every response failed (good req/s 0).
func errorsAsThroughput(c *verdict.Cell, th verdict.Thresholds) (Finding, bool) {
	good := c.GoodRPS.Median
	if !(c.RPS.Valid() && good >= 0 && c.RPS.Median > good*(1+th.Noise)) {
		return Finding{}, false
	}
	return cellFinding(c, RuleErrorsAsThroughput, LevelError, fmt.Sprintf(
		"the tool's %s req/s counts failed responses; good responses were %s/s, %.1f%% fewer; publish good responses per second, or fix the errors first",
		parse.FormatCount(c.RPS.Median), parse.FormatCount(good), (1-good/c.RPS.Median)*100), nil), true
}
