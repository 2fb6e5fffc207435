package verdict

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestGammaFunctions checks digamma, trigamma and inverseTrigamma against
// closed forms: ψ(1) = −γ, ψ(1/2) = −γ − 2 ln 2, ψ′(1) = π²/6,
// ψ′(1/2) = π²/2, and ψ′(x) ≈ 1/x + 1/(2x²) far out.
func TestGammaFunctions(t *testing.T) {
	const euler = 0.57721566490153286
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"ψ(1)", digamma(1), -euler},
		{"ψ(1/2)", digamma(0.5), -euler - 2*math.Ln2},
		{"ψ(10)", digamma(10), -euler + 7129.0/2520},
		{"ψ′(1)", trigamma(1), math.Pi * math.Pi / 6},
		{"ψ′(1/2)", trigamma(0.5), math.Pi * math.Pi / 2},
		{"ψ′(1000)", trigamma(1000), 1.0/1000 + 1/(2*1000.0*1000)},
		{"ψ′⁻¹(π²/6)", inverseTrigamma(math.Pi * math.Pi / 6), 1},
		{"ψ′⁻¹(ψ′(0.05))", inverseTrigamma(trigamma(0.05)), 0.05},
		{"ψ′⁻¹(ψ′(300))", inverseTrigamma(trigamma(300)), 300},
	} {
		if math.Abs(c.got-c.want) > 1e-9*math.Max(1, math.Abs(c.want)) {
			t.Errorf("%s = %.12g, want %.12g", c.name, c.got, c.want)
		}
	}
}

// modNoise draws target i's own log noise in one round.
type modNoise func(r *rand.Rand, target int) float64

// moderatedCases are the families the moderated test is checked on: few
// rounds (where it changes most), targets whose noise is equal, spread
// over a range, mildly spread (the case its estimate of d0 finds hardest),
// one noisy among steady ones, two groups, heavy tails and slow turns.
func moderatedCases() []struct {
	name string
	k, n int
	draw modNoise
} {
	gauss := func(sd float64) modNoise {
		return func(r *rand.Rand, _ int) float64 { return sd * r.NormFloat64() }
	}
	spread := func(lo, hi float64) modNoise { // sd log-uniform over targets
		return func(r *rand.Rand, i int) float64 {
			return lo * math.Pow(hi/lo, float64(i%12)/11) * r.NormFloat64()
		}
	}
	oneNoisy := func(times float64) modNoise {
		return func(r *rand.Rand, i int) float64 {
			if i == 0 {
				return times * 0.02 * r.NormFloat64()
			}
			return 0.02 * r.NormFloat64()
		}
	}
	groups := func(r *rand.Rand, i int) float64 { return []float64{0.02, 0.06}[i%2] * r.NormFloat64() }
	heavy := func(r *rand.Rand, _ int) float64 {
		z, a, b := r.NormFloat64(), r.NormFloat64(), r.NormFloat64()
		return 0.03 * z / math.Sqrt((a*a+b*b)/2)
	}
	slow := func(r *rand.Rand, _ int) float64 {
		x := 0.04 * r.NormFloat64()
		if r.Float64() < 0.15 {
			x += math.Log(0.6)
		}
		return x
	}
	return []struct {
		name string
		k, n int
		draw modNoise
	}{
		{"equal k=12 n=3", 12, 3, gauss(0.05)},
		{"equal k=12 n=4", 12, 4, gauss(0.05)},
		{"equal k=4 n=4", 4, 4, gauss(0.05)},
		{"equal k=6 n=8", 6, 8, gauss(0.05)},
		{"spread ×8 k=12 n=4", 12, 4, spread(0.01, 0.08)},
		{"spread ×2 k=12 n=4", 12, 4, spread(0.03, 0.06)},
		{"spread ×2 k=5 n=4", 5, 4, spread(0.03, 0.06)},
		{"one noisy ×6 k=12 n=4", 12, 4, oneNoisy(6)},
		{"one noisy ×6 k=4 n=5", 4, 5, oneNoisy(6)},
		{"one noisy ×3 k=12 n=4", 12, 4, oneNoisy(3)},
		{"one noisy ×2 k=12 n=4", 12, 4, oneNoisy(2)},
		{"one noisy ×2 k=6 n=3", 6, 3, oneNoisy(2)},
		{"two noisy ×2.5 k=12 n=5", 12, 5, func(r *rand.Rand, i int) float64 { return []float64{0.05, 0.05, 0.02}[min(i, 2)] * r.NormFloat64() }},
		{"two groups ×3 k=12 n=4", 12, 4, groups},
		{"heavy tails k=12 n=4", 12, 4, heavy},
		{"slow turns k=12 n=4", 12, 4, slow},
	}
}

