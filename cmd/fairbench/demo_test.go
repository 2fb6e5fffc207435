package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI calls run as main does and returns stdout, stderr and the exit status.
func runCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := report(&stderr, run(&env{stdout: &stdout, stderr: &stderr}, args))
	return stdout.String(), stderr.String(), code
}

// TestDemoEndToEnd runs the whole demo pipeline with tiny windows.
func TestDemoEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds three servers and loads them")
	}
	t.Parallel() // with the gate tests: they build while it loads
	out := t.TempDir()
	stdout, stderr, code := runCLI(t, "demo", "-out", out, "-duration", "1s", "-warmup", "1s", "-reps", "1")
	if code != 0 {
		t.Fatalf("demo exit %d\nstderr:\n%s", code, stderr)
	}
	index := strings.TrimSpace(stdout)
	if index != filepath.Join(out, "site", "index.html") {
		t.Fatalf("demo printed %q, want the index path", index)
	}
	runs, _ := filepath.Glob(filepath.Join(out, "runs", "*", "run.json"))
	if len(runs) != 1 {
		t.Fatalf("run dirs: %v, want one", runs)
	}
	runDir := filepath.Dir(runs[0])

	var manifest struct {
		Status       string
		Measurements []struct {
			Target, Scenario, Dump, SHA256 string
			Warmup                         bool
		}
	}
	b, err := os.ReadFile(runs[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &manifest); err != nil {
		t.Fatal(err)
	}
	if manifest.Status != "complete" {
		t.Errorf("run status %q", manifest.Status)
	}
	measured := map[string]bool{}
	for _, m := range manifest.Measurements {
		dump, err := os.ReadFile(filepath.Join(runDir, m.Dump))
		if err != nil {
			t.Errorf("dump listed in run.json: %v", err)
			continue
		}
		sum := sha256.Sum256(dump)
		if got := hex.EncodeToString(sum[:]); got != m.SHA256 {
			t.Errorf("%s: sha256 %s, run.json says %s", m.Dump, got, m.SHA256)
		}
		if !m.Warmup {
			measured[m.Target+"/"+m.Scenario] = true
		}
	}
	if len(measured) != 9 {
		t.Errorf("measured %d target×scenario cells, want 9: %v", len(measured), measured)
	}

	// Every measurement parses with rps > 0.
	jsonl, stderr, code := runCLI(t, "parse", "-format", "json", runDir)
	if code != 0 {
		t.Fatalf("parse exit %d: %s", code, stderr)
	}
	var n int
	for _, line := range strings.Split(strings.TrimSpace(jsonl), "\n") {
		var rec struct {
			Kind string
			RPS  float64
			Dump struct{ File string } `json:"source"`
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("parse output line %q: %v", line, err)
		}
		if rec.Kind != "measurement" {
			continue
		}
		n++
		if rec.RPS <= 0 {
			t.Errorf("%s: rps %v", rec.Dump.File, rec.RPS)
		}
	}
	if n != len(manifest.Measurements) {
		t.Errorf("parse printed %d measurements, run.json lists %d", n, len(manifest.Measurements))
	}

	page, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	for _, target := range []string{"stdlib", "chi", "gin"} {
		if !strings.Contains(html, ">"+target+"<") {
			t.Errorf("index does not name target %s", target)
		}
		if _, err := os.Stat(filepath.Join(out, "site", "target", target+".html")); err != nil {
			t.Errorf("no target page for %s: %v", target, err)
		}
	}
	// The index answers first: the run's heat map (one column per
	// scenario) and its chart; each scenario's chart is on its page.
	if !strings.Contains(html, `<table class="heat"`) || strings.Count(html, `<svg class="chart"`) != 1 {
		t.Errorf("index has no heat map, or not exactly one chart for its one run")
	}
	for _, sc := range []string{"ping", "query", "body"} {
		b, err := os.ReadFile(filepath.Join(out, "site", "scenario", sc+".html"))
		if err != nil {
			t.Errorf("no scenario page for %s: %v", sc, err)
			continue
		}
		if !strings.Contains(string(b), `<svg class="chart"`) {
			t.Errorf("scenario page %s has no chart", sc)
		}
	}
}

func TestUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "fairbench: no command given"},
		{[]string{"nope"}, 2, `unknown command "nope"`},
		{[]string{"parse"}, 2, "give at least one PATH"},
		{[]string{"parse", "-format", "xml", "x"}, 2, `-format "xml"`},
		{[]string{"parse", "-bogus"}, 2, "flag provided but not defined"},
		{[]string{"collect"}, 2, "-suite FILE (or -resume RUNDIR) is required"},
		{[]string{"audit"}, 2, "give at least one PATH"},
		{[]string{"compare", "a"}, 2, "exactly two runs"},
		{[]string{"init"}, 2, "exactly one DIR"},
	} {
		_, stderr, code := runCLI(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
	stdout, _, code := runCLI(t, "help")
	if code != 0 || !strings.Contains(stdout, "demo") {
		t.Errorf("help: exit %d, %q", code, stdout)
	}
}

func TestParseBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("not a dump\n"), 0o644)
	_, stderr, code := runCLI(t, "parse", bad)
	if code != 2 || !strings.Contains(stderr, bad+": no load generator output") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

func TestParseCSV(t *testing.T) {
	stdout, stderr, code := runCLI(t, "parse", "-format", "csv", "../../parse/testdata/bombardier-1.2.6__json_latencies.json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "kind,") || !strings.HasPrefix(lines[1], "measurement,bombardier,") {
		t.Errorf("csv output:\n%s", stdout)
	}
}
