package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/rundir"
)

// Hostile run dirs (issue 13): a dump path to /dev/zero, links out of the
// run dir, FIFOs, an oversized run.json, a measurement listed twice, every
// sha256 blanked. Each is refused or reported, naming the file; nothing
// hangs and nothing outside the run dir is read.

// hostileRun writes a run dir whose run.json lists measurements (each a
// map merged over a wrk measurement of target a, scenario ping) and whose
// files are the given bodies; it returns the run dir.
func hostileRun(t *testing.T, files map[string]string, ms ...map[string]any) string {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, files)
	var list []any
	for i, m := range ms {
		rec := map[string]any{"target": "a", "scenario": "ping", "rep": i + 1, "order": i + 1, "tool": "wrk"}
		for k, v := range m {
			rec[k] = v
		}
		list = append(list, rec)
	}
	b, err := json.Marshal(map[string]any{"schema": 1, "id": "r1", "status": "complete",
		"targets":      []any{map[string]any{"name": "a", "runtime": "go", "transcript": "conformance/a.txt"}},
		"measurements": list})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "run.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// writeTree writes files (slash path → body) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// wrkDump is a real wrk dump and its sha256.
func wrkDump(t *testing.T) (string, string) {
	b, err := os.ReadFile("../testdata/wrk-4.1.0__latency.txt")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return string(b), hex.EncodeToString(sum[:])
}

// within10s runs f and fails the test if it does not return in 10 s.
func within10s(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: still running after 10 s", what)
	}
}

// findingsOf is the run dir's findings by rule.
func findingsOf(t *testing.T, dir string) map[string][]Finding {
	t.Helper()
	run, err := parse.ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]Finding{}
	for _, f := range Integrity(run) {
		out[f.Rule] = append(out[f.Rule], f)
	}
	return out
}

// TestDumpDevZero: a dump path that climbs to /dev/zero, or a link to it,
// is refused at once by parse and by the integrity check, which prints no
// sha256 of it.
func TestDumpDevZero(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	for _, tc := range []struct{ name, dump string }{
		{"climbs", "../../../../../../../../dev/zero"},
		{"links", "dumps/a/ping/1.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := hostileRun(t, nil, map[string]any{"dump": tc.dump, "sha256": strings.Repeat("0", 64)})
			if tc.name == "links" {
				os.MkdirAll(filepath.Join(dir, "dumps/a/ping"), 0o755)
				if err := os.Symlink("/dev/zero", filepath.Join(dir, "dumps/a/ping/1.txt")); err != nil {
					t.Skip(err)
				}
			}
			var errs []error
			var fs map[string][]Finding
			within10s(t, "reading and checking the run", func() {
				_, errs = parse.ReadAll([]string{dir})
				fs = findingsOf(t, dir)
			})
			if len(errs) != 1 || !strings.Contains(errs[0].Error(), "run.json") || !errors.Is(errs[0], rundir.ErrRefused) && !strings.Contains(errs[0].Error(), "not read") {
				t.Errorf("parse errors %v, want one naming run.json and the refused dump", errs)
			}
			got := fs[RuleDumpMissing]
			if len(got) != 1 || !strings.Contains(got[0].Message, "is not read") || strings.Contains(got[0].Message, "sha256") {
				t.Errorf("integrity findings %v, want one dump-missing saying it is not read, with no sha256", fs)
			}
		})
	}
}

// TestRunFilesLinkedOut: a suite.toml linked to /etc/passwd and a
// transcript linked to /proc/self/environ are refused, and the audit says
// so as errors.
func TestRunFilesLinkedOut(t *testing.T) {
	dump, sum := wrkDump(t)
	dir := hostileRun(t, map[string]string{"dumps/a/ping/1.txt": dump}, map[string]any{"dump": "dumps/a/ping/1.txt", "sha256": sum})
	os.MkdirAll(filepath.Join(dir, "conformance"), 0o755)
	secret := filepath.Join(t.TempDir(), "environ")
	os.WriteFile(secret, []byte("TOKEN=hunter2\n"), 0o600)
	if err := os.Symlink(secret, filepath.Join(dir, "conformance/a.txt")); err != nil {
		t.Skip(err)
	}
	os.Symlink("/etc/passwd", filepath.Join(dir, "suite.toml"))
	for _, rel := range []string{"suite.toml", "conformance/a.txt"} {
		if _, err := rundir.ReadFile(dir, rel, rundir.KindSuite); !errors.Is(err, rundir.ErrRefused) || !strings.Contains(err.Error(), "outside the run dir") {
			t.Errorf("rundir.ReadFile(%s) = %v, want a refusal saying it links outside the run dir", rel, err)
		}
	}
	got := findingsOf(t, dir)[RuleFileRefused]
	if len(got) != 2 || got[0].Level != LevelError {
		t.Fatalf("file-refused findings %v, want two errors", got)
	}
	for _, f := range got {
		if strings.Contains(f.Message, "hunter2") {
			t.Errorf("finding shows the linked file's bytes: %s", f.Message)
		}
	}
}

