package audit

import (
	"errors"
	"fmt"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/rundir"
)

// RuleFileRefused: a file of a run dir that the run-dir reader refuses (a
// link out of the run dir, a special file, a file over its limit), so it is
// neither shown nor published.
const RuleFileRefused = "file-refused"

// refusedFiles opens the files of a run dir that are not dumps but are
// shown on the site (suite.toml, the conformance transcripts) through
// rundir.OpenFile and reports each it refuses.
func refusedFiles(run *parse.Run) []Finding {
	type file struct {
		rel, target string
		kind        rundir.FileKind
	}
	files := []file{{rel: "suite.toml", kind: rundir.KindSuite}}
	for _, t := range run.Targets {
		for _, tr := range []string{t.Transcript, t.LocalTranscript} {
			if tr != "" {
				files = append(files, file{tr, t.Name, rundir.KindTranscript})
			}
		}
	}
	var found []Finding
	for _, f := range files {
		rf, err := rundir.OpenFile(run.Path, f.rel, f.kind)
		if err == nil {
			rf.Close()
			continue
		}
		var refused *rundir.RefusedError
		if !errors.As(err, &refused) {
			continue // a missing transcript is the page's to say
		}
		found = append(found, Finding{Rule: RuleFileRefused, Level: LevelError, Run: run.ID, Target: f.target,
			Message: fmt.Sprintf("%s is not read: %s; it is neither shown nor published (a run dir's files are regular files inside it, of at most %d MB for a %s)", f.rel, refused.Reason, f.kind.Limit()>>20, f.kind),
			Dumps:   []string{refused.File}})
	}
	return found
}
