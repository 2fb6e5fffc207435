package audit

import (
	"errors"
	"path/filepath"
	"slices"

	"github.com/fairbench/fairbench/parse"
)

// The input rules turn what ReadAll said about its input into findings, so
// that an audit of a folder reports every file it met: a dump that could
// not be read is an error (its numbers are missing from everything the
// audit says), a note about the input (a run met twice and read once, an aa_pair of one target ignored) a warning.
const (
	RuleInputUnreadable = "input-unreadable" // a file met in a folder or run dir that could not be read
	RuleInputWarning    = "input-warning"    // a note about the input: a run met twice, an aa_pair ignored
)

// inputFindings are the findings of the input rules: one per file of
// opts.Unreadable that no integrity finding names already, one per warning
// of the set.
func inputFindings(in *input) []Finding {
	var fs []Finding
	for _, err := range in.opts.Unreadable {
		var f *parse.FoundError
		if !errors.As(err, &f) {
			continue
		}
		if !in.opts.NoIntegrity && f.Path != "" && filepath.Base(f.Path) == "run.json" && inRun(in, f.Path) {
			continue // a run's listed dump: the integrity rules report it
		}
		fs = append(fs, Finding{Rule: RuleInputUnreadable, Level: LevelError,
			Message: f.Err.Error() + ": not read, so its numbers are in nothing this audit says; remove the file or replace it with the tool's whole output",
			Dumps:   slices.DeleteFunc([]string{f.Path}, func(s string) bool { return s == "" })})
	}
	for _, w := range in.set.Warnings {
		fs = append(fs, Finding{Rule: RuleInputWarning, Level: LevelWarning, Message: w.Error(), Dumps: []string{w.Path}})
	}
	return fs
}

// inRun reports whether name is the run.json of a run in the set whose
// dumps the integrity rules re-read.
func inRun(in *input, name string) bool {
	for _, r := range in.set.Runs {
		if in.checked[r.ID] && filepath.Join(r.Path, "run.json") == name {
			return true
		}
	}
	return false
}
