package verdict

import (
	"math"
	"slices"
)

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
// speed, taking it out narrows them; where it does not, β is near 0 and
// the test is the blocked one.
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

// fitSpeed fits the covariate over cells, the testable cells of ft, a
// family tested by rounds; nil where a repetition was not probed, or
// where the fit has nothing to take out (fitSlope).
func fitSpeed(ft *familyTest, cells []*Cell) *SpeedFit {
	speed := map[*Cell][]float64{}
	ys, ss := make([][]float64, len(cells)), make([][]float64, len(cells))
	for _, c := range cells {
		for _, r := range c.Reps {
			if r.HostSpeed <= 0 {
				return nil
			}
		}
	}
	for i, c := range cells {
		s := make([]float64, ft.rounds)
		for k, at := range roundIndex(c) {
			s[at] = math.Log(c.Reps[k].HostSpeed)
		}
		speed[c], ys[i], ss[i] = s, ft.byCell[c], s
	}
	f, ok := fitSlope(ys, ss)
	if !ok {
		return nil
	}
	f.speed = speed
	return f
}

// fitSlope fits y[i][r] = target i + round r + β·s[i][r] + residual (every
// row as long as the first); false where the fit would keep fewer than 2
// residual degrees of freedom or s holds no variation within target and
// round (the probe read one speed all run: nothing to take out).
func fitSlope(y, s [][]float64) (*SpeedFit, bool) {
	if len(y) < 2 || len(y[0]) < 2 {
		return nil, false
	}
	f := &SpeedFit{DF: (len(y)-1)*(len(y[0])-1) - 1}
	if f.DF < 2 {
		return nil, false
	}
	yc, sc := doubleCentred(y), doubleCentred(s)
	var sy, ss, yy float64
	for i := range yc {
		sy += sc[i] * yc[i]
		ss += sc[i] * sc[i]
		yy += yc[i] * yc[i]
	}
	if ss == 0 {
		return nil, false
	}
	f.Sigma = math.Sqrt(yy / float64(f.DF+1))
	f.Beta = sy / ss
	rss := 0.0
	for i := range yc {
		e := yc[i] - f.Beta*sc[i]
		rss += e * e
	}
	residual := rss / float64(f.DF)
	f.SigmaAdjusted, f.BetaVar = math.Sqrt(residual), residual/ss
	return f, true
}

// roundIndex is, for each of c's repetitions, its round's place in the
// family's rounds (the order byRound writes: every cell of a blocked
// family measured the same rounds, each once).
func roundIndex(c *Cell) []int {
	reps := make([]int, len(c.Reps))
	for i, r := range c.Reps {
		reps[i] = r.Rep
	}
	slices.Sort(reps)
	order := make([]int, len(c.Reps))
	for i, r := range c.Reps {
		order[i], _ = slices.BinarySearch(reps, r.Rep)
	}
	return order
}

// doubleCentred is rows[i][r] with each row's mean and each column's
// mean taken out (the residuals of the two-way fit), row by row.
func doubleCentred(rows [][]float64) []float64 {
	n := len(rows[0])
	all, colMean := 0.0, make([]float64, n)
	rowMean := make([]float64, len(rows))
	for i, row := range rows {
		for r, v := range row {
			rowMean[i] += v / float64(n)
			colMean[r] += v / float64(len(rows))
			all += v / float64(n*len(rows))
		}
	}
	out := make([]float64, 0, n*len(rows))
	for i, row := range rows {
		for r, v := range row {
			out = append(out, v-rowMean[i]-colMean[r]+all)
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
