package audit

import (
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
	"github.com/fairbench/fairbench/parse/verdict"
)

// load is a set's window of 1 s on cpus CPUs with foreign and steal seconds.
func load(list string, cpus, foreign, steal float64) *runjson.CPUSetLoad {
	return &runjson.CPUSetLoad{CPUs: list, CapacityS: cpus, BusyS: 0.5 + foreign, OursS: 0.5, ForeignS: foreign, StealS: steal}
}

func TestInterferenceFindings(t *testing.T) {
	m := func(target string, rep int, warmup bool, in *runjson.Interference) runjson.Measurement {
		return runjson.Measurement{Target: target, Scenario: "ping", Rep: rep, Warmup: warmup, Dump: "dumps/" + target + "/ping/1.txt", Interference: in}
	}
	pinned := func(serverForeign, clientForeign, steal float64) *runjson.Interference {
		return &runjson.Interference{WindowS: 1, Server: load("0", 1, serverForeign, steal), Client: load("1", 1, clientForeign, 0)}
	}
	whole := func(foreign float64) *runjson.Interference {
		return &runjson.Interference{WindowS: 1, Server: load("", 2, foreign, 0), Client: load("", 2, foreign, 0)}
	}
	for _, tc := range []struct {
		name string
		ms   []runjson.Measurement
		want []string // each finding's message holds all of one entry's parts, in Audit's order
	}{
		{"old run: nothing recorded", []runjson.Measurement{m("gin", 1, false, nil)}, nil},
		{"quiet", []runjson.Measurement{m("gin", 1, false, pinned(0.05, 0.1, 0.01))}, nil},
		{"warm-up only", []runjson.Measurement{m("gin", 1, true, pinned(0.9, 0, 0))}, nil},
		{"busy server CPU, two cells, one finding", []runjson.Measurement{
			m("gin", 1, false, pinned(0.8, 0, 0)), m("gin", 2, false, pinned(0.95, 0, 0)), m("echo", 1, false, pinned(0, 0.4, 0)),
		}, []string{"more than 10% of the CPUs|gin/ping (up to 95% of the server's CPU set 0; reps 1, 2); echo/ping (up to 40% of the client's CPU set 1; rep 1)"}},
		{"no pinning: the machine, once", []runjson.Measurement{m("gin", 1, false, whole(0.5))},
			[]string{"gin/ping (up to 25% of the machine's CPUs (no pinning); rep 1)"}},
		{"steal apart", []runjson.Measurement{m("gin", 1, false, pinned(0, 0, 0.2))},
			[]string{"steal time) in gin/ping (up to 20% of the server's CPU set 0; rep 1)"}},
	} {
		run := &parse.Run{Path: "runs/r", Manifest: runjson.Manifest{ID: "r", Measurements: tc.ms}}
		fs := interferenceFindings(&parse.Set{Runs: []*parse.Run{run}}, verdict.DefaultThresholds)
		if len(fs) != len(tc.want) {
			t.Errorf("%s: %d findings, want %d: %v", tc.name, len(fs), len(tc.want), fs)
			continue
		}
		for i, f := range fs {
			if f.Rule != RuleCPUInterference || f.Run != "r" || f.Target != "" || f.Dumps[0] != "runs/r/dumps/echo/ping/1.txt" && f.Dumps[0] != "runs/r/dumps/gin/ping/1.txt" {
				t.Errorf("%s: %+v", tc.name, f)
			}
			for _, part := range strings.Split(tc.want[i], "|") {
				if !strings.Contains(f.Message, part) {
					t.Errorf("%s: %q\nlacks %q", tc.name, f.Message, part)
				}
			}
		}
	}
}

// TestLoadAverageGivesWay: a busy start is reported as load-average only
// where the windows' interference was not measured (an old run, an SSH
// host not read); where it was, cpu-interference alone speaks for that cause.
func TestLoadAverageGivesWay(t *testing.T) {
	busy := runjson.Facts{Threads: 2, LoadAvg: []float64{4}}
	measured := []runjson.Measurement{{Target: "gin", Scenario: "ping", Rep: 1, Interference: &runjson.Interference{WindowS: 1, Server: load("0", 1, 0.01, 0)}}}
	for _, tc := range []struct {
		name string
		run  runjson.Manifest
		want int // load-average findings
	}{
		{"old run", runjson.Manifest{ID: "r", Facts: busy, Measurements: []runjson.Measurement{{Target: "gin", Scenario: "ping", Rep: 1}}}, 1},
		{"measured here", runjson.Manifest{ID: "r", Facts: busy, Measurements: measured}, 0},
		{"measured here, busy SSH host", runjson.Manifest{ID: "r", Facts: busy, Measurements: measured, Hosts: []runjson.Host{{Name: "lab", Facts: busy}}}, 1},
		{"measured on the SSH host too", runjson.Manifest{ID: "r", Facts: busy, Hosts: []runjson.Host{{Name: "lab", Facts: busy}}, Measurements: append([]runjson.Measurement{{
			Target: "gin", Scenario: "ping", Rep: 2, ServerHost: "lab", Interference: &runjson.Interference{WindowS: 1, Server: load("", 1, 0, 0)}}}, measured...)}, 0},
	} {
		n := 0
		for _, f := range pinningFindings(&parse.Set{Runs: []*parse.Run{{Manifest: tc.run}}}) {
			if f.Rule == RuleLoadAverage {
				n++
			}
		}
		if n != tc.want {
			t.Errorf("%s: %d load-average findings, want %d", tc.name, n, tc.want)
		}
	}
}