// TestRunJSONHugeField: a run.json with one 100 MB field is refused by its
// size, naming the limit, before it is read: reading it takes no memory to
// speak of (it took 880 MB in render).
func TestRunJSONHugeField(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"schema":1,"id":"r1","suite":"`)
	chunk := []byte(strings.Repeat("x", 1<<20))
	for range 100 {
		f.Write(chunk)
	}
	f.WriteString(`","measurements":[]}`)
	f.Close()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err = parse.ReadRun(dir)
	runtime.ReadMemStats(&after)
	var re *rundir.RefusedError
	if !errors.As(err, &re) || re.Limit != rundir.MaxRunJSON || !strings.Contains(err.Error(), "run.json") || !strings.Contains(err.Error(), "32 MB") {
		t.Fatalf("parse.ReadRun = %v, want a refusal naming run.json and its 32 MB limit", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("refusing the run.json allocated %d bytes; it should not read it", grew)
	}
	if errs := parse.Walk([]string{dir}, func(parse.Record) error { return nil }); len(errs) != 1 || !errors.Is(errs[0], rundir.ErrRefused) {
		t.Errorf("parse.Walk errs %v, want the refusal", errs)
	}
}

// TestRunFileGrows: a file that grows past its limit after it was opened
// fails the read; it is not read on without end.
func TestRunFileGrows(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "suite.toml")
	os.WriteFile(name, []byte("# a suite\n"), 0o644)
	f, err := rundir.OpenFile(dir, "suite.toml", rundir.KindSuite)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	os.WriteFile(name, []byte(strings.Repeat("#\n", rundir.MaxSuite)), 0o644)
	n, err := io.Copy(io.Discard, f)
	if !errors.Is(err, rundir.ErrRefused) || n > rundir.MaxSuite {
		t.Errorf("read %d bytes, err %v; want at most %d and a refusal", n, err, rundir.MaxSuite)
	}
}

// TestMeasurementListedTwice: the same measurement listed twice in
// run.json is counted once, and a warning naming run.json says so.
func TestMeasurementListedTwice(t *testing.T) {
	dump, sum := wrkDump(t)
	files := map[string]string{"dumps/a/ping/1.txt": dump, "dumps/a/ping/2.txt": dump}
	one := map[string]any{"dump": "dumps/a/ping/1.txt", "sha256": sum, "rep": 1}
	two := map[string]any{"dump": "dumps/a/ping/2.txt", "sha256": sum, "rep": 2}
	for _, tc := range []struct {
		name string
		ms   []map[string]any
	}{
		{"same entry", []map[string]any{one, two, one}},
		{"same rep, other dump", []map[string]any{one, two, {"dump": "dumps/a/ping/2.txt", "sha256": sum, "rep": 3}, {"dump": "dumps/a/ping/2.txt", "sha256": sum, "rep": 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := hostileRun(t, files, tc.ms...)
			set, errs := parse.ReadAll([]string{dir})
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			if len(set.Measurements) != 2 {
				t.Errorf("counted %d measurements, want 2", len(set.Measurements))
			}
			var warned []Finding
			for _, f := range Audit(set, AuditOptions{}) {
				if f.Rule == RuleReadWarning && strings.Contains(f.Message, "twice") {
					warned = append(warned, f)
				}
			}
			if len(warned) == 0 || !strings.Contains(warned[0].Message, filepath.Join(dir, "run.json")) {
				t.Errorf("findings %v, want a warning naming run.json and the measurement listed twice", warned)
			}
		})
	}
}

// TestEverySHA256Blanked: a run.json whose sha256s were all blanked does
// not turn the integrity check off silently.
func TestEverySHA256Blanked(t *testing.T) {
	dump, _ := wrkDump(t)
	dir := hostileRun(t, map[string]string{"dumps/a/ping/1.txt": dump, "dumps/a/ping/2.txt": dump + "edited\n"},
		map[string]any{"dump": "dumps/a/ping/1.txt"}, map[string]any{"dump": "dumps/a/ping/2.txt"})
	got := findingsOf(t, dir)[RuleDumpUnverified]
	if len(got) != 1 || !strings.Contains(got[0].Message, "none of the 2 dumps has a sha256") || !strings.Contains(got[0].Message, "cannot be verified") || len(got[0].Dumps) != 2 {
		t.Errorf("findings %v, want one saying the 2 dumps cannot be verified", got)
	}
}
