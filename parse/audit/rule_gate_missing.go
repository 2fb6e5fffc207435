package audit

import (
	"fmt"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// RuleGateMissing fires for a measured cell of a collected run whose
// run.json holds no gate record that passed its target on the scenario.
const RuleGateMissing = "gate-missing"

// gateMissing reports a cell the gate never passed (verdict's
// Cell.Ungated): nothing shows its server answered the request its peers
// answered, so its number is no comparison, and the verdicts leave it
// unranked.
func gateMissing(c *verdict.Cell, _ verdict.Thresholds) (Finding, bool) {
	if !c.Ungated {
		return Finding{}, false
	}
	return cellFinding(c, RuleGateMissing, LevelError, fmt.Sprintf(
		"measured %s, but run.json holds no gate record that passed %s on %s: nothing shows it answered the request its peers answered, so it is not ranked; run fairbench verify on the target, or collect again",
		parse.Plural(len(c.Reps), "repetition"), c.Target, c.Scenario), c.Dumps()), true
}
