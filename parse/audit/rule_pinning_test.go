package audit

import (
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse"

	"github.com/fairbench/fairbench/parse/runjson"
)

func TestPinningFindings(t *testing.T) {
	recorded := &runjson.Pinning{ServerCPUs: "0-7", ClientCPUs: "16-31", Forced: true, Findings: []runjson.PinFinding{
		{Rule: RulePinning, Level: "error", Message: "the server and the client share physical cores"},
		{Rule: RuleCPUBoost, Level: "warning", Message: "boost is on"},
	}}
	for _, tc := range []struct {
		name  string
		run   parse.Run
		want  []string // "level rule: message" prefixes, sorted as Audit sorts
		avoid string
	}{
		{"recorded, forced", parse.Run{Manifest: runjson.Manifest{ID: "r", Facts: runjson.Facts{Threads: 32, LoadAvg: []float64{0.5}, Pinning: recorded}}},
			[]string{"error pinning r: the server and the client share physical cores (collect ran with -force-pinning)", "warning cpu-boost r: boost is on"}, ""},
		{"old run: governor alone", parse.Run{Manifest: runjson.Manifest{ID: "r", Facts: runjson.Facts{Threads: 2, Governor: "powersave"}}},
			[]string{"warning cpu-governor r: CPU 0 ran the powersave governor, not performance"}, ""},
		{"performance, idle", parse.Run{Manifest: runjson.Manifest{ID: "r", Facts: runjson.Facts{Threads: 2, Governor: "performance", LoadAvg: []float64{0.99, 3, 3}}}}, nil, ""},
		{"busy at start", parse.Run{Manifest: runjson.Manifest{ID: "r", Facts: runjson.Facts{Threads: 2, LoadAvg: []float64{1.88, 2.85, 4.02}}}},
			[]string{"warning load-average r: the 1-minute load average was 1.88 when the run started, on 2 CPUs", "under 1.00"}, ""},
		{"big host, a little load", parse.Run{Manifest: runjson.Manifest{ID: "r", Facts: runjson.Facts{Threads: 32, LoadAvg: []float64{2.5}}}}, nil, ""},
		{"big host, busy", parse.Run{Manifest: runjson.Manifest{ID: "r", Facts: runjson.Facts{Threads: 32, LoadAvg: []float64{3.2}}}},
			[]string{"warning load-average r: the 1-minute load average was 3.20", "under 3.20"}, ""},
		{"SSH host", parse.Run{Manifest: runjson.Manifest{ID: "r", Hosts: []runjson.Host{{Name: "lab", Facts: runjson.Facts{Threads: 4, LoadAvg: []float64{6}}}}}},
			[]string{"warning load-average r: host lab: the 1-minute load average was 6.00"}, ""},
	} {
		fs := pinningFindings(&parse.Set{Runs: []*parse.Run{&tc.run}})
		SortFindings(fs)
		var got []string
		for _, f := range fs {
			got = append(got, f.String())
		}
		all := strings.Join(got, "\n")
		ok := len(tc.want) == 0 && len(fs) == 0
		if len(tc.want) > 0 {
			ok = strings.HasPrefix(all, tc.want[0])
			for _, w := range tc.want[1:] {
				ok = ok && strings.Contains(all, w)
			}
		}
		if !ok {
			t.Errorf("%s:\n got %s\nwant %q", tc.name, all, tc.want)
		}
	}
}
