package audit

import (
	"fmt"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// RuleNoRequests fires for a cell none of whose repetitions completed a
// request.
const RuleNoRequests = "no-requests"

// noRequests reports a cell whose every repetition completed no request
// (no response and no throughput): the target never answered under load,
// so the cell has no number to show or rank, and nothing else says so.
func noRequests(c *verdict.Cell, _ verdict.Thresholds) (Finding, bool) {
	if len(c.Reps) == 0 {
		return Finding{}, false
	}
	for _, m := range c.Reps {
		if m.Requests > 0 || m.Throughput() > 0 {
			return Finding{}, false
		}
	}
	return cellFinding(c, RuleNoRequests, LevelError, fmt.Sprintf(
		"completed no request in any of its %s: the target never answered under load (it hung, crashed or refused the connections), so it has no number; read the dumps' errors and the server's log, fix the target and measure again",
		parse.Plural(len(c.Reps), "repetition")), c.Dumps()), true
}
