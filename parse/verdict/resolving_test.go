package verdict

import (
	"math"
	"reflect"
	"testing"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
)

// TestResolvingPower: a calibration run of a base, its twin and copies
// costing 1%, 10% and 50% more CPU per request, each server-bound (req/s
// falls as the cost rises), eight rounds sharing a host effect. The 10%
// and 50% copies are resolved the right way round, the 1% one is not, the
// twins are not claimed, and the measured costs are what was planted.
func TestResolvingPower(t *testing.T) {
	r := newRand(31)
	costs := map[string]float64{"base": 0, "base-aa": 0, "plus1": 0.01, "plus10": 0.10, "plus50": 0.50}
	set := &parse.Set{Runs: []*parse.Run{{Manifest: runjson.Manifest{ID: "cal",
		AAPair:  []string{"base", "base-aa"},
		Planted: map[string]string{"plus1": "base", "plus10": "base", "plus50": "base"}}}}}
	order := 0
	for round := 1; round <= 8; round++ {
		host := 0.05 * r.NormFloat64()
		for _, name := range []string{"base", "base-aa", "plus1", "plus10", "plus50"} {
			order++
			// a server-bound target serves 1/(its CPU per request)
			rps := 50000 / (1 + costs[name]) * math.Exp(host+0.005*r.NormFloat64())
			m := meas("cal", name, "ping", round, rps)
			m.Order = order
			m.ServerCPU = 10 * math.Exp(0.002*r.NormFloat64()) // busy throughout the 10 s window
			set.Measurements = append(set.Measurements, m)
		}
	}
	cells := Cells(set, DefaultThresholds)
	d := Decide(set, cells, MetricRPS, DecideOptions{})
	res := ResolvingPower(set, d)
	if len(res) != 1 {
		t.Fatalf("%d calibration runs, want 1", len(res))
	}
	got := res[0]
	if got.Reps != 8 || got.Twins != 1 || got.TwinsClaimed != 0 || len(got.Planted) != 3 {
		t.Fatalf("got %+v: want 8 reps, one twin pair unclaimed, three planted pairs", got)
	}
	for _, p := range got.Planted {
		if want := costs[p.Target]; math.Abs(p.Cost-want) > 0.01 {
			t.Errorf("%s: measured cost %.3f, planted %.2f", p.Target, p.Cost, want)
		}
		if p.Wrong {
			t.Errorf("%s claimed faster than its base: %s", p.Target, p.Verdict.Explain())
		}
		if want := p.Target != "plus1"; p.Resolved != want {
			t.Errorf("%s resolved %v, want %v: %s", p.Target, p.Resolved, want, p.Verdict.Explain())
		}
	}
	if math.Abs(got.Smallest-0.10) > 0.01 || math.Abs(got.Missed-0.01) > 0.01 {
		t.Errorf("smallest resolved %.3f, largest missed %.3f; want about 0.10 and 0.01", got.Smallest, got.Missed)
	}
	if !got.Monotone() || len(got.Unmeasured) != 0 {
		t.Errorf("monotone %v, unmeasured %v: want monotone, every copy measured", got.Monotone(), got.Unmeasured)
	}
}

// TestResolvingUnmeasured: a planted copy measured in one of the run's two
// scenarios is unmeasured in the other; one measured in neither is
// unmeasured everywhere (no scenarios named); the run is reported even
// when nothing planted was measured.
func TestResolvingUnmeasured(t *testing.T) {
	set := &parse.Set{Runs: []*parse.Run{{Manifest: runjson.Manifest{ID: "cal",
		Planted: map[string]string{"plus5": "base", "plus9": "base"}}}}}
	order := 0
	for round := 1; round <= 4; round++ {
		for _, c := range [][2]string{{"base", "ping"}, {"base", "post"}, {"plus5", "ping"}} {
			order++
			m := meas("cal", c[0], c[1], round, 50000)
			m.Order = order
			set.Measurements = append(set.Measurements, m)
		}
	}
	d := Decide(set, Cells(set, DefaultThresholds), MetricRPS, DecideOptions{})
	res := ResolvingPower(set, d)
	if len(res) != 1 {
		t.Fatalf("%d calibration runs, want 1", len(res))
	}
	want := []Unmeasured{{Target: "plus5", Base: "base", Scenarios: []string{"post"}}, {Target: "plus9", Base: "base"}}
	if got := res[0].Unmeasured; !reflect.DeepEqual(got, want) {
		t.Errorf("unmeasured %+v, want %+v", got, want)
	}
	set.Measurements = set.Measurements[:0]
	for round := 1; round <= 4; round++ {
		set.Measurements = append(set.Measurements, meas("cal", "base", "ping", round, 50000))
	}
	set.Runs[0].Planted = map[string]string{"plus9": "base"}
	d = Decide(set, Cells(set, DefaultThresholds), MetricRPS, DecideOptions{})
	if res = ResolvingPower(set, d); len(res) != 1 || len(res[0].Unmeasured) != 1 || len(res[0].Planted) != 0 {
		t.Errorf("nothing planted measured: got %+v, want the run with plus9 unmeasured", res)
	}
}
