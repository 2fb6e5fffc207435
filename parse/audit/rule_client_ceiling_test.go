package audit

import (
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
)

// withCeiling adds to the clean run a ceiling measurement on ping against
// b (vegeta with 32 workers sending 5,000 req/s for 10 s on its one CPU,
// using cpuS CPU seconds), its run.json record with a limit of 4,500
// req/s, and a's 90% point as not offered.
func withCeiling(cpuS float64) *parse.Set {
	s := withRun(cleanSet(), nil)
	m := meas("r", "b", "ping", 1, 5000)
	m.Tool, m.Threads, m.Phase, m.Connections, m.ClientCPU = parse.ToolVegeta, 0, parse.PhaseCeiling, 32, cpuS
	m.Open.SendRate = 5000
	s.Measurements = append(s.Measurements, m)
	r := s.Runs[0]
	r.Measurements = append(r.Measurements, runjson.Measurement{Target: "b", Scenario: "ping", Rep: 1, Phase: parse.PhaseCeiling, Connections: 32, Tool: "vegeta", Limit: 4500})
	r.NotOffered = []runjson.NotOffered{{Target: "a", Scenario: "ping", Rate: 900, RateFraction: 0.9, Capacity: 1000, Ceiling: 5000, Limit: 4500}}
	return s
}

// TestClientCeiling checks that the calibration of the client's ceiling is
// reported with the load tool's share of its CPUs: a warning naming the
// points left out when that share says the client set the ceiling, a note
// that the target held it back when it does not, and no throughput rule
// counts the calibration.
func TestClientCeiling(t *testing.T) {
	for _, tt := range []struct {
		cpuS  float64
		level Level
		say   []string
	}{
		{9.5, LevelWarning, []string{"kept 95% of its CPUs busy", "no latency point is offered above 4,500 req/s", "a at 90% (900 req/s) were not offered"}},
		// its start and exit around the 10 s window: all of its CPU, not 101%
		{10.1, LevelWarning, []string{"kept 100% of its CPUs busy"}},
		{4, LevelInfo, []string{"used 40% of its CPUs", "b (or other load on the machine) held it back, and the client can send at least that", "a at 90% (900 req/s) were not offered"}},
		{0, LevelInfo, []string{"its CPU time was not recorded"}},
	} {
		s := withCeiling(tt.cpuS)
		fs := Audit(s, AuditOptions{Pairs: [][2]string{{"a", "b"}}})
		var got []Finding
		for _, f := range fs {
			if f.Rule == RuleClientCeiling {
				got = append(got, f)
			}
			if f.Rule == RuleClientSaturated {
				t.Errorf("%v CPU s: the calibration counted as a saturated client: %s", tt.cpuS, f)
			}
		}
		if len(got) != 1 {
			t.Fatalf("%v CPU s: %d client-ceiling findings, want 1: %v", tt.cpuS, len(got), fs)
		}
		f := got[0]
		if f.Level != tt.level || f.Scenario != "ping" || len(f.Dumps) != 1 || !strings.Contains(f.Message, "the client's ceiling on ping: vegeta with 32 workers, as fast as they went against b, sent 5,000 req/s") {
			t.Errorf("%v CPU s: %s", tt.cpuS, f)
		}
		for _, want := range tt.say {
			if !strings.Contains(f.Message, want) {
				t.Errorf("%v CPU s: the finding does not say %q: %s", tt.cpuS, want, f.Message)
			}
		}
	}
}
