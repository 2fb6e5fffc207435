package audit

import (
	"strings"

	"github.com/fairbench/fairbench/parse"
)

const RuleReadWarning = "read-warning" // a reader's warning about a dump

// readWarningFindings passes on what readers noticed. The sha256 warnings
// of runs whose integrity was checked are left out: Integrity reports them.
func readWarningFindings(set *parse.Set, checked map[string]bool) []Finding {
	var fs []Finding
	for _, m := range set.Measurements {
		for _, w := range m.Warnings {
			if checked[m.Run] && strings.Contains(w, "sha256") {
				continue
			}
			fs = append(fs, Finding{Rule: RuleReadWarning, Level: LevelWarning, Run: m.Run, Target: m.Target, Scenario: m.Scenario,
				Message: w, Dumps: []string{m.Source.File}})
		}
	}
	return fs
}
