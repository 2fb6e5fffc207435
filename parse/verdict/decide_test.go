package verdict

import (
	"math"
	"testing"

	"github.com/fairbench/fairbench/parse/runjson"

	"github.com/fairbench/fairbench/parse"
)

// TestDecideAAFloor: run.json's A/A pair sets the scenario's floor, and a
// difference inside it reads "~" while the same difference in a run
// without a pair is claimed.
func TestDecideAAFloor(t *testing.T) {
	build := func(run string) []*parse.Measurement {
		var ms []*parse.Measurement
		// The twins differ by about 8%; x is 6% above y.
		ms = append(ms, series(run, "stdlib", "ping", 0, 0, 1080, 1090, 1070, 1085, 1075, 1082)...)
		ms = append(ms, series(run, "stdlib-aa", "ping", 0, 0, 1000, 1010, 990, 1005, 995, 1002)...)
		ms = append(ms, series(run, "x", "ping", 0, 0, 1060, 1061, 1059, 1060.5, 1059.5, 1060.2)...)
		ms = append(ms, series(run, "y", "ping", 0, 0, 1000, 1001, 999, 1000.5, 999.5, 1000.2)...)
		return ms
	}
	s := setOf(build("with"), build("without"))
	s.Runs = []*parse.Run{{Manifest: runjson.Manifest{ID: "with", AAPair: []string{"stdlib", "stdlib-aa"}}}, {Manifest: runjson.Manifest{ID: "without"}}}
	th := DefaultThresholds
	th.Resolve = 0 // no equivalence test: TestEquivalence has it
	d := Decide(s, Cells(s, th), MetricRPS, DecideOptions{Thresholds: th})
	with, without := d.Find("with", "ping"), d.Find("without", "ping")
	if f := with.Floor; !(f.Systematic > 0.07 && f.Systematic < 0.09) || f.Value != f.Systematic || f.Pair != [2]string{"stdlib", "stdlib-aa"} {
		t.Errorf("floor with a pair: %+v, want the twins' 8%% difference", f)
	}
	if f := without.Floor; f.Value != DefaultThresholds.Noise || !math.IsNaN(f.Systematic) {
		t.Errorf("floor without a pair: %+v, want the threshold", f)
	}
	if f, ok := d.RunFloor("with"); !ok || f.Value != with.Floor.Value {
		t.Errorf("RunFloor(with) = %+v, %v: want the twins' floor %v", f, ok, with.Floor.Value)
	}
	if f, ok := d.RunFloor("without"); !ok || f.Value != DefaultThresholds.Noise {
		t.Errorf("RunFloor(without) = %+v, %v: want the threshold", f, ok)
	}
	if _, ok := d.RunFloor("none"); ok {
		t.Error("RunFloor of a run not measured: ok")
	}
	pair := func(sv *ScenarioVerdicts, a, b string) Verdict {
		var ca, cb *Cell
		for _, c := range sv.Cells {
			switch c.Name {
			case a:
				ca = c
			case b:
				cb = c
			}
		}
		v, _ := sv.Pair(ca, cb)
		return v
	}
	if v := pair(with, "x", "y"); v.Verdict != VerdictTie || v.Reason != ReasonWithinFloor {
		t.Errorf("x vs y under the A/A floor: %s %s, want ~ within-floor (%s)", v.Verdict, v.Reason, v.Explain())
	}
	if v := pair(without, "x", "y"); v.Verdict != VerdictA {
		t.Errorf("x vs y without a pair: %s %s, want a (%s)", v.Verdict, v.Reason, v.Explain())
	}
	// The twins are judged against the threshold alone: 8% apart with
	// little noise, they are claimed apart, so a host that splits one
	// program in two shows it.
	if v := pair(with, "stdlib", "stdlib-aa"); v.Verdict != VerdictA || v.Floor != DefaultThresholds.Noise {
		t.Errorf("the A/A twins 8%% apart: %s (floor %v), want stdlib claimed faster against the threshold", v.Explain(), v.Floor)
	}
	// Cells of different runs have no verdict of their own.
	if v, ok := d.Pair(with.Cells[0], without.Cells[1]); !ok || v.Reason != ReasonOtherRun || v.Claimed() {
		t.Errorf("across runs: %+v, want ~ other-run", v)
	}
}

