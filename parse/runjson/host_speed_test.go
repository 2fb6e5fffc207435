package runjson

import (
	"math"
	"testing"
)

// TestTypical: the median of each set's probe times, a turn of many
// scenarios counted once, and the fastest on a set with too few times.
func TestTypical(t *testing.T) {
	turn := func(server, client float64) HostSpeed {
		return HostSpeed{Before: Probe{server, client}, After: Probe{server, client}}
	}
	var ms []Measurement
	add := func(h HostSpeed, target string, rep int, scenarios ...string) {
		for _, s := range scenarios {
			h := h
			ms = append(ms, Measurement{Target: target, Rep: rep, Scenario: s, HostSpeed: &h, ServerCPUList: "0", ClientCPUList: "1"})
		}
	}
	add(turn(0.05, 0.04), "a", 1, "json", "plaintext", "db", "db-list", "query")
	add(turn(0.09, 0.04), "b", 1, "json")
	add(turn(0.10, 0.04), "a", 2, "json")
	add(turn(0.08, 0.04), "b", 2, "json")
	srv, cli := SpeedSet(true, "", "0"), SpeedSet(false, "", "1")
	got := Typical(ms, 8)
	if math.Abs(got[srv]-0.085) > 1e-12 || got[cli] != 0.04 {
		t.Errorf("Typical(8) = %v, want the median 0.085 on the server's set (the first turn's five scenarios once) and 0.04 on the client's", got)
	}
	if got := Typical(ms, 10); got[srv] != 0.05 {
		t.Errorf("Typical(10) = %v: 8 times on the server's set, want its fastest 0.05", got)
	}
	if got := Typical(nil, 2); len(got) != 0 {
		t.Errorf("Typical(nil) = %v, want none", got)
	}
}
