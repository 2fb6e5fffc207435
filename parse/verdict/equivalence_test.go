package verdict

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestEquivalence: a pair claimed neither faster nor slower is called
// equivalent only when two one-sided tests put its ratio within ±resolve;
// a wide interval stays unresolved.
func TestEquivalence(t *testing.T) {
	th := DefaultThresholds
	slow := simCell("slow", []float64{100, 101, 102, 103}, th)
	near := simCell("near", []float64{100.5, 101.5, 102.5, 103.5}, th)
	wide := simCell("wide", []float64{70, 140, 95, 125}, th)
	fast := simCell("fast", []float64{200, 202, 204, 206}, th)
	sv := decideScenario([]*Cell{slow, near, wide, fast}, MetricRPS, th, defaultFloor(th), nil)
	for _, c := range []struct {
		a, b            *Cell
		verdict, reason string
		outcome         string
	}{
		{near, slow, VerdictEquivalent, ReasonEquivalent, OutcomeEquivalent},
		{wide, slow, VerdictTie, ReasonNotSignificant, OutcomeUnresolved},
		{fast, slow, VerdictA, ReasonDiffers, OutcomeFaster},
	} {
		v, _ := sv.Pair(c.a, c.b)
		if v.Verdict != c.verdict || v.Reason != c.reason || v.Outcome() != c.outcome {
			t.Errorf("%s vs %s: %s %s (%s), want %s %s (%s): %s", c.a.Name, c.b.Name, v.Verdict, v.Reason, v.Outcome(), c.verdict, c.reason, c.outcome, v.Explain())
		}
		if v.Margin != th.Resolve {
			t.Errorf("%s vs %s: margin %v, want the resolve %v", c.a.Name, c.b.Name, v.Margin, th.Resolve)
		}
	}
}

// TestEquivalenceCalibrated simulates families measured in rounds: where
// one target is exactly resolve (10%) faster than two others, the pages
// that call it equivalent to either stay within α (the binomial bound);
// where all three are one program, most pages call them equivalent.
func TestEquivalenceCalibrated(t *testing.T) {
	th := DefaultThresholds
	at := func(level float64, sd float64, seed uint64) (eqPages, pages int) {
		r := rand.New(rand.NewPCG(seed, 11))
		draw := func(r *rand.Rand, _ []float64, target, _ int) float64 {
			x := sd * r.NormFloat64()
			if target == 0 {
				x += level
			}
			return x
		}
		pages = simPages()
		for range pages {
			sv := blockedPage(drawRounds(r, 3, 8, 0.1, draw), th)
			for _, v := range sv.Pairs {
				if v.Equivalent() && (v.A == "t00" || v.B == "t00" || level == 0) {
					eqPages++
					break
				}
			}
		}
		return eqPages, pages
	}
	for _, sd := range []float64{0.02, 0.05} {
		bad, pages := at(math.Log1p(th.Resolve), sd, 41)
		t.Logf("noise %.2f: a target %.0f%% faster called equivalent on %d of %d pages", sd, th.Resolve*100, bad, pages)
		if float64(bad) > binomialBound(th.Alpha, pages) {
			t.Errorf("noise %.2f: a target %.0f%% apart called equivalent on %d of %d pages, over %.0f", sd, th.Resolve*100, bad, pages, binomialBound(th.Alpha, pages))
		}
	}
	same, pages := at(0, 0.02, 43)
	t.Logf("one program three times at 2%% noise: equivalence claimed on %d of %d pages", same, pages)
	if same < pages*8/10 {
		t.Errorf("identical targets at 2%% noise called equivalent on %d of %d pages, want ≥ 80%%", same, pages)
	}
}
