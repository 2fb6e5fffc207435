package audit

import (
	"fmt"
	"strings"

	"github.com/fairbench/fairbench/parse"
)

// RuleGateFailed fires for a target that failed the conformance gate.
const RuleGateFailed = "gate-failed"

// gateFailedFindings reports the targets that failed the gate, whose
// failed scenarios were not measured.
func gateFailedFindings(set *parse.Set) []Finding {
	var fs []Finding
	for _, t := range set.Targets {
		if t.Conformance != "fail" {
			continue
		}
		fs = append(fs, Finding{Rule: RuleGateFailed, Level: LevelWarning, Run: t.Run, Target: t.Name,
			Message: fmt.Sprintf("the target failed the conformance gate in %s, which were not measured: it answers differently from its peers; see %s and fix the target",
				strings.Join(t.Failed, ", "), t.Transcript),
			Dumps: []string{t.Source.File}})
	}
	return fs
}
