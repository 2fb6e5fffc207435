package verdict

import "math"

// The host speed probe as a covariate: an analysis beside the blocked
// test, not yet one the verdicts use.
//
// collect times a fixed loop on the server's CPUs before and after every
// turn (parse.Measurement.HostSpeed). On a virtual machine whose
// neighbours slow a core for minutes at a time, a turn that met a slow
// probe ran slow too: the round differences of a pair carry the difference
// of the host's speed at their two turns. Where the probe reads that
// speed, regressing it out of the differences narrows them; where it does
// not, its slope is near 0 and nothing changes.
//
// Model, stated: log throughput = target + round + β·log probe time +
// residual. The probe runs while no server is loaded and the order within
// a round is random, so the probe is independent of which target ran:
// taking β·(its difference) out of a pair leaves the pair's expected
// difference as it was, and the adjusted estimate is unbiased. β is one
// slope for the family (the host's, not a target's), estimated within
// target and round; its uncertainty is added to each pair's standard
// error.

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

	ft    *familyTest
	speed map[*Cell][]float64 // log probe times in round order
}

// FitSpeed fits the covariate in one family (one scenario of one run, every
// cell of it) on metric m. false where the family is not tested by rounds,
// where a repetition was not probed, or where the fit would keep fewer
// than 2 residual degrees of freedom.
func FitSpeed(family []*Cell, m Metric, th Thresholds) (*SpeedFit, bool) {
	ft := newFamilyTest(family, m, th)
	if !ft.blocked() {
		return nil, false
	}
	f := &SpeedFit{ft: ft, speed: map[*Cell][]float64{}}
	var cells []*Cell
	for _, c := range family {
		ys := ft.byCell[c]
		if ys == nil {
			continue
		}
		s := make([]float64, len(ys))
		rounds := roundIndex(c, ft)
		for i, r := range c.Reps {
			if r.HostSpeed <= 0 {
				return nil, false
			}
			s[rounds[i]] = math.Log(r.HostSpeed)
		}
		f.speed[c] = s
		cells = append(cells, c)
	}
	f.DF = (len(cells)-1)*(ft.rounds-1) - 1
	if f.DF < 2 {
		return nil, false
	}
	y, s := doubleCentred(cells, ft.byCell), doubleCentred(cells, f.speed)
	var sy, ss, yy float64
	for i := range y {
		sy += s[i] * y[i]
		ss += s[i] * s[i]
		yy += y[i] * y[i]
	}
	f.Sigma = math.Sqrt(yy / float64(f.DF+1))
	if ss == 0 {
		f.SigmaAdjusted = f.Sigma
		return f, true
	}
	f.Beta = sy / ss
	rss := 0.0
	for i := range y {
		e := y[i] - f.Beta*s[i]
		rss += e * e
	}
	residual := rss / float64(f.DF)
	f.SigmaAdjusted, f.BetaVar = math.Sqrt(residual), residual/ss
	return f, true
}

// roundIndex is, for each of c's repetitions, its round's place in the
// family's rounds (the order byRound writes).
func roundIndex(c *Cell, ft *familyTest) []int {
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

// PairTest is a against b with the probe's share taken out of each round's
// difference: d − β·(log probe a − log probe b), its mean the adjusted log
// ratio, its standard error from the adjusted differences' spread plus
// β's own uncertainty, n−1 degrees of freedom.
func (f *SpeedFit) PairTest(a, b *Cell) Welch {
	d := f.ft.diffs(a, b)
	sa, sb := f.speed[a], f.speed[b]
	if d == nil || sa == nil || sb == nil {
		return f.ft.test(a, b)
	}
	ds := 0.0
	for r := range d {
		d[r] -= f.Beta * (sa[r] - sb[r])
		ds += (sa[r] - sb[r]) / float64(len(d))
	}
	w := Welch{}
	var v float64
	w.Diff, v = MeanVar(d)
	n := float64(len(d))
	return finishT(w, v/n+f.BetaVar*ds*ds, n-1)
}

// P is the test's two-sided p-value.
func (w Welch) P() float64 { return w.p }
