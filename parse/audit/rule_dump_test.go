package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse"
)

// writeRunDir writes a run dir with four listed dumps: ok (right sha256),
// changed (wrong sha256), missing (no file), and nosum (no sha256
// recorded), plus an unlisted extra dump and a .stderr beside ok.
func writeRunDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	dump, err := os.ReadFile("../testdata/wrk-4.1.0__latency.txt")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(dump)
	good := hex.EncodeToString(sum[:])
	files := map[string]string{
		"dumps/a/ping/1.txt":    string(dump),
		"dumps/a/ping/1.stderr": "a warning from the tool\n",
		"dumps/a/ping/2.txt":    string(dump) + "\n",
		"dumps/a/ping/4.txt":    string(dump),
		"dumps/a/ping/w1.txt":   string(dump), // not listed
		"conformance/a.txt":     "pass\n",     // not a dump
	}
	writeTree(t, dir, files)
	rec := func(rep int, sha string) map[string]any {
		return map[string]any{"target": "a", "scenario": "ping", "rep": rep, "order": rep, "tool": "wrk",
			"dump": "dumps/a/ping/" + string(rune('0'+rep)) + ".txt", "sha256": sha}
	}
	run := map[string]any{
		"schema": 1, "id": "r1", "status": "complete",
		"targets":      []any{map[string]any{"name": "a", "runtime": "go"}},
		"measurements": []any{rec(1, good), rec(2, good), rec(3, good), rec(4, "")},
	}
	b, _ := json.Marshal(run)
	if err := os.WriteFile(filepath.Join(dir, "run.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestIntegrity(t *testing.T) {
	dir := writeRunDir(t)
	run, err := parse.ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	fs := Integrity(run)
	SortFindings(fs)
	want := []struct{ rule, dump string }{
		{RuleDumpChanged, "dumps/a/ping/2.txt"},
		{RuleDumpMissing, "dumps/a/ping/3.txt"},
		{RuleDumpExtra, "dumps/a/ping/w1.txt"},
		{RuleDumpUnverified, "dumps/a/ping/4.txt"},
	}
	if len(fs) != len(want) {
		t.Fatalf("findings %v, want %v", fs, want)
	}
	for i, w := range want {
		got := fs[i]
		if got.Rule != w.rule || len(got.Dumps) != 1 || got.Dumps[0] != filepath.Join(dir, filepath.FromSlash(w.dump)) {
			t.Errorf("finding %d = %s %v, want %s %s", i, got.Rule, got.Dumps, w.rule, w.dump)
		}
	}
}

func TestAuditRunDirReportsIntegrityOnce(t *testing.T) {
	dir := writeRunDir(t)
	set, _ := parse.ReadAll([]string{dir}) // the missing dump is an error here too
	fs := Audit(set, AuditOptions{})
	count := map[string]int{}
	for _, f := range fs {
		count[f.Rule]++
	}
	if count[RuleDumpChanged] != 1 || count[RuleDumpMissing] != 1 || count[RuleDumpExtra] != 1 {
		t.Errorf("integrity findings %v, want one of each", count)
	}
	if count[RuleReadWarning] != 0 {
		t.Errorf("the reader's sha256 warning was reported again: %v", fs)
	}
	if fs := Audit(set, AuditOptions{NoIntegrity: true}); len(rulesOfKind(fs, RuleDumpExtra)) != 0 {
		t.Errorf("NoIntegrity still checked the dumps")
	}
}

func rulesOfKind(fs []Finding, rule string) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.Rule == rule {
			out = append(out, f)
		}
	}
	return out
}

// TestOrphansAndRetakes: a dump the collector kept as an orphan is noted,
// not called extra; a failed measurement is not counted, and once taken
// again it is a note instead of an error.
func TestOrphansAndRetakes(t *testing.T) {
	dir := t.TempDir()
	dump, err := os.ReadFile("../testdata/wrk-4.1.0__latency.txt")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(dump)
	good := hex.EncodeToString(sum[:])
	for _, name := range []string{"1.txt", "1-2.txt", "2.txt", "orphan.txt"} {
		p := filepath.Join(dir, "dumps", "a", "ping", name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, dump, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rec := func(rep int, file, errText string) map[string]any {
		return map[string]any{"target": "a", "scenario": "ping", "rep": rep, "tool": "wrk",
			"dump": "dumps/a/ping/" + file, "sha256": good, "error": errText}
	}
	run := map[string]any{
		"schema": 1, "id": "r1", "status": "complete",
		"measurements": []any{rec(1, "1.txt", "server exited"), rec(1, "1-2.txt", ""), rec(2, "2.txt", "tool hung")},
		"orphans":      []any{map[string]any{"dump": "dumps/a/ping/orphan.txt", "sha256": good}},
	}
	b, _ := json.Marshal(run)
	os.WriteFile(filepath.Join(dir, "run.json"), b, 0o644)

	set, errs := parse.ReadAll([]string{dir})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if len(set.Measurements) != 1 || set.Measurements[0].Source.File != filepath.Join(dir, "dumps/a/ping/1-2.txt") {
		t.Errorf("counted %d measurements, want only the retake 1-2.txt", len(set.Measurements))
	}
	levels := map[string]Level{}
	for _, f := range Audit(set, AuditOptions{}) {
		if f.Rule == RuleDumpExtra {
			t.Errorf("orphan reported as extra: %s", f.Message)
		}
		if f.Rule == RuleToolFailed || f.Rule == RuleDumpOrphan {
			levels[f.Rule+" "+f.Dumps[0][len(dir)+1:]] = f.Level
		}
	}
	want := map[string]Level{
		RuleToolFailed + " dumps/a/ping/1.txt":      LevelInfo,  // retaken
		RuleToolFailed + " dumps/a/ping/2.txt":      LevelError, // not retaken
		RuleDumpOrphan + " dumps/a/ping/orphan.txt": LevelInfo,
	}
	for k, w := range want {
		if got, ok := levels[k]; !ok || got != w {
			t.Errorf("%s: level %v (found %v), want %v", k, got, ok, w)
		}
	}
}

// TestRunDirLinkNotFollowed: a dump that is a link out of the run dir is
// refused with an error naming it; nothing outside is read.
func TestRunDirLinkNotFollowed(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret.txt")
	dump, _ := os.ReadFile("../testdata/wrk-4.1.0__latency.txt")
	os.WriteFile(outside, dump, 0o644)
	os.MkdirAll(filepath.Join(dir, "dumps", "a", "ping"), 0o755)
	if err := os.Symlink(outside, filepath.Join(dir, "dumps", "a", "ping", "1.txt")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	run := `{"schema":1,"id":"r1","measurements":[{"target":"a","scenario":"ping","rep":1,"tool":"wrk","dump":"dumps/a/ping/1.txt"}]}`
	os.WriteFile(filepath.Join(dir, "run.json"), []byte(run), 0o644)
	set, errs := parse.ReadAll([]string{dir})
	if len(set.Measurements) != 0 {
		t.Errorf("read %d measurements through a link out of the run dir", len(set.Measurements))
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "outside the run dir") {
		t.Errorf("errs = %v, want one naming the link", errs)
	}
}