// modPage draws one family of k identical targets (levels[i] added) over
// n rounds with a shared round effect and decides it.
func modPage(r *rand.Rand, k, n int, levels []float64, draw modNoise, th Thresholds) *ScenarioVerdicts {
	logs := drawRounds(r, k, n, 0.1, func(r *rand.Rand, _ []float64, i, _ int) float64 { return draw(r, i) })
	for i, l := range levels {
		for j := range logs[i] {
			logs[i][j] += l
		}
	}
	return blockedPage(logs, th)
}

// TestModeratedNullFamilyWise: identical targets at few rounds, under each
// of moderatedCases: pages with any claim stay within α (the binomial
// bound of verdict_sim_test.go). It logs the prior degrees of freedom the
// pages gave their pairs, to show where the moderation acted.
func TestModeratedNullFamilyWise(t *testing.T) {
	th := DefaultThresholds
	th.Noise = 0 // check the test and the correction, not the floor
	for ci, c := range moderatedCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(41, uint64(ci)))
			bad, pages, d0 := 0, simPages(), 0.0
			for range pages {
				sv := modPage(r, c.k, c.n, nil, c.draw, th)
				d0 += sv.test.mod.prior.D0 / float64(pages)
				for _, v := range sv.Pairs {
					if v.Claimed() {
						bad++
						break
					}
				}
			}
			t.Logf("%s: %d of %d pages with a false claim; prior df %.1f on average (at most %.0f)", c.name, bad, pages, d0, maxPriorDF(c.n, c.k, false))
			if float64(bad) > binomialBound(th.Alpha, pages) {
				t.Errorf("%d of %d pages of identical targets claim a difference, over α with its tolerance (%.0f)", bad, pages, binomialBound(th.Alpha, pages))
			}
		})
	}
}

// TestModeratedResolves: twelve targets over 4 rounds at 5% noise per
// window, one 25% faster: the moderated test claims it against the others
// far more often than each pair's own variance does, and the family's
// Power says it resolves less.
func TestModeratedResolves(t *testing.T) {
	th := DefaultThresholds
	count := func(moderated bool, seed uint64) (claimed, pairs int, resolves float64) {
		r := rand.New(rand.NewPCG(seed, 5))
		pages := simPages() / 4
		for range pages {
			logs := drawRounds(r, 12, 4, 0.1, func(r *rand.Rand, _ []float64, _, _ int) float64 { return 0.05 * r.NormFloat64() })
			for j := range logs[0] {
				logs[0][j] += math.Log(1.25)
			}
			sv := decideScenario(roundCells(logs, th), MetricRPS, th, defaultFloor(th), nil)
			if !moderated {
				sv.test = newFamilyTestModerated(sv.Cells, MetricRPS, th, false)
				sv.Family = judge(sv.Pairs, th, sv.Floor, nil, sv.test, newFamilyTestModerated(sv.Cells, MetricEfficiency, th, false))
			}
			for _, v := range sv.Pairs {
				if (v.A == "t00" || v.B == "t00") && v.Claimed() {
					claimed++
				}
			}
			p, _ := sv.Power(th)
			resolves += p.Resolves / float64(pages)
		}
		return claimed, pages * 11, resolves
	}
	mod, pairs, modResolves := count(true, 3)
	own, _, ownResolves := count(false, 3)
	t.Logf("a 25%% faster target claimed in %d of %d pairs moderated, %d on each pair's own variance; Power resolves %.1f%% against %.1f%%", mod, pairs, own, 100*modResolves, 100*ownResolves)
	if mod < 3*own || mod*10 < pairs*5 {
		t.Errorf("moderated claims %d of %d, own variance %d: want at least half the pairs and three times as many", mod, pairs, own)
	}
	if !(modResolves < ownResolves/2) {
		t.Errorf("Power resolves %.3f moderated against %.3f: want under half", modResolves, ownResolves)
	}
}

// TestModeratedKeepsNoisyPairs: one target at 30% noise among eleven at 2%
// over 4 rounds: its pairs are tested on their own variance and 3 degrees
// of freedom, as without moderation, while the steady pairs borrow.
func TestModeratedKeepsNoisyPairs(t *testing.T) {
	th := DefaultThresholds
	r := rand.New(rand.NewPCG(9, 9))
	noisyOwn, steadyLent, pages := 0, 0, 50
	for range pages {
		sv := modPage(r, 12, 4, nil, func(r *rand.Rand, i int) float64 {
			if i == 0 {
				return 0.3 * r.NormFloat64()
			}
			return 0.02 * r.NormFloat64()
		}, th)
		byName := map[string]*Cell{}
		for _, c := range sv.Cells {
			byName[c.Name] = c
		}
		for i := 1; i < 12; i++ {
			if w := sv.test.test(byName["t00"], byName[fmt.Sprintf("t%02d", i)]); w.DF == 3 {
				noisyOwn++
			}
		}
		if w := sv.test.test(byName["t01"], byName["t02"]); w.DF > 3 {
			steadyLent++
		}
	}
	t.Logf("noisy pairs on their own variance: %d of %d; steady pair lent degrees of freedom: %d of %d", noisyOwn, 11*pages, steadyLent, pages)
	if noisyOwn*100 < 11*pages*95 {
		t.Errorf("the noisy target's pairs were tested on their own variance in %d of %d, want 95%% or more", noisyOwn, 11*pages)
	}
}

