package verdict

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSystematicUnbiased: the systematic A/A difference estimates the
// twins' offset, not their noise. Twins whose three scenarios differ by
// sampling noise alone (SE 5% each, a noisy day's) get a systematic of 0
// in 40% of runs or more and a mean under 3% (|μ̂| alone averages
// √(2/π)·SE/√3, 2.3%, before τ̂ adds to it); twins 6% apart are found 6%
// apart, within 1%.
func TestSystematicUnbiased(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const runs, se = 4000, 0.05
	draw := func(offset float64) (mean float64, zeros int) {
		for range runs {
			ws := make([]Welch, 3)
			for i := range ws {
				ws[i] = Welch{Diff: offset + se*r.NormFloat64(), SE: se}
			}
			s := math.Log1p(systematic(ws))
			mean += s / runs
			if s == 0 {
				zeros++
			}
		}
		return mean, zeros
	}
	if mean, zeros := draw(0); zeros < runs*4/10 || mean > 0.03 {
		t.Errorf("twins apart by noise alone: systematic 0 in %d of %d runs, mean %.4f: want 0 in 40%% and a mean under 0.03", zeros, runs, mean)
	} else {
		t.Logf("twins apart by noise alone: systematic 0 in %d of %d runs, mean %.4f", zeros, runs, mean)
	}
	if mean, _ := draw(0.06); math.Abs(mean-0.06) > 0.01 {
		t.Errorf("twins 6%% apart: mean systematic %.4f, want 0.06 within 0.01", mean)
	} else {
		t.Logf("twins 6%% apart: mean systematic %.4f", mean)
	}
}
