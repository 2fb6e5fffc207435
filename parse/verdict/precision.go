package verdict

import (
	"math"
	"slices"
)

// A collect to a precision (suite [load] resolve) adds rounds to a
// scenario while the family of its targets cannot yet resolve the
// difference asked for. The rule looks at the noise of the rounds so far,
// never at the differences between targets: under the model the blocked
// test assumes (normal residuals), a sample's variance is independent of
// its mean, so stopping on the variance leaves each test's false-claim
// rate where a fixed count would (the internal pilot argument of
// sample-size re-estimation; the simulations of precision_test.go check
// it, noisy slow spells included). Stopping on the differences themselves
// — more rounds while a p-value hovers near α — would not.

// FamilyPrecision is what a family measured in rounds resolves so far.
type FamilyPrecision struct {
	Targets, Rounds int
	// Sigma is the noise of one window on log throughput: the root mean
	// over the family's pairs of half the variance of their round
	// differences (the blocked test's own variance).
	Sigma float64
	// Resolves is the smallest relative difference the family claims
	// with 80% power at its rounds, on average over its pairs, each tested
	// as the verdicts test it (moderated.go), beyond the threshold's noise
	// floor; +Inf when the rounds are too few to say.
	Resolves float64
}

// PrecisionOf is the precision of a family from logs[i][r], target i's
// log throughput in round r (every target measured in every round; a
// target with fewer rounds is left out). th.Alpha and th.Noise are used.
func PrecisionOf(logs [][]float64, th Thresholds) FamilyPrecision {
	return PrecisionProbed(logs, nil, th)
}

// PrecisionProbed is PrecisionOf where speeds[i][r] is the log time of
// the host speed probe around target i's turn in round r: where every
// window kept has one, the noise is the one the verdicts test on, with
// the probe's share taken out of the round differences
// (MethodBlockedSpeed). The slope is fitted within target and round, on
// the noise alone, so stopping on it keeps the false-claim rate as
// stopping on the plain variance does. speeds may be nil.
func PrecisionProbed(logs, speeds [][]float64, th Thresholds) FamilyPrecision {
	n := 0
	for _, l := range logs {
		n = max(n, len(l))
	}
	var full, fullSpeeds [][]float64
	probed := len(speeds) == len(logs)
	for i, l := range logs {
		if len(l) == n {
			full = append(full, l)
			if probed && len(speeds[i]) == n && !slices.ContainsFunc(speeds[i], math.IsNaN) {
				fullSpeeds = append(fullSpeeds, speeds[i])
			} else {
				probed = false
			}
		}
	}
	fp := FamilyPrecision{Targets: len(full), Rounds: n, Resolves: math.Inf(1)}
	if len(full) < 2 || n < 3 {
		return fp
	}
	var fit *SpeedFit
	if probed {
		fit, _ = fitSlope(full, fullSpeeds)
	}
	var vs []float64
	sum := 0.0
	d := make([]float64, n)
	type pair struct{ i, j int }
	var pairs []pair
	for i, a := range full {
		for j := i + 1; j < len(full); j++ {
			b := full[j]
			for r := range d {
				d[r] = a[r] - b[r]
				if fit != nil {
					d[r] -= fit.Beta * (fullSpeeds[i][r] - fullSpeeds[j][r])
				}
			}
			_, v := MeanVar(d)
			vs = append(vs, v)
			pairs = append(pairs, pair{i, j})
			sum += v / 2
		}
	}
	fp.Sigma = math.Sqrt(sum / float64(len(vs)))
	mod := moderationOf(vs, len(full), float64(n-1), maxPriorDF(n, len(full), fit != nil))
	tests := make([]pairNoise, 0, len(vs))
	for p, v := range vs {
		v, df := mod.pair(pairs[p].i, pairs[p].j, v, float64(n-1))
		tests = append(tests, pairNoise{math.Sqrt(v / float64(n)), df})
	}
	fp.Resolves = math.Expm1(math.Log1p(th.Noise) + resolvesOver(tests, familySize(len(full)), th.Alpha, powerTarget))
	return fp
}

// familySize is the number of pairs a family of k targets tests: every
// pair, or past MaxPairwise each against the reference.
func familySize(k int) int {
	if k > MaxPairwise {
		return k - 1
	}
	return k * (k - 1) / 2
}

// RoundsFor is the fewest rounds (up to 200) with which a family of k
// targets at per-window noise sigma resolves the relative difference
// resolve with 80% power by the blocked test, its pairs' variances
// moderated as far as the family allows (where they agree: a plan, which
// the rounds' own look then checks); 0 when no count up to 200 can (the
// noise floor alone is that large, or the noise too).
func RoundsFor(resolve float64, k int, sigma float64, th Thresholds) int {
	floor := math.Log1p(th.Noise)
	df := func(n int) float64 { return float64(n-1) + maxPriorDF(n, k, false) }
	return repsFor(resolve, floor, df, familySize(k), sigma, th.Alpha)
}
