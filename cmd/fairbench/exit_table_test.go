package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// gateSuite writes a suite of two real servers (python3's http.server,
// each in its own folder) and two scenarios: "root" both pass; "file"
// asks for a.txt, which only the folder of "has" holds, so "lacks" fails
// the gate there and there only.
func gateSuite(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("needs python3 for servers that answer")
	}
	dir := t.TempDir()
	has, lacks := filepath.Join(dir, "has"), filepath.Join(dir, "lacks")
	for _, d := range []string{has, lacks} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(has, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	server := `start = ["sh", "-c", "exec python3 -m http.server --bind 127.0.0.1 $PORT 2>/dev/null"]`
	src := `name = "gate-exit"

[load]
tool = "wrk"
threads = 1
connections = 2
duration = "1s"
warmup = "0s"
repetitions = 1

[[target]]
name = "has"
dir = "` + has + `"
` + server + `

[[target]]
name = "lacks"
dir = "` + lacks + `"
` + server + `

[[scenario]]
name = "root"
request = { method = "GET", path = "/" }
expect = { status = 200 }

[[scenario]]
name = "file"
request = { method = "GET", path = "/a.txt" }
expect = { status = 200, body = "a\n" }
`
	file := filepath.Join(dir, "gate.toml")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestExitTable runs one command per row of the exit status table that
// 'fairbench help' prints (exitTable), with real inputs and real servers;
// the rows of each command are tested beside it (parse_exit_test.go,
// render_exit_test.go, collect_exit_test.go). A gate failure in one
// scenario of one target is 1 for verify and for collect, although the
// other target and scenario pass and collect measures and keeps them.
func TestExitTable(t *testing.T) {
	if testing.Short() {
		t.Skip("starts servers and loads them with wrk")
	}
	if _, err := exec.LookPath("wrk"); err != nil {
		missing(t, "wrk", "apt-get install wrk")
	}
	help, _, _ := runCLI(t, "help")
	for _, row := range exitTable {
		if !strings.Contains(help, row.condition) {
			t.Errorf("fairbench help does not print the row for exit %d", row.code)
		}
	}
	suiteFile := gateSuite(t)
	out := t.TempDir()
	empty := t.TempDir()
	dump := "../../parse/testdata/wrk-4.1.0__latency.txt"
	for _, c := range []struct {
		name string
		args []string
		code int
		says string
	}{
		{"0: parse of a real dump", []string{"parse", dump}, 0, ""},
		{"0: verify, every target passes", []string{"verify", "-suite", suiteFile, "-only", "has"}, 0, "all 1 targets passed"},
		{"1: verify, one target fails one scenario", []string{"verify", "-suite", suiteFile}, 1, "1 of 2 targets failed the gate"},
		{"1: collect, one target fails one scenario", []string{"collect", "-suite", suiteFile, "-out", out}, 1, "lacks (file)"},
		{"2: unknown flag", []string{"parse", "-bogus", dump}, 2, "flag provided but not defined"},
		{"2: bad value", []string{"parse", "-format", "xml", dump}, 2, `-format "xml"`},
		{"2: refused -out", []string{"render", "-out", "/", dump}, 2, "-out / is the root"},
		{"2: missing named input", []string{"parse", filepath.Join(empty, "nope.txt")}, 2, "nope.txt"},
		{"2: empty input", []string{"parse", empty}, 2, empty},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			stdout, stderr, code := runCLI(t, c.args...)
			if code != c.code || !strings.Contains(stdout+stderr, c.says) {
				t.Errorf("fairbench %s: exit %d, want %d and %q\n%s", strings.Join(c.args, " "), code, c.code, c.says, stderr)
			}
			t.Logf("%s: %v", c.name, time.Since(start).Round(time.Millisecond))
		})
	}
	runs, _ := filepath.Glob(filepath.Join(out, "*", "run.json"))
	if len(runs) != 1 {
		t.Fatalf("collect left %d run dirs, want 1", len(runs))
	}
	var m struct {
		Status       string
		Measurements []struct{ Target, Scenario, SHA256, Error string }
	}
	b, err := os.ReadFile(runs[0])
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, mr := range m.Measurements {
		got[mr.Target+"/"+mr.Scenario] = mr.SHA256 != "" && mr.Error == ""
	}
	want := map[string]bool{"has/root": true, "has/file": true, "lacks/root": true}
	if m.Status != "complete" || len(got) != len(want) {
		t.Errorf("run %s with %v measured, want complete with %v", m.Status, got, want)
	}
	for k := range want {
		if !got[k] {
			t.Errorf("%s was not measured and kept", k)
		}
	}
}
