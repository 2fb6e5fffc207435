package verdict

import (
	"math"
)

// powerTarget is the power the repetition counts are computed for.
const powerTarget = 0.8

// Power is what one family of verdicts could resolve at its repetitions
// and noise.
type Power struct {
	N int // repetitions per cell (the median over the family's cells)
	// Sigma is the noise of one repetition on log throughput as the
	// family's test sees it: each cell's residual after its round, where
	// the test is blocked, else its spread; root mean square over cells.
	Sigma float64
	// Smallest is the smallest relative difference the family claims at
	// its first Holm step half the time, on average over its pairs.
	Smallest float64
	// Resolves is the smallest relative difference the family claims with
	// 80% power at its first Holm step, on average over its pairs, each
	// tested as the family tests it: moderated, or on its own variance
	// where the pair or one of its targets is noisier than the family
	// (moderated.go). For one pair of standard error se and df degrees
	// of freedom, log(1+Resolves) = log(1+floor) + (q + t₀.₈)·se; where
	// the family is not blocked, every pair is taken at σ·√(2/n).
	// It is computed from the noise alone, never from the differences
	// observed, so a collect may stop on it without biasing any verdict.
	Resolves float64
	// Need5 and Need10 are the repetitions per cell needed to claim a 5%
	// and a 10% difference with 80% power at the first Holm step, by the
	// model Resolves is (blocked: over the pairs, pairRepsFor); 0 when the
	// noise floor alone is that large (no repetition count can).
	Need5, Need10 int
}

// Power computes what the family could resolve at the first step of Holm
// over the pairs it tested; ok is false when fewer than two cells could be
// tested or no pair was (both sides client-bound everywhere).
func (sv *ScenarioVerdicts) Power(th Thresholds) (Power, bool) {
	var ranked []*Cell
	for _, r := range sv.Ranks {
		if r.Ranked {
			ranked = append(ranked, r.Cell)
		}
	}
	test := sv.test
	if test == nil {
		test = newFamilyTest(sv.Cells, sv.Metric, th)
	}
	sigma, n := test.sigma(ranked)
	if len(ranked) < 2 || sv.Family == 0 || n < 2 {
		return Power{}, false
	}
	p := Power{N: n, Sigma: sigma}
	m := sv.Family
	floor := math.Log1p(sv.Floor.Value)
	if test.blocked() {
		var pairs []pairNoise
		for i, a := range ranked {
			for _, b := range ranked[i+1:] {
				if w := test.test(a, b); !math.IsNaN(w.SE) {
					pairs = append(pairs, pairNoise{w.SE, w.DF})
				}
			}
		}
		p.Smallest = math.Expm1(floor + resolvesOver(pairs, m, th.Alpha, 0.5))
		p.Resolves = math.Expm1(floor + resolvesOver(pairs, m, th.Alpha, powerTarget))
		p.Need5 = pairRepsFor(0.05, floor, pairs, n, m, th.Alpha)
		p.Need10 = pairRepsFor(0.10, floor, pairs, n, m, th.Alpha)
		return p, true
	}
	p.Smallest = math.Expm1(floor + detectable(p.N, test.df(p.N), m, p.Sigma, th.Alpha, 0.5))
	p.Resolves = math.Expm1(floor + detectable(p.N, test.df(p.N), m, p.Sigma, th.Alpha, powerTarget))
	p.Need5 = repsFor(0.05, floor, test.df, m, p.Sigma, th.Alpha)
	p.Need10 = repsFor(0.10, floor, test.df, m, p.Sigma, th.Alpha)
	return p, true
}

// pairRepsFor is the fewest rounds (2 to 200) at which the pairs, tested
// now at n rounds each, would claim a relative difference target with 80%
// power on average over the family's m pairs (resolvesOver): each pair's
// standard error scaled by √(n/rounds) and its degrees of freedom moved
// by the rounds added, the moderation's prior degrees kept. So Need5 and
// Need10 answer from the model Resolves does. 0 when none can.
func pairRepsFor(target, floor float64, pairs []pairNoise, n, m int, alpha float64) int {
	room := math.Log1p(target) - floor
	if room <= 0 || len(pairs) == 0 {
		return 0
	}
	at := make([]pairNoise, len(pairs))
	reaches := func(rounds int) bool {
		for i, p := range pairs {
			at[i] = pairNoise{p.se * math.Sqrt(float64(n)/float64(rounds)), max(1, p.df+float64(rounds-n))}
		}
		return resolvesOver(at, m, alpha, powerTarget) <= room
	}
	// More rounds only shrink what the pairs resolve: bisect.
	lo, hi := 1, 200
	if !reaches(hi) {
		return 0
	}
	for hi-lo > 1 {
		if mid := (lo + hi) / 2; reaches(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// detectable is the log difference beyond the floor that a pair of cells
// of n repetitions each, with log noise sigma and a test of df degrees of
// freedom, reaches at the first Holm step of m pairs with the given power
// (0.5: just claimed on average).
func detectable(n int, df float64, m int, sigma, alpha, power float64) float64 {
	q := studentQuantile(1-alpha/float64(2*m), df)
	if power > 0.5 {
		q += studentQuantile(power, df)
	}
	return q * sigma * math.Sqrt(2/float64(n))
}

// pairNoise is one pair's test as its family runs it: the standard error
// of its log difference and its degrees of freedom.
type pairNoise struct{ se, df float64 }

// resolvesOver is the log difference that the pairs' tests, each at the
// first Holm step of m pairs, claim with the given power on average over
// the pairs, each pair's standard error taken as its noise: for one pair
// (q + t_power)·se. 0 with no pair.
func resolvesOver(pairs []pairNoise, m int, alpha, power float64) float64 {
	if len(pairs) == 0 {
		return 0
	}
	qs := make([]float64, len(pairs))
	hi := 0.0
	for i, p := range pairs {
		qs[i] = studentQuantile(1-alpha/float64(2*m), p.df)
		reach := qs[i]
		if power > 0.5 { // studentQuantile is NaN at 0.5, where t is 0
			reach += studentQuantile(power, p.df)
		}
		hi = max(hi, reach*p.se)
	}
	mean := func(d float64) float64 { // the pairs' mean power at d
		sum := 0.0
		for i, p := range pairs {
			if p.se > 0 {
				sum += studentAbove(qs[i]-d/p.se, p.df)
			} else {
				sum++ // no noise: any difference is claimed
			}
		}
		return sum / float64(len(pairs))
	}
	lo := 0.0
	for range 60 {
		mid := (lo + hi) / 2
		if mean(mid) < power {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// studentAbove is P(T > x) for T of Student's t with df degrees of freedom.
func studentAbove(x, df float64) float64 {
	tail := StudentTwoSided(math.Abs(x), df) / 2
	if x < 0 {
		return 1 - tail
	}
	return tail
}

// repsFor is the fewest repetitions (up to 200) with which a relative
// difference target is claimed with 80% power over a noise floor (in log;
// a systematic difference, which more repetitions do not shrink), by a
// test of df(n) degrees of freedom; 0 when none can.
func repsFor(target, floor float64, df func(n int) float64, m int, sigma, alpha float64) int {
	room := math.Log1p(target) - floor
	if room <= 0 {
		return 0
	}
	for n := 2; n <= 200; n++ {
		if detectable(n, df(n), m, sigma, alpha, powerTarget) <= room {
			return n
		}
	}
	return 0
}
