package verdict

import "math"

// MethodBlockedSpeed is MethodBlockedLog with the host speed probe taken
// out: where every repetition of a family measured in rounds was probed,
// each pair is tested on its round differences less β times the
// difference of the probe's log times at the two turns, β the family's
// slope of log throughput on log probe time (SpeedFit).
//
// Why: collect times a fixed loop on the server's CPUs before and after
// every turn (parse.Measurement.HostSpeed). On a virtual machine whose
// neighbours slow a core for minutes at a time, a turn that met a slow
// probe ran slow too, so a pair's round differences carry the difference
// of the host's speed at their two turns. Where the probe reads that
// speed, taking it out narrows them (on the committed go run of 5
// December the residual sd of most scenarios fell by a third to a half);
// where it does not, β is near 0 and the test is the blocked one.
//
// Model, stated: log throughput = target + round + β·log probe time +
// residual. The probe runs while no server is loaded and the order within
// a round is random, so the probe is independent of which target ran:
// taking β times its difference out of a pair leaves the pair's expected
// difference as it was. β is one slope for the family (the host's, not a
// target's), estimated within target and round; its uncertainty is added
// to each pair's standard error. The ratio a pair reports is then the
// ratio of geometric means at the host's speed: the geometric means' own
// ratio with the probe's share taken out. The simulations
// (speed_test.go) check the family-wise false claims where the servers
// follow the probe and where they do not.
const MethodBlockedSpeed = "blocked-t-log-speed"

// SpeedFit is one family's fit of log throughput on the log probe time.
type SpeedFit struct {
	// Beta is the slope of log throughput on log probe time within target
	// and round (−1: throughput inversely proportional to the probe's
	// time, a CPU-bound server on a slower core), BetaVar its variance.
	Beta, BetaVar float64
	// DF is the residual degrees of freedom of the two-way fit with the
	// covariate: (targets−1)(rounds−1) − 1.
	DF int
	// Sigma and SigmaAdjusted are the residual sd of log throughput in the
	// two-way fit (target, round) without and with the covariate: how
	// much of the family's noise the probe explains.
	Sigma, SigmaAdjusted float64

	speed map[*Cell][]float64 // log probe times in round order
}

// FitSpeed is the covariate's fit in one family (one scenario of one run,
// every cell of it) on metric m, as its tests use it; false where the
// family has none (fitSpeed).
func FitSpeed(family []*Cell, m Metric, th Thresholds) (*SpeedFit, bool) {
	ft := newFamilyTest(family, m, th)
	return ft.speed, ft.speed != nil
}

// fitSpeed fits the covariate over cells, ft's testable cells; nil where
// the family is not tested by rounds, where a repetition was not probed,
// or where the fit would keep fewer than 2 residual degrees of freedom.
func fitSpeed(ft *familyTest, cells []*Cell) *SpeedFit {
	if !ft.blocked() {
		return nil
	}
	f := &SpeedFit{speed: map[*Cell][]float64{}}
	for _, c := range cells {
		s := make([]float64, ft.rounds)
		rounds := roundIndex(c)
		for i, r := range c.Reps {
			if r.HostSpeed <= 0 {
				return nil
			}
			s[rounds[i]] = math.Log(r.HostSpeed)
		}
		f.speed[c] = s
	}
	f.DF = (len(cells)-1)*(ft.rounds-1) - 1
	if f.DF < 2 {
		return nil
	}
	y, s := doubleCentred(cells, ft.byCell), doubleCentred(cells, f.speed)
	var sy, ss, yy float64
	for i := range y {
		sy += s[i] * y[i]
		ss += s[i] * s[i]
		yy += y[i] * y[i]
	}
	if ss == 0 {
		return nil // the probe read one speed all run: nothing to take out
	}
	f.Sigma = math.Sqrt(yy / float64(f.DF+1))
	f.Beta = sy / ss
	rss := 0.0
	for i := range y {
		e := y[i] - f.Beta*s[i]
		rss += e * e
	}
	residual := rss / float64(f.DF)
	f.SigmaAdjusted, f.BetaVar = math.Sqrt(residual), residual/ss
	return f
}

// roundIndex is, for each of c's repetitions, its round's place in the
// family's rounds (the order byRound writes: every cell of a blocked
// family measured the same rounds).
func roundIndex(c *Cell) []int {
	order := make([]int, len(c.Reps))
	reps := make([]int, len(c.Reps))
	for i, r := range c.Reps {
		reps[i] = r.Rep
	}
	for i, r := range reps {
		for _, other := range reps {
			if other < r {
				order[i]++
			}
		}
	}
	return order
}

// doubleCentred is the values of cells by round with each cell's mean and
// each round's mean taken out (the residuals of the two-way fit), cell by
// cell.
func doubleCentred(cells []*Cell, by map[*Cell][]float64) []float64 {
	rounds := len(by[cells[0]])
	all, roundMean := 0.0, make([]float64, rounds)
	cellMean := make([]float64, len(cells))
	for i, c := range cells {
		for r, v := range by[c] {
			cellMean[i] += v / float64(rounds)
			roundMean[r] += v / float64(len(cells))
			all += v / float64(rounds*len(cells))
		}
	}
	out := make([]float64, 0, rounds*len(cells))
	for i, c := range cells {
		for r, v := range by[c] {
			out = append(out, v-cellMean[i]-roundMean[r]+all)
		}
	}
	return out
}

// adjust takes the probe's share out of d, a's log value minus b's by
// round: d − β·(log probe a − log probe b).
func (f *SpeedFit) adjust(d []float64, a, b *Cell) {
	sa, sb := f.speed[a], f.speed[b]
	for r := range d {
		d[r] -= f.Beta * (sa[r] - sb[r])
	}
}

// betaShare is what β's own uncertainty adds to the variance of a pair's
// adjusted mean difference: Var β times the square of the pair's mean
// probe difference.
func (f *SpeedFit) betaShare(a, b *Cell) float64 {
	sa, sb := f.speed[a], f.speed[b]
	ds := 0.0
	for r := range sa {
		ds += (sa[r] - sb[r]) / float64(len(sa))
	}
	return f.BetaVar * ds * ds
}
