package verdict

import (
	"math"
	"testing"
)

// TestWelchLog checks the test against a hand computation: logs of a are
// {0, 0.1, 0.2} + c, of b {0, 0.1, 0.2}: equal variances 0.01, se = 0.0816,
// df = 4, and t = c/se.
func TestWelchLog(t *testing.T) {
	b := []float64{1, math.Exp(0.1), math.Exp(0.2)}
	a := []float64{math.Exp(0.25), math.Exp(0.35), math.Exp(0.45)}
	w := WelchLog(a, b)
	se := math.Sqrt(0.01/3 + 0.01/3)
	if math.Abs(w.Diff-0.25) > 1e-12 || math.Abs(w.SE-se) > 1e-12 || math.Abs(w.DF-4) > 1e-9 {
		t.Fatalf("welch = %+v, want diff 0.25, se %.4f, df 4", w, se)
	}
	// t = 3.062 with 4 df: two-sided p = 0.0375 (t tables: 2.776 at 0.05, 3.747 at 0.02).
	if !(w.p > 0.02 && w.p < 0.05) {
		t.Errorf("p = %v, want between 0.02 and 0.05", w.p)
	}
	// The interval at 1 − p has 1 on its edge: the test and the interval agree.
	lo, _ := w.Interval(1 - w.p)
	if math.Abs(lo-1) > 1e-6 {
		t.Errorf("interval at 1−p starts at %v, want 1", lo)
	}
	if w := WelchLog([]float64{5, 5, 5}, []float64{5, 5, 5}); w.p != 1 {
		t.Errorf("identical constant samples: p = %v, want 1", w.p)
	}
	if w := WelchLog([]float64{6, 6, 6}, []float64{5, 5, 5}); !(w.p < 1e-12) {
		t.Errorf("different constant samples: p = %v, want 0", w.p)
	}
}

func TestHolm(t *testing.T) {
	adj, step := Holm([]float64{0.01, 0.04, 0.03, 0.5}, 0.05)
	// Sorted 0.01, 0.03, 0.04, 0.5: 4×0.01, 3×0.03, max(2×0.04, 0.09), 0.5.
	want := []float64{0.04, 0.09, 0.09, 0.5}
	wantStep := []float64{0.0125, 0.025, 0.05 / 3, 0.05}
	for i := range want {
		if math.Abs(adj[i]-want[i]) > 1e-12 || math.Abs(step[i]-wantStep[i]) > 1e-12 {
			t.Errorf("p[%d]: adjusted %v step %v, want %v and %v", i, adj[i], step[i], want[i], wantStep[i])
		}
	}
}

func TestVerdictReasons(t *testing.T) {
	th := DefaultThresholds
	th.Resolve = 0 // no equivalence test: TestEquivalence has it
	fast := simCell("fast", []float64{200, 202, 204, 206}, th)
	slow := simCell("slow", []float64{100, 101, 102, 103}, th)
	near := simCell("near", []float64{100.5, 101.5, 102.5, 103.5}, th)
	thin := simCell("thin", []float64{150, 151}, th)
	none := simCell("none", []float64{0, 0, 0}, th)
	busy := simCell("busy", []float64{400, 401, 402, 403}, th)     // its load generator saturated, the fastest
	capped := simCell("capped", []float64{100, 101, 102, 103}, th) // its load generator saturated, slow
	sv := decideScenario([]*Cell{fast, slow, near, thin, none, busy, capped}, MetricRPS, th, defaultFloor(th), map[*Cell]bool{busy: true, capped: true})
	for _, c := range []struct {
		a, b            *Cell
		verdict, reason string
	}{
		{fast, slow, VerdictA, ReasonDiffers},
		{near, slow, VerdictTie, ReasonNotSignificant},
		{fast, thin, VerdictTie, ReasonTooFewReps},
		{none, slow, VerdictTie, ReasonNoData},
		{busy, slow, VerdictA, ReasonAtLeast},         // a lower bound above slow: at least this much faster
		{fast, capped, VerdictTie, ReasonClientBound}, // capped's capacity may be anywhere above its number
		{busy, capped, VerdictTie, ReasonClientBound}, // both saturated: not tested
	} {
		v, ok := sv.Pair(c.a, c.b)
		if !ok || v.Verdict != c.verdict || v.Reason != c.reason {
			t.Errorf("%s vs %s: %s %s, want %s %s (%s)", c.a.Name, c.b.Name, v.Verdict, v.Reason, c.verdict, c.reason, v.Explain())
		}
	}
	if sv.Family != 9 {
		t.Errorf("family %d, want 9 (the pairs of fast, near, slow, busy and capped, busy with capped aside)", sv.Family)
	}
	if v, _ := sv.Pair(busy, capped); v.Tested() {
		t.Error("two saturated sides were tested")
	}
	// A floor wider than the difference keeps a significant pair at "~".
	wide := defaultFloor(th)
	wide.Value = 1.5
	sv = decideScenario([]*Cell{fast, slow}, MetricRPS, th, wide, nil)
	if v := sv.Pairs[0]; v.Reason != ReasonWithinFloor {
		t.Errorf("fast vs slow under a 150%% floor: %s, want %s", v.Reason, ReasonWithinFloor)
	}
	if r := sv.Rank(fast); r.Lo != 1 || r.Hi != 2 {
		t.Errorf("fast ranked %d–%d under a tie, want 1–2", r.Lo, r.Hi)
	}
}

// TestPower checks the power rule against its own definition: the smallest
// claimable difference is just claimed, and the repetitions it asks for
// claim 10% in most simulated pages.
func TestPower(t *testing.T) {
	th := DefaultThresholds
	const sigma = 0.03
	p := Power{N: 4, Sigma: sigma}
	m := 45 // 10 targets
	floor := math.Log1p(th.Noise)
	welchDF := func(n int) float64 { return float64(2*n - 2) }
	smallest := floor + detectable(p.N, welchDF(p.N), m, sigma, th.Alpha, 0.5)
	if !(smallest > floor) {
		t.Fatalf("smallest %v not beyond the floor %v", smallest, floor)
	}
	n10 := repsFor(0.10, floor, welchDF, m, sigma, th.Alpha)
	if n10 < 3 || n10 > 20 {
		t.Fatalf("repetitions for 10%% at 3%% noise among 10 targets: %d, want a handful", n10)
	}
	if n := repsFor(0.01, floor, welchDF, m, sigma, th.Alpha); n != 0 {
		t.Errorf("1%% under a 2%% floor: %d repetitions, want 0 (impossible)", n)
	}
	// Simulate pages of 10 targets, one 10% faster, at n10 repetitions.
	r := newRand(3)
	claimed := 0
	for page := 0; page < 200; page++ {
		cells := make([]*Cell, 10)
		for i := range cells {
			v := make([]float64, n10)
			for j := range v {
				shift := 0.0
				if i == 0 {
					shift = math.Log(1.1)
				}
				v[j] = 1000 * math.Exp(shift+sigma*r.NormFloat64())
			}
			cells[i] = simCell(string(rune('a'+i)), v, th)
		}
		sv := decideScenario(cells, MetricRPS, th, defaultFloor(th), nil)
		if v, _ := sv.Pair(cells[0], cells[1]); v.Verdict == VerdictA {
			claimed++
		}
	}
	if claimed < 200*70/100 {
		t.Errorf("10%% claimed in %d of 200 pages at the %d repetitions the power rule asks for, want about 80%%", claimed, n10)
	}
}
