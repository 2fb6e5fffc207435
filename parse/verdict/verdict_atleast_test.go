package verdict

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestAtLeastSimulated checks the one-sided claims made for a target whose
// load generator was saturated. Under the null (every target the same
// program, half of them flagged saturated) the pages with any claim stay
// within the binomial bound at α, as the untouched pairs do; with a
// saturated target truly 30% faster than the rest, it is claimed faster
// "at least" on nearly every page, and never slower; with its number 30%
// lower, nothing is claimed about it.
func TestAtLeastSimulated(t *testing.T) {
	th := DefaultThresholds
	th.Noise = 0 // check the test and the correction, not the floor
	const k, n, sigma = 4, 8, 0.03
	decide := func(r *rand.Rand, gain float64) *ScenarioVerdicts {
		cells := make([]*Cell, k)
		bound := map[*Cell]bool{}
		for i := range cells {
			v := make([]float64, n)
			for j := range v {
				x := r.NormFloat64() * sigma
				if i == 0 {
					x += math.Log(gain)
				}
				v[j] = 100000 * math.Exp(x)
			}
			cells[i] = simCell(fmt.Sprintf("t%02d", i), v, th)
			if i%2 == 0 {
				bound[cells[i]] = true // t00 and t02 saturated their load generator
			}
		}
		return decideScenario(cells, MetricRPS, th, defaultFloor(th), bound)
	}
	r := rand.New(rand.NewPCG(11, 1))
	pages, bad := simPages(), 0
	for range pages {
		sv := decide(r, 1)
		for _, v := range sv.Pairs {
			if v.Claimed() {
				bad++
				break
			}
		}
	}
	if limit := binomialBound(th.Alpha, pages); float64(bad) > limit {
		t.Errorf("identical targets, two saturated: %d of %d pages claim a difference, above %.1f (α=%g)", bad, pages, limit, th.Alpha)
	} else {
		t.Logf("identical targets, two saturated: %d of %d pages claim a difference (bound %.1f)", bad, pages, limit)
	}
	found, wrong := 0, 0
	for range pages {
		sv := decide(r, 1.3)
		for _, v := range sv.Pairs {
			if v.CellA.Name != "t00" && v.CellB.Name != "t00" {
				continue
			}
			if f := v.Faster(); f != nil && f.Name != "t00" {
				wrong++
			}
			if v.CellB.Name == "t02" || v.CellA.Name == "t02" {
				if v.Tested() {
					t.Fatalf("two saturated targets were tested: %s", v.Explain())
				}
				continue
			}
			if v.Reason == ReasonAtLeast && v.Faster().Name == "t00" {
				found++
			}
		}
	}
	// t00 against t01 and t03 on every page.
	if want := 2 * pages; float64(found) < 0.95*float64(want) || wrong > 0 {
		t.Errorf("a saturated target 30%% faster: claimed at least faster in %d of %d pairs, slower in %d", found, want, wrong)
	}
	// Slower by its number, a saturated target is never claimed slower:
	// its capacity may be anywhere above what its load generator reached.
	claimed := 0
	for range pages {
		for _, v := range decide(r, 0.7).Pairs {
			if (v.CellA.Name == "t00" || v.CellB.Name == "t00") && v.Claimed() {
				claimed++
			}
		}
	}
	if claimed > 0 {
		t.Errorf("a saturated target whose number is 30%% lower was claimed slower in %d pairs", claimed)
	}
}
