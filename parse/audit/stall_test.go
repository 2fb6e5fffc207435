package audit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse"
)

// TestStallFinding: a real bombardier dump that ran 7.54 s for its 3 s
// window, waiting on requests that timed out, is read and counted, and the
// audit says the stall as a finding naming the dump, beside its timeouts.
func TestStallFinding(t *testing.T) {
	dump, err := os.ReadFile("../testdata/bombardier-1.2.6__json_timeouts_stall.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "run")
	os.MkdirAll(filepath.Join(dir, "dumps", "a", "ping"), 0o755)
	os.WriteFile(filepath.Join(dir, "dumps", "a", "ping", "1.json"), dump, 0o644)
	manifest := `{"schema":1,"id":"r1","status":"complete","start":"2026-12-01T00:00:00Z","targets":[{"name":"a","conformance":"pass"}],
"measurements":[{"target":"a","scenario":"ping","rep":1,"tool":"bombardier","dump":"dumps/a/ping/1.json",
"argv":["bombardier","-c","8","-d","3s","-t","1s","-l","-p","r","-o","json","http://127.0.0.1:18433/"]}]}`
	os.WriteFile(filepath.Join(dir, "run.json"), []byte(manifest), 0o644)
	set, errs := parse.ReadAll([]string{dir})
	if len(errs) != 0 || len(set.Measurements) != 1 {
		t.Fatalf("%d measurements, errors %v", len(set.Measurements), errs)
	}
	var stall, timeouts bool
	for _, f := range Audit(set, AuditOptions{NoIntegrity: true}) {
		stall = stall || f.Rule == RuleReadWarning && strings.Contains(f.Message, "stalled past its window") && len(f.Dumps) == 1
		timeouts = timeouts || f.Rule == RuleTimeouts
	}
	if !stall || !timeouts {
		t.Errorf("stall finding %v, timeouts finding %v; want both", stall, timeouts)
	}
}
