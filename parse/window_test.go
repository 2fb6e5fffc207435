package parse

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// toolFixtures are the real dumps of shared/fixtures/tools, each beside
// the command line that made it (<name>.cmd).
const toolFixtures = "/work/shared/fixtures/tools"

// TestRealWindowsPass: every real dump whose asked window is known reads
// without a window problem: the tool fixtures, checked against the -d of
// the command that made them, and every committed run (site/results,
// parse/testdata/runs, render/testdata, parse/audit/testdata: bombardier and autocannon, windows
// of 1 s to 10 s, sweeps at 1 to 256 connections, about 12,000
// measurements), checked against run.json's argv.
func TestRealWindowsPass(t *testing.T) {
	cmds, _ := filepath.Glob(filepath.Join(toolFixtures, "*.cmd"))
	if len(cmds) == 0 {
		t.Skip("no tool fixtures at " + toolFixtures)
	}
	checked := 0
	for _, cmd := range cmds {
		line, err := os.ReadFile(cmd)
		if err != nil {
			t.Fatal(err)
		}
		argv := strings.Fields(strings.SplitN(string(line), "\n", 2)[0])
		c := &command{argv: argv}
		asked := c.window()
		if asked == 0 || strings.Contains(string(line), "timeout -s INT") {
			continue // no window asked, or stopped on purpose (wrk's sigint fixture)
		}
		dumps, _ := filepath.Glob(strings.TrimSuffix(cmd, ".cmd") + ".*")
		var ms []*Measurement
		for _, d := range dumps {
			if !strings.HasSuffix(d, ".cmd") && !strings.HasSuffix(d, ".stderr.txt") {
				got, _, _ := readFileRecords(t, d)
				ms = append(ms, got...)
			}
		}
		for _, m := range ms {
			if m.Duration == 0 {
				continue
			}
			checked++
			if msg := checkWindow(m, m.Source.File, m.Source.LineStart, asked, c.timeout()); msg != "" {
				t.Errorf("%s: real dump refused: %s", filepath.Base(cmd), msg)
			}
		}
	}
	if checked < 20 {
		t.Errorf("checked %d fixture windows, want the 20 and more the fixtures hold", checked)
	}
	if testing.Short() {
		return
	}
	var runs []string
	for _, pattern := range []string{"../site/results/*/run.json", "testdata/runs/*/run.json", "../render/testdata/*/*/run.json", "audit/testdata/*/*/run.json"} {
		found, _ := filepath.Glob(pattern)
		for _, f := range found {
			runs = append(runs, filepath.Dir(f))
		}
	}
	set, errs := ReadAll(runs)
	for _, err := range errs {
		if strings.Contains(err.Error(), "window") {
			t.Errorf("committed run refused: %v", err)
		}
	}
	if len(set.Measurements) < 5000 {
		t.Errorf("read %d measurements of %d committed runs, want thousands", len(set.Measurements), len(runs))
	}
}

// readFileRecords reads the dump at name as a named file.
func readFileRecords(t *testing.T, name string) ([]*Measurement, []*Target, []error) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return readString(name, string(b))
}

// TestWindowProblem: the bounds on each side, at the real extremes the
// fixtures and committed runs hold, and just past them.
func TestWindowProblem(t *testing.T) {
	s := func(x float64) time.Duration { return time.Duration(x * float64(time.Second)) }
	for _, c := range []struct {
		tool                     string
		measured, asked, timeout float64
		short, long              bool
	}{
		{ToolBombardier, 1.139, 1, 2, false, false}, // the longest warm-up of site/results
		{ToolBombardier, 1.747, 1, 2, false, false}, // a sweep at 1 connection, render/testdata/phaserun
		{ToolBombardier, 3.7, 1, 2, false, true},
		{ToolBombardier, 8, 4, 2, false, true},
		{ToolBombardier, 8, 4, 0, false, true}, // bombardier's default timeout, 2 s
		{ToolAutocannon, 11.07, 10, 10, false, false},
		{ToolAutocannon, 22, 10, 10, false, true},
		{ToolWrk, 2.13, 2, 0, false, false},
		{ToolWrk2, 4.02, 3, 0, false, false},
		{ToolWrk, 1.81, 2, 0, false, false},
		{ToolWrk, 1.79, 2, 0, true, false},
		{ToolBombardier, 0.89, 1, 2, true, false},
		{ToolWrk, 2, 1, 0, false, true},
		{ToolWrk, 4, 2, 9, false, true}, // wrk does not wait for answers in flight
		{ToolWrk2, 6, 3, 0, false, true},
		{ToolWrk, 2.71, 2, 0, false, true},
		{ToolWrk, 0, 0, 0, false, false}, // nothing asked: nothing checked
	} {
		msg := windowProblem(c.tool, s(c.measured), s(c.asked), s(c.timeout))
		if short, long := strings.Contains(msg, "short of"), strings.Contains(msg, "stalled"); short != c.short || long != c.long {
			t.Errorf("%s measured %gs of %gs: %q; want short %v, long %v", c.tool, c.measured, c.asked, msg, c.short, c.long)
		}
	}
}

