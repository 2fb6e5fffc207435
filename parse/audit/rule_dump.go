package audit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/rundir"
	"github.com/fairbench/fairbench/parse/runjson"
)

// Rules about the raw dumps of a run dir.
const (
	RuleDumpMissing = "dump-missing" // a dump listed in run.json is missing or unreadable
	RuleDumpExtra   = "dump-extra"   // a file under dumps/ that run.json does not list
	RuleDumpOrphan  = "dump-orphan"  // a dump the collector stored, did not record, and kept (run.json orphans)
	RuleDumpChanged = "dump-changed" // a dump whose sha256 differs from run.json's
	// RuleDumpUnverified: dumps for which run.json records no sha256, so
	// nothing says they are the bytes the tool wrote.
	RuleDumpUnverified = "dump-unverified"
)

// Integrity checks the dumps of a run dir against its run.json: a dump
// listed but missing, a dump under dumps/ that run.json does not list, and
// a dump whose sha256 is not the one recorded (it changed after it was
// written). A tool's .stderr beside a listed dump is expected. run.Path must
// be the run dir; ReadRun sets it.
func Integrity(run *parse.Run) []Finding {
	listed := map[string]bool{}
	var found []Finding
	var unsummed []string
	for _, mr := range run.Measurements {
		if mr.Dump == "" {
			continue
		}
		rel := filepath.FromSlash(mr.Dump)
		listed[rel] = true
		if f, ok := checkDump(run, mr, rel); ok {
			found = append(found, f)
		} else if mr.SHA256 == "" {
			unsummed = append(unsummed, filepath.Join(run.Path, rel))
		}
	}
	found = append(found, unverified(run, unsummed)...)
	found = append(found, refusedFiles(run)...)
	for _, o := range run.Orphans {
		rel := filepath.FromSlash(o.Dump)
		listed[rel] = true
		found = append(found, Finding{Rule: RuleDumpOrphan, Level: LevelInfo, Run: run.ID,
			Message: fmt.Sprintf("%s was stored but not recorded before the collector stopped; it is kept as it was and not counted (the measurement was taken again)", o.Dump),
			Dumps:   []string{filepath.Join(run.Path, rel)}})
	}
	root := filepath.Join(run.Path, "dumps")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(run.Path, p)
		if listed[rel] || strings.HasSuffix(rel, ".stderr") && listed[strings.TrimSuffix(rel, ".stderr")+".txt"] {
			return nil
		}
		found = append(found, Finding{Rule: RuleDumpExtra, Level: LevelWarning, Run: run.ID,
			Message: fmt.Sprintf("%s is not listed in run.json: it was added by hand or left by an interrupted measurement, and nothing says how it was made; remove it, or finish the run with fairbench collect -resume", filepath.ToSlash(rel)),
			Dumps:   []string{p}})
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		found = append(found, Finding{Rule: RuleDumpMissing, Level: LevelError, Run: run.ID,
			Message: fmt.Sprintf("cannot list the dumps: %v; check the run dir's permissions", err)})
	}
	return found
}

// checkDump compares one listed dump with its record.
func checkDump(run *parse.Run, mr runjson.Measurement, rel string) (Finding, bool) {
	name := filepath.Join(run.Path, rel)
	f := Finding{Run: run.ID, Target: mr.Target, Scenario: mr.Scenario, Dumps: []string{name}, Level: LevelError}
	sum, err := dumpSHA256(run, rel)
	var refused *rundir.RefusedError
	switch {
	case errors.As(err, &refused):
		f.Rule = RuleDumpMissing
		f.Message = fmt.Sprintf("%s is not read: %s; a dump is a regular file inside the run dir", mr.Dump, refused.Reason)
	case os.IsNotExist(err):
		f.Rule = RuleDumpMissing
		f.Message = fmt.Sprintf("%s is listed in run.json but missing: its numbers cannot be checked or rebuilt; restore it from a copy, or measure again", mr.Dump)
	case err != nil:
		f.Rule = RuleDumpMissing
		f.Message = fmt.Sprintf("%s cannot be read: %v; check the file's permissions", mr.Dump, err)
	case mr.SHA256 != "" && !strings.EqualFold(sum, mr.SHA256):
		f.Rule = RuleDumpChanged
		f.Message = fmt.Sprintf("%s has sha256 %s but run.json recorded %s: the dump changed after it was written, so it is no longer the tool's output; restore the original, or measure again", mr.Dump, sum, mr.SHA256)
	default:
		return Finding{}, false
	}
	return f, true
}

// dumpSHA256 is the sha256 of the dump at rel: as it was parsed when the
// run was walked, else read through rundir.OpenFile (inside the run dir, a
// regular file, bounded).
func dumpSHA256(run *parse.Run, rel string) (string, error) {
	if sum, ok := run.DumpSHA256[filepath.Clean(rel)]; ok && sum != "" {
		return sum, nil
	}
	f, err := rundir.OpenFile(run.Path, filepath.ToSlash(rel), rundir.KindDump)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return rundir.ReaderSHA256(f)
}

// unverified is one finding for the dumps of a run that run.json records
// no sha256 for: nothing says they are the bytes the tool wrote.
func unverified(run *parse.Run, dumps []string) []Finding {
	if len(dumps) == 0 {
		return nil
	}
	n := 0
	for _, mr := range run.Measurements {
		if mr.Dump != "" {
			n++
		}
	}
	what := fmt.Sprintf("%d of the %d dumps have no sha256 in run.json", len(dumps), n)
	if len(dumps) == n {
		what = fmt.Sprintf("none of the %d dumps has a sha256 in run.json", n)
	}
	return []Finding{{Rule: RuleDumpUnverified, Level: LevelWarning, Run: run.ID, Dumps: dumps,
		Message: fmt.Sprintf("%s, so they cannot be verified: a dump changed after it was written would not be noticed (collect records a sha256 for every dump; a run.json without them was edited)", what)}}
}
