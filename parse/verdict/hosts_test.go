package verdict

import (
	"testing"

	"github.com/fairbench/fairbench/parse"
)

// onHosts sets the server and client host of ms.
func onHosts(server, client string, ms []*parse.Measurement) []*parse.Measurement {
	for _, m := range ms {
		m.ServerHost, m.ClientHost = server, client
	}
	return ms
}

// TestFamiliesByHostPair: one run's cells measured on two host pairs are
// two families, a pair across them reads "~" for other hosts, and a target
// whose repetitions ran on both pairs is judged against no other.
func TestFamiliesByHostPair(t *testing.T) {
	var ms []*parse.Measurement
	ms = append(ms, onHosts("srv1", "cli1", series("r", "x", "ping", 0, 0, 2000, 2010, 1990, 2005, 1995))...)
	ms = append(ms, onHosts("srv1", "cli1", series("r", "y", "ping", 0, 0, 1000, 1010, 990, 1005, 995))...)
	ms = append(ms, onHosts("srv2", "cli2", series("r", "z", "ping", 0, 0, 500, 505, 495, 502, 498))...)
	mixed := series("r", "w", "ping", 0, 0, 3000, 3010, 2990, 3005, 2995)
	onHosts("srv1", "cli1", mixed[:2])
	onHosts("srv2", "cli2", mixed[2:])
	ms = append(ms, mixed...)
	s := setOf(ms)
	d := Decide(s, Cells(s, DefaultThresholds), MetricRPS, DecideOptions{})
	fs := d.Families("r", "ping")
	var got []string
	for _, sv := range fs {
		names := ""
		for _, c := range sv.Cells {
			names += c.Name
		}
		got = append(got, sv.Hosts+":"+names)
	}
	want := []string{"srv1→cli1:xy", "srv1→cli1 + srv2→cli2:w", "srv2→cli2:z"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("families %q, want %q", got, want)
	}
	if d.Find("r", "ping") != nil {
		t.Error("Find answers one family for a scenario measured on three host pairs")
	}
	x, z := fs[0].Cells[0], fs[2].Cells[0]
	if v, _ := fs[0].Pair(x, fs[0].Cells[1]); v.Verdict != VerdictA {
		t.Errorf("x against y on one host pair: %s, want x faster", v.Explain())
	}
	if v, ok := d.Pair(x, z); !ok || v.Verdict != VerdictTie || v.Reason != ReasonOtherHosts || v.Run != "r" {
		t.Errorf("x against z on other hosts: %+v, want ~ %s", v, ReasonOtherHosts)
	}
	if len(fs[1].Pairs) != 0 {
		t.Errorf("w, on two host pairs, has %d verdicts, want none", len(fs[1].Pairs))
	}
}