// TestPowerIsMet: the Power a family states is met. For families of
// identical targets (equal noise, one target 3× noisier, variances spread
// ×2), the mean Resolves that Power states; then the same families with
// one steady target that much faster: its pairs are claimed in 80% of
// draws (within sampling), the power Resolves promises on average over a
// family's pairs, each tested as the family tests it. The plug-in of each
// pair's estimated noise makes it a little conservative; under 75% it
// would promise what the tests do not deliver.
func TestPowerIsMet(t *testing.T) {
	th := DefaultThresholds
	th.Noise = 0 // the test's power, not the floor's
	noisy3 := func(r *rand.Rand, i int) float64 {
		if i == 11 {
			return 0.15 * r.NormFloat64()
		}
		return 0.05 * r.NormFloat64()
	}
	for ci, c := range []struct {
		name string
		k, n int
		draw modNoise
	}{
		{"equal k=12 n=4", 12, 4, func(r *rand.Rand, _ int) float64 { return 0.05 * r.NormFloat64() }},
		{"equal k=6 n=5", 6, 5, func(r *rand.Rand, _ int) float64 { return 0.05 * r.NormFloat64() }},
		{"one noisy ×3 k=12 n=4", 12, 4, noisy3},
		{"spread ×2 k=12 n=5", 12, 5, func(r *rand.Rand, i int) float64 { return 0.04 * math.Pow(2, float64(i)/11) * r.NormFloat64() }},
		{"equal k=3 n=6", 3, 6, func(r *rand.Rand, _ int) float64 { return 0.05 * r.NormFloat64() }},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(17, uint64(ci)))
			pages := simPages() / 2
			stated := 0.0
			for range pages {
				p, ok := modPage(r, c.k, c.n, nil, c.draw, th).Power(th)
				if !ok {
					t.Fatal("no power")
				}
				stated += math.Log1p(p.Resolves) / float64(pages)
			}
			levels := make([]float64, c.k)
			levels[0] = stated
			claimed, pairs := 0, 0
			for range pages {
				sv := modPage(r, c.k, c.n, levels, c.draw, th)
				for _, v := range sv.Pairs {
					if v.A == "t00" || v.B == "t00" {
						pairs++
						if v.Claimed() {
							claimed++
						}
					}
				}
			}
			rate := float64(claimed) / float64(pairs)
			t.Logf("%s: Power resolves %.1f%% on average; a target that much faster claimed in %d of %d pairs (%.1f%%)", c.name, 100*math.Expm1(stated), claimed, pairs, 100*rate)
			if rate < 0.75 || rate > 0.95 {
				t.Errorf("claimed in %.1f%% of pairs at the difference Power resolves with 80%% power: want 75-95%%", 100*rate)
			}
		})
	}
}

// TestNeedAgreesWithResolves: the rounds a page says 10% and 5% need come
// from the model Resolves does: a family that resolves 10% at its n
// rounds needs at most n for it, one that does not needs more (or no
// count can), and 5% never needs fewer than 10%. What it claims half the
// time (Smallest) is a number below Resolves.
func TestNeedAgreesWithResolves(t *testing.T) {
	th := DefaultThresholds
	r := rand.New(rand.NewPCG(23, 1))
	for _, sigma := range []float64{0.02, 0.05, 0.1} {
		for _, n := range []int{4, 8} {
			draw := func(r *rand.Rand, _ int) float64 { return sigma * r.NormFloat64() }
			p, ok := modPage(r, 6, n, nil, draw, th).Power(th)
			if !ok {
				t.Fatal("no power")
			}
			t.Logf("sigma %.2f, %d rounds: resolves %.1f%%, 10%% needs %d, 5%% needs %d", sigma, n, 100*p.Resolves, p.Need10, p.Need5)
			if reached := p.Resolves <= 0.10; reached != (p.Need10 > 0 && p.Need10 <= p.N) {
				t.Errorf("sigma %.2f, %d rounds: resolves %.1f%% but 10%% needs %d of its %d", sigma, n, 100*p.Resolves, p.Need10, p.N)
			}
			if !(p.Smallest > 0 && p.Smallest < p.Resolves) {
				t.Errorf("sigma %.2f, %d rounds: claims half the time %v, with 80%% power %v: want a number below the other", sigma, n, p.Smallest, p.Resolves)
			}
			if p.Need5 > 0 && p.Need5 < p.Need10 {
				t.Errorf("sigma %.2f: 5%% needs %d, fewer than 10%%'s %d", sigma, p.Need5, p.Need10)
			}
		}
	}
}
