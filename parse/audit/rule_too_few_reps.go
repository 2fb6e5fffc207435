package audit

import (
	"fmt"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// RuleTooFewReps fires for a cell with fewer than MinReps repetitions.
const RuleTooFewReps = "too-few-reps"

// tooFewReps fires when a cell has fewer than th.MinReps repetitions.
func tooFewReps(c *verdict.Cell, th verdict.Thresholds) (Finding, bool) {
	s := c.RPS
	if !(s.N < th.MinReps) {
		return Finding{}, false
	}
	return cellFinding(c, RuleTooFewReps, LevelWarning, fmt.Sprintf(
		"%s behind this number: no difference with it can be claimed, and its noise is unknown; run at least %d repetitions",
		parse.Plural(s.N, "repetition"), th.MinReps), nil), true
}
