package collect_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/collect"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

// TestOneTargetFailsTheGate: of two real servers, one answers "Bye" where
// the suite expects "Hi": it fails the gate in that scenario only. The run
// goes on (the other target measured everywhere, the failing one in the
// scenario it passed), ends complete with every dump kept, and Run's error
// wraps ErrGateFailed naming the target and scenario.
func TestOneTargetFailsTheGate(t *testing.T) {
	hi := collect.BuiltBinary(t, "hiserver")
	fc := newFaultCase(t, hi, "", "0s", 1, "")
	src := string(fc.suite.Source) + `
[[target]]
name = "two"
start = ["` + hi + `"]
env = { BODY = "Bye" }
ready_timeout = "10s"

[[scenario]]
name = "ip"
request = { method = "GET", path = "/ip" }
expect = { status = 200 }
`
	s, err := suite.ParseSuite([]byte(src), fc.suite.File)
	if err != nil {
		t.Fatal(err)
	}
	dir, err := runFault(t, s, collect.Options{Out: fc.out})
	if !errors.Is(err, collect.ErrGateFailed) || errors.Is(err, collect.ErrUsage) {
		t.Fatalf("err = %v, want ErrGateFailed", err)
	}
	if want := "two (ping)"; !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want it to name %q", err, want)
	}
	m := checkRunDir(t, dir.Path)
	if m.Status != runjson.StatusComplete {
		t.Errorf("status %q, want complete: nothing is left to take", m.Status)
	}
	got := map[string]bool{}
	for _, mr := range m.Measurements {
		if mr.Error != "" || mr.SHA256 == "" {
			t.Errorf("%s/%s rep %d: error %q sha256 %q", mr.Target, mr.Scenario, mr.Rep, mr.Error, mr.SHA256)
		}
		got[mr.Target+"/"+mr.Scenario] = true
	}
	for key, want := range map[string]bool{"one/ping": true, "one/ip": true, "two/ip": true, "two/ping": false} {
		if got[key] != want {
			t.Errorf("%s measured: %v, want %v", key, got[key], want)
		}
	}
	errorsSay(t, m, err, "gate failed for 1 of 2 targets")
}
