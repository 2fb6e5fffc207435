package audit

import (
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
	"github.com/fairbench/fairbench/parse/verdict"
)

// TestHostSpeedFindings: a turn around which the probe ran a quarter
// slower than its fastest on either set is named once (its two scenarios
// are one turn); a dropped turn is a note, not a tool failure; a run
// without probes, and one within the threshold, have none.
func TestHostSpeedFindings(t *testing.T) {
	m := func(target, scenario string, rep int, server, client float64) runjson.Measurement {
		return runjson.Measurement{Target: target, Scenario: scenario, Rep: rep, Dump: "dumps/" + target + "/" + scenario + "/1.txt", ExitStatus: 0,
			ServerCPUList: "0", ClientCPUList: "1",
			HostSpeed: &runjson.HostSpeed{Before: runjson.Probe{ServerS: 0.25, ClientS: 0.3}, After: runjson.Probe{ServerS: server, ClientS: client}}}
	}
	dropped := m("gin", "ping", 2, 0.5, 0.3)
	dropped.HostSpeed.Dropped, dropped.Error = true, "not counted: the host ran 2.00× slower"
	for _, tc := range []struct {
		name string
		ms   []runjson.Measurement
		want []string
	}{
		{"not probed", []runjson.Measurement{{Target: "gin", Scenario: "ping", Rep: 1}}, nil},
		{"at speed", []runjson.Measurement{m("gin", "ping", 1, 0.26, 0.31), m("gin", "ping", 2, 0.3, 0.36)}, nil},
		{"server slow, one turn of two scenarios", []runjson.Measurement{
			m("gin", "ping", 1, 0.25, 0.3), m("gin", "ping", 2, 0.4, 0.3), m("gin", "json", 2, 0.4, 0.3),
		}, []string{"around gin rep 2 (1.60×): the host speed probe|1.40 times as long"}},
		{"client slow", []runjson.Measurement{m("gin", "ping", 1, 0.25, 0.3), m("echo", "ping", 1, 0.25, 0.45)},
			[]string{"around echo rep 1 (1.50×)"}},
		{"dropped: a note", []runjson.Measurement{m("gin", "ping", 1, 0.25, 0.3), dropped},
			[]string{"took again gin rep 2 (2.00×)"}},
	} {
		run := &parse.Run{Path: "runs/r", Manifest: runjson.Manifest{ID: "r", Measurements: tc.ms}}
		set := &parse.Set{Runs: []*parse.Run{run}}
		fs := hostSpeedFindings(set, verdict.DefaultThresholds)
		if len(fs) != len(tc.want) {
			t.Errorf("%s: %d findings, want %d: %v", tc.name, len(fs), len(tc.want), fs)
			continue
		}
		for i, f := range fs {
			for _, part := range strings.Split(tc.want[i], "|") {
				if !strings.Contains(f.Message, part) {
					t.Errorf("%s: %q\nlacks %q", tc.name, f.Message, part)
				}
			}
		}
		for _, f := range toolFailedFindings(set) {
			if f.Rule == RuleToolFailed {
				t.Errorf("%s: a dropped turn reported as a tool failure: %s", tc.name, f.Message)
			}
		}
	}
}