// TestDecideEveryAAPair: a run with a pair of twins per runtime
// (aa_pairs) takes its floor from both pairs, and judges each pair
// against the threshold alone: the second pair's 8% counts in the floor
// as the first pair's does, and those twins are claimed apart, and
// counted as twins in what the run resolves.
func TestDecideEveryAAPair(t *testing.T) {
	var ms []*parse.Measurement
	// The node twins agree; the go twins differ by about 8%.
	ms = append(ms, series("r", "node", "ping", 0, 0, 1000, 1010, 990, 1005, 995, 1002)...)
	ms = append(ms, series("r", "node-aa", "ping", 0, 0, 1001, 1009, 991, 1004, 996, 1001)...)
	ms = append(ms, series("r", "go", "ping", 0, 0, 1080, 1090, 1070, 1085, 1075, 1082)...)
	ms = append(ms, series("r", "go-aa", "ping", 0, 0, 1000, 1010, 990, 1005, 995, 1002)...)
	s := setOf(ms)
	s.Runs = []*parse.Run{{Manifest: runjson.Manifest{ID: "r", AAPair: []string{"node", "node-aa"},
		AAPairs: [][]string{{"node", "node-aa"}, {"go", "go-aa"}}}}}
	th := DefaultThresholds
	th.Resolve = 0
	d := Decide(s, Cells(s, th), MetricRPS, DecideOptions{Thresholds: th})
	sv := d.Find("r", "ping")
	if f := sv.Floor; f.Pair != [2]string{"node", "node-aa"} || len(f.Pairs) != 2 || !(f.Systematic > 0.04) {
		t.Errorf("floor %+v: want the node pair shown, both pairs, and the go twins' 8%% in the systematic difference", f)
	}
	var goA, goB *Cell
	for _, c := range sv.Cells {
		switch c.Name {
		case "go":
			goA = c
		case "go-aa":
			goB = c
		}
	}
	if v, _ := sv.Pair(goA, goB); v.Verdict != VerdictA || v.Floor != DefaultThresholds.Noise {
		t.Errorf("the go twins 8%% apart: %s (floor %v), want go claimed faster against the threshold", v.Explain(), v.Floor)
	}
	var r Resolving
	r.countTwins(sv)
	if r.Twins != 2 || r.TwinsClaimed != 1 {
		t.Errorf("twins %d, claimed %d: want both pairs counted, the go pair claimed", r.Twins, r.TwinsClaimed)
	}
}

// TestClientBoundFromCPU: a cell whose load generator used nearly all of
// its CPU is a lower bound: faster than the other, the claim stands as "at
// least"; slower, its verdict is "~" with reason client-bound.
func TestClientBoundFromCPU(t *testing.T) {
	for _, tc := range []struct {
		saturated, reason string
		claimed           bool
	}{{"fast", ReasonAtLeast, true}, {"slow", ReasonClientBound, false}} {
		fast := series("r", "fast", "ping", 1, 2, 2000, 2010, 1990, 2005)
		slow := series("r", "slow", "ping", 2, 2, 1000, 1010, 990, 1005)
		for _, m := range append(fast, slow...) {
			if m.Target == tc.saturated {
				m.ClientCPU = 9.9 // of 10 s on one client CPU
			}
		}
		s := setOf(fast, slow)
		s.Runs = []*parse.Run{{Manifest: runjson.Manifest{ID: "r", Facts: runjson.Facts{Threads: 2}}}}
		s.Runs[0].Isolation.ServerCPUs, s.Runs[0].Isolation.ClientCPUs = "0", "1"
		d := Decide(s, Cells(s, DefaultThresholds), MetricRPS, DecideOptions{})
		if v := d.All()[0]; v.Reason != tc.reason || v.Claimed() != tc.claimed || (v.Claimed() && v.Faster().Name != "fast") {
			t.Errorf("fast vs slow with %s's client saturated: %s %s, want %s", tc.saturated, v.Verdict, v.Reason, tc.reason)
		}
	}
}

func TestIntervalAndMedianRep(t *testing.T) {
	th := DefaultThresholds
	four := NewStat([]float64{100, 130, 110, 120}, th)
	if iv := four.Interval(); iv.Kind != IntervalMinMax || iv.Lo != 100 || iv.Hi != 130 || iv.Label() != "min–max of 4 repetitions" {
		t.Errorf("n=4 interval %+v %q, want min–max 100–130", iv, iv.Label())
	}
	ten := NewStat([]float64{100, 101, 102, 103, 104, 105, 106, 107, 108, 109}, th)
	if iv := ten.Interval(); iv.Kind != IntervalCI || !(iv.Level >= 0.95) || math.IsInf(iv.Lo, 0) {
		t.Errorf("n=10 interval %+v, want a finite CI at ≥95%%", iv)
	}
	s := setOf(series("r", "a", "ping", 1, 1, 300, 100, 400, 200))
	c := Cells(s, th)[0]
	// Sorted by req/s: 100 (rep 2), 200 (rep 4), 300 (rep 1), 400 (rep 3):
	// the lower median is rep 4, whose own percentiles a page shows.
	if m := c.MedianRep(MetricRPS); m == nil || m.Rep != 4 {
		t.Errorf("median repetition %+v, want rep 4", m)
	}
}

// TestVerdictOverTurnsRound: a verdict read against either of its cells is
// the same decision: the faster cell stays the faster one, the ratio and
// interval become their reciprocals only when the base was A.
func TestVerdictOverTurnsRound(t *testing.T) {
	a, b := &Cell{Name: "a"}, &Cell{Name: "b"}
	v := Verdict{A: "a", B: "b", CellA: a, CellB: b, Ratio: 2, Lo: 1.5, Hi: 4, Verdict: VerdictA}
	if got := v.Over(b); got.Ratio != 2 || got.CellA != a || got.Faster() != a {
		t.Errorf("a ÷ b read over b changed: %+v", got)
	}
	got := v.Over(a)
	if got.Ratio != 0.5 || got.Lo != 0.25 || math.Abs(got.Hi-1/1.5) > 1e-12 || got.A != "b" || got.CellB != a {
		t.Errorf("a ÷ b read over a: ratio %v [%v, %v], A %q; want 0.5 [0.25, 0.667], A b", got.Ratio, got.Lo, got.Hi, got.A)
	}
	if got.Faster() != a {
		t.Errorf("turned round, the faster cell became %v", got.Faster())
	}
}
