package audit

import (
	"fmt"
	"path/filepath"

	"github.com/fairbench/fairbench/parse"
)

// RuleRunIncomplete fires for a run whose status is not "complete".
const RuleRunIncomplete = "run-incomplete"

// runIncompleteFindings reports the runs run.json says did not finish.
func runIncompleteFindings(set *parse.Set) []Finding {
	var fs []Finding
	for _, r := range set.Runs {
		runJSON := filepath.Join(r.Path, "run.json")
		if r.Status != "" && r.Status != "complete" {
			fs = append(fs, Finding{Rule: RuleRunIncomplete, Level: LevelWarning, Run: r.ID,
				Message: fmt.Sprintf("the run's status is %q: some measurements may be missing; finish it with fairbench collect -resume %s", r.Status, r.Path),
				Dumps:   []string{runJSON}})
		}
	}
	return fs
}
