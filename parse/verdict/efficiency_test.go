package verdict

import (
	"testing"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
)

// clientBoundSet is two targets whose load generator held both at one
// req/s (the client's CPU full, each server's at half), serving requests
// for serverCPU[t] seconds of server CPU over their 10 s windows, each
// repetition a little apart.
func clientBoundSet(serverCPU map[string]float64) *parse.Set {
	var groups [][]*parse.Measurement
	for _, name := range []string{"a", "b"} {
		ms := series("r", name, "ping", 1, 2, 1000, 1002, 998, 1001, 999, 1000)
		for i, m := range ms {
			m.ClientCPU = 9.95
			m.ServerCPU = serverCPU[name] * (1 + 0.004*float64(i%3-1))
		}
		groups = append(groups, ms)
	}
	s := setOf(groups...)
	s.Runs = []*parse.Run{{Manifest: runjson.Manifest{ID: "r", Facts: runjson.Facts{Threads: 2}}}}
	s.Runs[0].Isolation.ServerCPUs, s.Runs[0].Isolation.ClientCPUs = "0", "1"
	return s
}

// TestEfficiencyDecidesClientBoundPairs: where the load generator capped
// both targets at one req/s, req/s says nothing, but the CPU each server
// burned per request does: 10% more CPU per request is claimed, on
// MetricEfficiency, in its direction; the same CPU is not.
func TestEfficiencyDecidesClientBoundPairs(t *testing.T) {
	s := clientBoundSet(map[string]float64{"a": 5, "b": 5.5})
	d := Decide(s, Cells(s, DefaultThresholds), MetricRPS, DecideOptions{})
	v := d.All()[0]
	if v.Metric != MetricEfficiency || v.Reason != ReasonEfficiency || v.Faster() == nil || v.Faster().Name != "a" {
		t.Fatalf("a at 10%% less server CPU per request: %s", v.Explain())
	}
	if !(v.Ratio > 1.09 && v.Ratio < 1.11) {
		t.Errorf("efficiency ratio %.3f, want 1.10", v.Ratio)
	}
	s = clientBoundSet(map[string]float64{"a": 5, "b": 5})
	d = Decide(s, Cells(s, DefaultThresholds), MetricRPS, DecideOptions{})
	if v := d.All()[0]; v.Claimed() || v.Metric != MetricEfficiency {
		t.Errorf("the same server CPU per request: %s, want ~ on efficiency", v.Explain())
	}
}

// TestServerSaturatedIsNotClientBound: a cell whose server kept its CPU as
// busy as the load generator kept its own measured the server's capacity,
// so its req/s is tested as it is.
func TestServerSaturatedIsNotClientBound(t *testing.T) {
	s := clientBoundSet(map[string]float64{"a": 9.95, "b": 9.95})
	d := Decide(s, Cells(s, DefaultThresholds), MetricRPS, DecideOptions{})
	if v := d.All()[0]; v.Metric != MetricRPS || v.Reason == ReasonClientBound {
		t.Errorf("both servers at full CPU: %s (metric %s), want a req/s verdict", v.Explain(), v.Metric)
	}
}