// TestDoctoredWindows: real dumps whose window was changed, or whose
// asked window is not the one they ran, are refused at their file:line:
// wrk dumps in a run dir against run.json's argv (a -d the dump ran twice
// or two thirds of; wrk's fixture stopped by SIGINT 2 s into a 90 s
// window), a bombardier dump against its own spec (3× its 2 s window: it
// may take 2 s more waiting on answers in flight), and a committed run's
// dump against a run.json asking a quarter of its window.
func TestDoctoredWindows(t *testing.T) {
	for _, c := range []struct{ name, dump, asked, what string }{
		{"wrk as run", "testdata/wrk-4.1.0__latency.txt", "2s", ""},
		{"wrk ran 2x the window asked", "testdata/wrk-4.1.0__latency.txt", "1s", "stalled past its window"},
		{"wrk ran 2/3 of the window asked", "testdata/wrk-4.1.0__latency.txt", "3s", "short of the 3s window"},
		{"wrk stopped by SIGINT", "testdata/wrk-4.1.0__sigint_header_2m.txt", "90s", "short of the 1m30s window"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := wrkRunDir(t, c.dump, c.asked)
			set, errs := ReadAll([]string{dir})
			if c.what == "" {
				if len(set.Measurements) != 1 || len(errs) > 0 {
					t.Fatalf("%d runs, errors %v; want the real dump read", len(set.Measurements), errs)
				}
				return
			}
			var se *SyntaxError
			if len(errs) != 1 || !errors.As(errs[0], &se) || !strings.Contains(se.Msg, c.what) || !strings.HasSuffix(se.File, "1.txt") || len(set.Measurements) != 0 {
				t.Fatalf("%d runs, errors %v; want one *SyntaxError at the dump saying %q", len(set.Measurements), errs, c.what)
			}
		})
	}
	t.Run("bombardier time taken 3x", func(t *testing.T) {
		bombardier := string(readFixture(t, "testdata/bombardier-1.2.6__json_latencies.json"))
		_, _, errs := readString("x.txt", strings.Replace(bombardier, `"timeTakenSeconds":1.999799525`, `"timeTakenSeconds":5.999399`, 1))
		if !hasSyntaxError(errs, "x.txt", "stalled past its window") {
			t.Errorf("errors %v, want a *SyntaxError at x.txt:line saying it ran past its window", errs)
		}
	})
	t.Run("run.json asks a quarter of the window", func(t *testing.T) {
		dir := committedAsking(t, "4s", "1s")
		_, errs := ReadAll([]string{dir})
		var se *SyntaxError
		if len(errs) != 1 || !errors.As(errs[0], &se) || !strings.Contains(se.Msg, "stalled past its window") || !strings.HasSuffix(se.File, ".txt") {
			t.Fatalf("errors %v, want one *SyntaxError at the dump saying it ran far past the window asked for", errs)
		}
	})
}

// wrkRunDir writes a run dir of one wrk measurement: the real dump at
// fixture, and a run.json whose argv asks for the window asked.
func wrkRunDir(t *testing.T, fixture, asked string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	if err := os.MkdirAll(filepath.Join(dir, "dumps", "a", "ping"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "dumps", "a", "ping", "1.txt"), readFixture(t, fixture), 0o644); err != nil {
		t.Fatal(err)
	}
	manifest := `{"schema":1,"id":"r1","status":"complete","start":"2026-12-01T00:00:00Z","targets":[{"name":"a"}],
"measurements":[{"target":"a","scenario":"ping","rep":1,"tool":"wrk","dump":"dumps/a/ping/1.txt",
"argv":["wrk","-t2","-c10","-d` + asked + `","--latency","http://127.0.0.1:18080/"]}]}`
	if err := os.WriteFile(filepath.Join(dir, "run.json"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
