package parse

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// copyTree copies the folder src to dst, which must not exist.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
}

const committedRun = "../site/results/20261129T203921Z-vm"

// TestRunReadOnce: the same run met twice (named twice, a copy of it, a
// rendered site's raw/<run>/ beside results/) is read once, with a warning
// naming both places; one id with another run.json is an error naming both
// run dirs, and the second is not read.
func TestRunReadOnce(t *testing.T) {
	once, errs := ReadAll([]string{committedRun})
	if len(errs) != 0 || len(once.Warnings) != 0 {
		t.Fatalf("the committed run alone: errors %v, warnings %v", errs, once.Warnings)
	}
	n := len(once.Measurements)
	project := t.TempDir()
	copyTree(t, committedRun, filepath.Join(project, "results", "20261129T203921Z-vm"))
	copyTree(t, committedRun, filepath.Join(project, "public", "raw", "20261129T203921Z-vm"))
	changed := filepath.Join(t.TempDir(), "changed")
	copyTree(t, committedRun, changed)
	b, _ := os.ReadFile(filepath.Join(changed, "run.json"))
	os.WriteFile(filepath.Join(changed, "run.json"), append(b, ' '), 0o644)

	for _, tt := range []struct {
		name     string
		paths    []string
		warnings int
		clash    bool
	}{
		{"named twice", []string{committedRun, committedRun}, 1, false},
		{"a copy", []string{committedRun, filepath.Join(project, "results", "20261129T203921Z-vm")}, 1, false},
		{"results and the site's raw", []string{project}, 1, false},
		{"one id, another run.json", []string{committedRun, changed}, 0, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			set, errs := ReadAll(tt.paths)
			if got := len(set.Measurements); got != n {
				t.Errorf("%d measurements, want %d (the run once)", got, n)
			}
			if len(set.Warnings) != tt.warnings {
				t.Errorf("warnings %v, want %d", set.Warnings, tt.warnings)
			}
			for _, w := range set.Warnings {
				if !strings.Contains(w.Error(), "20261129T203921Z-vm") || !strings.Contains(w.Error(), "read once") {
					t.Errorf("warning %q does not name the run and say it was read once", w)
				}
			}
			var clash *DuplicateRunError
			if got := len(errs) == 1 && errors.As(errs[0], &clash); got != tt.clash {
				t.Fatalf("errors %v, want a run id clash: %v", errs, tt.clash)
			}
			if tt.clash && (!strings.Contains(clash.Error(), committedRun) || !strings.Contains(clash.Error(), changed)) {
				t.Errorf("%q does not name both run dirs", clash)
			}
			if !tt.clash && len(errs) != 0 {
				t.Errorf("errors %v, want none", errs)
			}
		})
	}
}

// TestRunDirAskedWindow: a dump that measured far less than the window
// run.json's argv asked for is refused at the dump's file:line.
func TestRunDirAskedWindow(t *testing.T) {
	dir := committedAsking(t, "1s", "10s") // the first measurement asks for 1s; make it ask for 10s
	_, errs := ReadAll([]string{dir})
	var se *SyntaxError
	if len(errs) != 1 || !errors.As(errs[0], &se) || !strings.Contains(se.Msg, "window asked for") || !strings.HasSuffix(se.File, ".txt") {
		t.Fatalf("errors %v, want one *SyntaxError at the dump saying it is short of the window asked for", errs)
	}
}

// committedAsking is a copy of committedRun whose run.json asks, in the
// first argv that asks for the window from, for the window to.
func committedAsking(t *testing.T, from, to string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	copyTree(t, committedRun, dir)
	b, _ := os.ReadFile(filepath.Join(dir, "run.json"))
	re := regexp.MustCompile(`("-d",\s*)"` + regexp.QuoteMeta(from) + `"`)
	loc := re.FindIndex(b)
	if loc == nil {
		t.Fatalf(`no "-d", %q in run.json`, from)
	}
	edited := string(b[:loc[0]]) + re.ReplaceAllString(string(b[loc[0]:loc[1]]), `${1}"`+to+`"`) + string(b[loc[1]:])
	os.WriteFile(filepath.Join(dir, "run.json"), []byte(edited), 0o644)
	return dir
}

// TestAAPairOfOneTarget: run.json's aa_pair naming one target twice is
// ignored with a warning naming run.json.
func TestAAPairOfOneTarget(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	copyTree(t, committedRun, dir)
	b, _ := os.ReadFile(filepath.Join(dir, "run.json"))
	edited := strings.Replace(string(b), "{", `{"aa_pair":["chi","chi"],`, 1)
	os.WriteFile(filepath.Join(dir, "run.json"), []byte(edited), 0o644)
	set, errs := ReadAll([]string{dir})
	if len(errs) != 0 || len(set.Runs) != 1 {
		t.Fatalf("errors %v, runs %d", errs, len(set.Runs))
	}
	if set.Runs[0].AAPair != nil {
		t.Errorf("aa_pair %q kept", set.Runs[0].AAPair)
	}
	if len(set.Warnings) != 1 || !strings.Contains(set.Warnings[0].Error(), "run.json: aa_pair pairs chi with itself") {
		t.Errorf("warnings %v, want one about the aa_pair", set.Warnings)
	}
}
