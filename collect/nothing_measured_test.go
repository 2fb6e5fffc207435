package collect_test

import (
	"strings"
	"testing"

	"github.com/fairbench/fairbench/collect"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

// TestNothingUsableMeasured: a load tool that exits 0 having printed no
// count (nothing, bytes no reader takes, an empty result) leaves a failed
// measurement, not a 0 req/s one, and the run ends failed with an error,
// its dump kept as printed. Under -short only the silent tool is collected;
// TestCountProblem decides every output as a pure function.
func TestNothingUsableMeasured(t *testing.T) {
	hi := collect.BuiltBinary(t, "hiserver")
	for _, c := range []struct{ name, script, want string }{
		{"silent", `:`, "bombardier printed no result: "},
		{"bare result", `echo '{"result":{}}'`, "bombardier printed no result: "},
		{"empty result", `echo '{"spec":{"numberOfConnections":4},"result":{}}'`, "bombardier printed no result: "},
		{"zero result", `echo '{"spec":{"numberOfConnections":4},"result":{"bytesRead":0,"bytesWritten":0,"timeTakenSeconds":1,"req1xx":0,"req2xx":0,"req3xx":0,"req4xx":0,"req5xx":0,"others":0,"rps":{"mean":0,"stddev":0,"max":0}}}'`, "bombardier reported 0 requests and no errors"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if testing.Short() && c.name != "silent" {
				t.Skip("-short: TestCountProblem decides this output without a collect")
			}
			fc := newFaultCase(t, hi, "", "0s", 1, "")
			dir, err := runFault(t, fc.suite, collect.Options{Out: fc.out, ToolPaths: fakeTool(t, c.script)})
			if err == nil {
				t.Fatal("a run that measured nothing succeeded")
			}
			m := checkRunDir(t, dir.Path)
			if m.Status != runjson.StatusFailed || len(m.Measurements) != 1 {
				t.Fatalf("status %q with %d measurements, want failed with 1", m.Status, len(m.Measurements))
			}
			if mr := m.Measurements[0]; mr.ExitStatus != 0 || !strings.Contains(mr.Error, c.want) || !strings.Contains(mr.Error, "not counted") {
				t.Errorf("exit status %d, error %q: want 0 and %q", mr.ExitStatus, mr.Error, c.want)
			}
			errorsSay(t, m, err, "1 measurements missing or failed")
		})
	}
}

// TestEveryTargetFailsTheGate: a run in which no target passed the gate
// measured nothing: it ends failed, and says so.
func TestEveryTargetFailsTheGate(t *testing.T) {
	hi := collect.BuiltBinary(t, "hiserver")
	fc := newFaultCase(t, hi, "", "0s", 1, "")
	s, err := suite.ParseSuite([]byte(strings.Replace(string(fc.suite.Source), `body = "Hi" }`, `body = "Bye" }`, 1)), fc.suite.File)
	if err != nil {
		t.Fatal(err)
	}
	dir, err := runFault(t, s, collect.Options{Out: fc.out})
	if err == nil {
		t.Fatal("a run whose every target failed the gate succeeded")
	}
	m := checkRunDir(t, dir.Path)
	if m.Status != runjson.StatusFailed || len(m.Measurements) != 0 {
		t.Errorf("status %q with %d measurements, want failed with none", m.Status, len(m.Measurements))
	}
	errorsSay(t, m, err, "nothing usable was measured")
}
