package collect_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect"
	"github.com/fairbench/fairbench/collect/suite"
)

const resetSuite = `
name = "reset"

[load]
tool = "bombardier"
connections = 2
duration = "1s"
warmup = "1s"
repetitions = 1
# capped: the test times resets, not the server; uncapped, every window
# takes both cores from the tests running beside it
rate = 1000

[[service]]
name = "store"
version = ["sh", "-c", "echo store 1.0"]
start = ["HI"]
reset = ["sh", "-c", "date +%s.%N >> LOG"]

[[target]]
name = "app"
start = ["HI"]
env = { BODY = "hi" }

[[scenario]]
name = "write"
reset = ["store"]
request = { path = "/" }
expect = { status = 200, body = "hi" }

[[scenario]]
name = "read"
request = { path = "/" }
expect = { status = 200, body = "hi" }
`

// TestResetRunsBeforeEveryWindow collects a scenario with a reset: the
// service's reset argv runs once before the gate's checks of it and once
// before each of its warm-ups and measurements, each time before the
// window opens (its clock is read inside the reset), and its time is
// recorded; the scenario without a reset key runs none.
func TestResetRunsBeforeEveryWindow(t *testing.T) {
	t.Parallel()
	hi := buildHi(t)
	log := filepath.Join(t.TempDir(), "resets")
	src := strings.NewReplacer("HI", hi, "LOG", log).Replace(resetSuite)
	st, err := suite.ParseSuite([]byte(src), "reset.toml")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir, err := collect.Run(ctx, st, collect.Options{Out: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var resets []time.Time
	for _, line := range strings.Fields(string(b)) {
		s, err := strconv.ParseFloat(line, 64)
		if err != nil {
			t.Fatalf("reset log line %q: %v", line, err)
		}
		resets = append(resets, time.Unix(0, int64(s*1e9)))
	}
	m := dir.Manifest()
	var writes int
	for _, mr := range m.Measurements {
		if mr.Scenario == "read" {
			if mr.ResetS != 0 {
				t.Errorf("read (no reset key) warm-up %v: reset_s %v, want 0", mr.Warmup, mr.ResetS)
			}
			continue
		}
		writes++
		if mr.ResetS <= 0 {
			t.Errorf("write warm-up %v: reset_s %v, want the reset's time", mr.Warmup, mr.ResetS)
		}
		// The reset for this window ran in the reset_s before its start.
		found := false
		for _, r := range resets {
			if !r.After(mr.Start) && mr.Start.Sub(r) <= time.Duration(mr.ResetS*1e9)+time.Second {
				found = true
			}
		}
		if !found {
			t.Errorf("write warm-up %v starting %v: no reset just before it in %v", mr.Warmup, mr.Start, resets)
		}
	}
	if writes != 2 {
		t.Fatalf("%d measurements of write, want a warm-up and a measurement", writes)
	}
	if len(resets) != 1+writes {
		t.Errorf("%d resets, want one for the gate and one per window of write (%d)", len(resets), 1+writes)
	}
}

// TestResetSuiteErrors refuses reset keys that cannot run and a {random}
// in a measured request, each at its file, line and key.
func TestResetSuiteErrors(t *testing.T) {
	src := `name = "bad"

[[service]]
name = "db"
version = ["true"]
start = ["true"]

[[service]]
name = "cache"
version = ["true"]
start = ["true"]
reset = []

[[target]]
name = "app"
start = ["app"]

[[scenario]]
name = "insert"
reset = ["db", "nosuch"]
request = { method = "POST", path = "/db", body = '{"n":{random}}' }
expect = { status = 201 }

[[scenario]]
name = "list"
reset = []
request = { path = "/db" }
expect = { status = 200 }

  [[scenario.variant]]
  request = { path = "/db/{random}" }
  expect = { status = 200, body = "{random}" }
`
	_, err := suite.ParseSuite([]byte(src), "bad.toml")
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		`bad.toml:12: reset: empty: give the argv`,
		`bad.toml:20: reset: service "db" has no reset argv`,
		`bad.toml:20: reset: "nosuch" is not a [[service]] of this suite (services: db, cache)`,
		`bad.toml:21: request: {random}: the load generator sends the measured request as written`,
		`bad.toml:26: reset: empty: name the services to reset`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), "variant.1") {
		t.Errorf("{random} in a variant is refused:\n%v", err)
	}
}

// TestGateRandom sends a fresh {random} in each gate run and expects it
// back: a server that echoes passes, an expectation that is not the echo
// fails, and two runs draw different numbers (10,000 to choose from, so
// 20 runs all alike would be a broken draw).
func TestGateRandom(t *testing.T) {
	hi := buildHi(t)
	src := strings.NewReplacer("HI", hi).Replace(`
name = "random"

[[target]]
name = "app"
start = ["HI"]

[[scenario]]
name = "echo"
request = { method = "POST", path = "/echo", body = "x" }
expect = { status = 200, body = "x" }

  [[scenario.variant]]
  request = { method = "POST", path = "/echo", body = "n={random}" }
  expect = { status = 200, body = "n={random}" }

  [[scenario.variant]]
  request = { method = "POST", path = "/echo", body = "{random}" }
  expect = { status = 200, body = "{random}1" }
`)
	st, err := suite.ParseSuite([]byte(src), "random.toml")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	seen := map[string]bool{}
	for range 20 {
		res, err := collect.Verify(ctx, st, collect.Options{})
		if err != nil {
			t.Fatal(err)
		}
		tr := res[0].Transcript
		v1 := strings.Split(tr, "=== echo variant 1\n")[1]
		if !strings.Contains(v1, "PASS") || strings.Contains(v1[:strings.Index(v1, "===")], "FAIL") {
			t.Fatalf("the echo of {random} failed:\n%s", tr)
		}
		if len(res[0].Failed) != 1 || !strings.Contains(tr, "FAIL") {
			t.Fatalf("failed %v, want echo (variant 2 expects a different body):\n%s", res[0].Failed, tr)
		}
		i := strings.Index(v1, `"n=`)
		seen[v1[i:i+8]] = true
		if len(seen) > 1 {
			return
		}
	}
	t.Errorf("20 gate runs drew one {random}: %v", seen)
}

// TestResetFailureFailsTheGate: a reset that fails leaves the scenario
// failed in the gate, its output in the transcript, and the other
// scenarios gated as usual.
func TestResetFailureFailsTheGate(t *testing.T) {
	hi := buildHi(t)
	src := strings.NewReplacer("HI", hi, `"date +%s.%N >> LOG"`, `"echo table is locked >&2; exit 3"`).Replace(resetSuite)
	st, err := suite.ParseSuite([]byte(src), "reset.toml")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := collect.Verify(ctx, st, collect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := res[0]
	if r.Err != nil || len(r.Failed) != 1 || r.Failed[0] != "write" {
		t.Fatalf("failed %v (%v), want write alone:\n%s", r.Failed, r.Err, r.Transcript)
	}
	for _, want := range []string{"=== write reset store\nFAIL\n", "table is locked", "=== read\n"} {
		if !strings.Contains(r.Transcript, want) {
			t.Errorf("transcript lacks %q:\n%s", want, r.Transcript)
		}
	}
}
