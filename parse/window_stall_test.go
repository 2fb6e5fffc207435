package parse

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// stallFixture is real bombardier 1.2.6 JSON of `-c 8 -d 3s -t 1s` against
// a loopback server that stalled every request from 2.5 s on: 8 requests
// timed out, and bombardier, waiting for those in flight (retried once),
// took 7.54 s over its 3 s window.
const stallFixture = "testdata/bombardier-1.2.6__json_timeouts_stall.json"

// TestStallWithTimeouts: that dump is read, alone and in a run dir whose
// argv asked for the 3 s, with its 8 timeouts and its 7.54 s, and carries
// a warning naming the dump's line that says the run stalled past its
// window and why; the audit passes it on as a finding.
func TestStallWithTimeouts(t *testing.T) {
	ms, _, errs := readString("stall.json", string(readFixture(t, stallFixture)))
	if len(errs) != 0 || len(ms) != 1 {
		t.Fatalf("%d runs, errors %v; want the real dump read", len(ms), errs)
	}
	m := ms[0]
	if m.Errors.Timeout != 8 || m.Duration.Seconds() < 7.5 {
		t.Errorf("timeouts %d, duration %s; want 8 and 7.54s", m.Errors.Timeout, m.Duration)
	}
	wantWarning(t, m, "stall.json:1: measured 7.537013408s, 2.5× its 3s window")

	dir := filepath.Join(t.TempDir(), "run")
	os.MkdirAll(filepath.Join(dir, "dumps", "a", "ping"), 0o755)
	os.WriteFile(filepath.Join(dir, "dumps", "a", "ping", "1.json"), readFixture(t, stallFixture), 0o644)
	manifest := `{"schema":1,"id":"r1","status":"complete","start":"2026-12-01T00:00:00Z","targets":[{"name":"a"}],
"measurements":[{"target":"a","scenario":"ping","rep":1,"tool":"bombardier","dump":"dumps/a/ping/1.json",
"argv":["bombardier","-c","8","-d","3s","-t","1s","-l","-p","r","-o","json","http://127.0.0.1:18433/"]}]}`
	os.WriteFile(filepath.Join(dir, "run.json"), []byte(manifest), 0o644)
	set, errs := ReadAll([]string{dir})
	if len(errs) != 0 || len(set.Measurements) != 1 {
		t.Fatalf("%d runs, errors %v; want the real dump read from its run dir", len(set.Measurements), errs)
	}
	if w := set.Measurements[0].Warnings; len(w) != 1 {
		t.Errorf("warnings %q, want the stall said once", w)
	}
}

// TestStallWithoutTimeouts: a bombardier dump over twice its window with
// no request timed out is still refused: nothing was in flight to wait for,
// so its time was edited.
func TestStallWithoutTimeouts(t *testing.T) {
	dump := strings.Replace(string(readFixture(t, stallFixture)), `"errors":[{"description":"timeout","count":8}]`, `"errors":[]`, 1)
	dump = strings.Replace(dump, `"others":8`, `"others":0`, 1)
	_, _, errs := readString("x.json", dump)
	if !hasSyntaxError(errs, "x.json", "stalled past its window") {
		t.Errorf("errors %v, want the dump refused", errs)
	}
}

func wantWarning(t *testing.T, m *Measurement, says string) {
	t.Helper()
	for _, w := range m.Warnings {
		if strings.Contains(w, says) {
			return
		}
	}
	t.Errorf("warnings %q, want one saying %q", m.Warnings, says)
}
