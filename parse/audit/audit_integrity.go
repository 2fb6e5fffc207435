package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"github.com/fairbench/fairbench/parse"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Rules about the raw dumps of a run dir.
const (
	RuleDumpMissing = "dump-missing" // a dump listed in run.json is missing or unreadable
	RuleDumpExtra   = "dump-extra"   // a file under dumps/ that run.json does not list
	RuleDumpOrphan  = "dump-orphan"  // a dump the collector stored, did not record, and kept (run.json orphans)
	RuleDumpChanged = "dump-changed" // a dump whose sha256 differs from run.json's
)

// Integrity checks the dumps of a run dir against its run.json: a dump
// listed but missing, a dump under dumps/ that run.json does not list, and
// a dump whose sha256 is not the one recorded (it changed after it was
// written). A tool's .stderr beside a listed dump is expected. run.Path must
// be the run dir; ReadRun sets it.
func Integrity(run *parse.Run) []Finding {
	listed := map[string]bool{}
	var found []Finding
	for _, mr := range run.Measurements {
		if mr.Dump == "" {
			continue
		}
		rel := filepath.FromSlash(mr.Dump)
		listed[rel] = true
		if f, ok := checkDump(run, mr, rel); ok {
			found = append(found, f)
		}
	}
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
func checkDump(run *parse.Run, mr parse.RunMeasurement, rel string) (Finding, bool) {
	name := filepath.Join(run.Path, rel)
	f := Finding{Run: run.ID, Target: mr.Target, Scenario: mr.Scenario, Dumps: []string{name}, Level: LevelError}
	sum, err := fileSHA256(name)
	switch {
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

func fileSHA256(name string) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
