package parse

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// editRunJSON copies the committed run and changes its run.json by edit.
func editRunJSON(t *testing.T, edit func(map[string]any)) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	copyTree(t, committedRun, dir)
	b, _ := os.ReadFile(filepath.Join(dir, "run.json"))
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	edit(doc)
	b, _ = json.Marshal(doc)
	os.WriteFile(filepath.Join(dir, "run.json"), b, 0o644)
	return dir
}

// TestRunJSONRanges: a fact of run.json out of range (a build of 1e300 s,
// an end before the start, negative CPU seconds) is read as unknown with a
// warning naming run.json and the key; a value that places a dump in a
// cell (a negative rep) refuses the run at run.json.
func TestRunJSONRanges(t *testing.T) {
	dir := editRunJSON(t, func(doc map[string]any) {
		doc["end"] = "2000-01-01T00:00:00Z"
		doc["targets"].([]any)[0].(map[string]any)["build_s"] = 1e300
		doc["measurements"].([]any)[0].(map[string]any)["server_cpu_s"] = -3
	})
	set, errs := ReadAll([]string{dir})
	if len(errs) != 0 || len(set.Runs) != 1 {
		t.Fatalf("errors %v, runs %d", errs, len(set.Runs))
	}
	r := set.Runs[0]
	if r.End != nil || r.Targets[0].BuildS != 0 || r.Measurements[0].ServerCPUSeconds != 0 {
		t.Errorf("end %v, build_s %g, server_cpu_s %g: want unknown", r.End, r.Targets[0].BuildS, r.Measurements[0].ServerCPUSeconds)
	}
	for _, want := range []string{"end 2000-01-01T00:00:00Z is before start", "build_s 1e+300 is out of range", "server_cpu_s -3 is out of range"} {
		found := false
		for _, w := range set.Warnings {
			found = found || strings.Contains(w.Error(), "run.json: ") && strings.Contains(w.Error(), want)
		}
		if !found {
			t.Errorf("no warning saying %q in %v", want, set.Warnings)
		}
	}
	for _, tg := range set.Targets {
		if tg.Build < 0 || tg.Build.Seconds() > 1e6 {
			t.Errorf("target %s built in %s", tg.Name, tg.Build)
		}
	}

	refused := editRunJSON(t, func(doc map[string]any) {
		doc["measurements"].([]any)[0].(map[string]any)["rep"] = -1
	})
	_, errs = ReadAll([]string{refused})
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "run.json: measurements[0]") || !strings.Contains(errs[0].Error(), "rep -1: reps count from 1") {
		t.Errorf("errors %v, want run.json refused naming measurements[0] rep", errs)
	}
}

// TestRunJSONKeyCase: a "Rep" beside a measurement's "rep" (encoding/json
// would take it for the rep, jq the lowercase one) refuses the run with
// run.json's path and the key's line.
func TestRunJSONKeyCase(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	copyTree(t, committedRun, dir)
	name := filepath.Join(dir, "run.json")
	b, _ := os.ReadFile(name)
	at := strings.Index(string(b), `"rep": 1,`)
	line := 1 + strings.Count(string(b[:at]), "\n")
	b = []byte(string(b[:at]) + `"rep": 1, "Rep": 2,` + string(b[at+len(`"rep": 1,`):]))
	os.WriteFile(name, b, 0o644)
	_, errs := ReadAll([]string{dir})
	want := fmt.Sprintf(`%s:%d: key "Rep" is not a run.json key`, name, line)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), want) {
		t.Errorf("errors %v, want one saying %q", errs, want)
	}
}
