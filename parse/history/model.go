package history

import (
	"math"
	"slices"

	"github.com/fairbench/fairbench/parse/verdict"
)

// part is one variance component of a difference, with its degrees of
// freedom, for Welch–Satterthwaite.
type part struct{ v, df float64 }

// level is a cell's log mean and the variance of that mean.
func level(v []float64) (m float64, p part) {
	m, s2 := verdict.LogMeanVar(v)
	return m, part{s2 / float64(len(v)), float64(len(v) - 1)}
}

// runLevel is the twins' estimate of the run-level variance of one
// target's log throughput: each run and scenario where both twins have two
// repetitions or more gives their squared difference of log means (D2, its
// mean) and that difference's within-run variance (W, its mean, on WDF
// degrees of freedom); (D2 − W) / 2 estimates the variance.
type runLevel struct {
	D2, W      float64
	Pairs, WDF int
}

// tau2 is the estimate, at least 0.
func (l runLevel) tau2() float64 { return math.Max(0, (l.D2-l.W)/2) }

// parts are the estimate times c as variance parts for Satterthwaite: the
// squared differences on Pairs degrees of freedom less the within part on
// WDF, so that an estimate made of two near-equal terms counts as the
// uncertain one it is. None when the estimate is 0.
func (l runLevel) parts(c float64) []part {
	if l.Pairs == 0 || l.tau2() == 0 {
		return nil
	}
	return []part{{c * l.D2 / 2, float64(l.Pairs)}, {-c * l.W / 2, float64(l.WDF)}}
}

// levels reads the places of one scenario of one run: each place's log
// level and the variance of it (level). Where every place of the scenario
// ran in the same recorded rounds, each once, and there are three places
// or more, the round effects of a two-way fit (log throughput = place +
// round + residual) are taken out first: a value less its round's mean
// over the scenario's places. What the host's speed did to a round's
// turns then cancels instead of widening every place's variance; a
// difference of two places' levels is their mean difference round by
// round, and each place's variance is its residuals' on (n−1)(k−1)/k
// degrees of freedom (k places), so that a difference keeps the degrees of
// freedom of its three cells' Satterthwaite sum.
func levels(r *Run, scenario string) func(Place) (float64, part) {
	if lv, ok := r.levelsOf[scenario]; ok {
		return lv
	}
	lv := readLevels(r, scenario)
	if r.levelsOf == nil {
		r.levelsOf = map[string]func(Place) (float64, part){}
	}
	r.levelsOf[scenario] = lv
	return lv
}

// readLevels is levels, read from the cells.
func readLevels(r *Run, scenario string) func(Place) (float64, part) {
	plain := func(p Place) (float64, part) { return level(r.Cells[p]) }
	var places []Place
	var rounds []int
	for _, p := range r.places() {
		if p.Scenario != scenario {
			continue
		}
		got := slices.Sorted(slices.Values(r.Rounds[p]))
		if len(got) != len(r.Cells[p]) || len(slices.Compact(slices.Clone(got))) != len(got) {
			return plain
		}
		if len(places) == 0 {
			rounds = got
		} else if !slices.Equal(got, rounds) {
			return plain
		}
		places = append(places, p)
	}
	k, n := float64(len(places)), float64(len(rounds))
	if k < 3 || n < 2 {
		return plain
	}
	at := map[int]int{} // a round's place in rounds
	for i, round := range rounds {
		at[round] = i
	}
	logs := map[Place][]float64{}
	mean := make([]float64, len(rounds)) // each round's mean over the places
	for _, p := range places {
		v := make([]float64, len(rounds))
		for i, x := range r.Cells[p] {
			v[at[r.Rounds[p][i]]] = math.Log(x)
		}
		logs[p] = v
		for i, x := range v {
			mean[i] += x / k
		}
	}
	df := (n - 1) * (k - 1) / k
	return func(p Place) (float64, part) {
		v, ok := logs[p]
		if !ok {
			return plain(p)
		}
		m := 0.0
		for i, x := range v {
			m += (x - mean[i]) / n
		}
		ss := 0.0
		for i, x := range v {
			e := x - mean[i] - m
			ss += e * e
		}
		return m, part{ss / df / n, df}
	}
}

// runVariance pools the twin pairs of runs into a runLevel, their levels
// read round by round where the run recorded its rounds (levels).
func runVariance(runs []*Run) runLevel {
	var l runLevel
	for _, r := range runs {
		for _, sc := range r.scenarios() {
			for _, pair := range r.Twins {
				if !r.hasPair(pair, sc) {
					continue
				}
				pa, _ := r.twinPlace(pair, 0, sc)
				pb, _ := r.twinPlace(pair, 1, sc)
				lv := levels(r, sc)
				ma, wa := lv(pa)
				mb, wb := lv(pb)
				d := ma - mb
				l.D2 += d * d
				l.W += wa.v + wb.v
				l.WDF += int(math.Round(wa.df + wb.df))
				l.Pairs++
			}
		}
	}
	if l.Pairs > 0 {
		l.D2 /= float64(l.Pairs)
		l.W /= float64(l.Pairs)
	}
	return l
}

// scenarios lists the scenarios a run holds, sorted.
func (r *Run) scenarios() []string {
	var out []string
	for _, p := range r.places() {
		if len(out) == 0 || out[len(out)-1] != p.Scenario {
			out = append(out, p.Scenario)
		}
	}
	return out
}

// controlled is a place's log level in one run read against pair (its
// control, controlPair), with its within-run variance parts; levels read
// round by round where the run recorded its rounds (levels). Where the run
// lacks the pair in the scenario, or pair is none, the level is p's own.
func controlled(r *Run, p Place, pair [2]string) (y float64, parts []part, ok bool) {
	if len(r.Cells[p]) < 2 {
		return 0, nil, false
	}
	lv := levels(r, p.Scenario)
	m, pm := lv(p)
	qa, okA := r.twinPlace(pair, 0, p.Scenario)
	qb, okB := r.twinPlace(pair, 1, p.Scenario)
	if !okA || !okB || len(r.Cells[qa]) < 2 || len(r.Cells[qb]) < 2 {
		return m, []part{pm}, true
	}
	ma, pa := lv(qa)
	mb, pb := lv(qb)
	switch p.Target { // a twin is read against its sibling
	case pair[0]:
		return m - mb, []part{pm, pb}, true
	case pair[1]:
		return m - ma, []part{pm, pa}, true
	}
	return m - (ma+mb)/2, []part{pm, {pa.v / 4, pa.df}, {pb.v / 4, pb.df}}, true
}

// placeLevels are place p's controlled levels: the new run's first, then
// each baseline's that holds two repetitions of p, with each level's
// within-run variance parts; nil when the new run or every baseline lacks
// two repetitions. The control is a pair every run involved measured in
// the scenario (controls); without one the levels are p's own, and a twin
// has none.
func placeLevels(base []*Run, next *Run, p Place) (ys []float64, within [][]part, control bool) {
	twin := next.isTwin(p.Target)
	runs := []*Run{next}
	for _, b := range base {
		if len(b.Cells[p]) >= 2 {
			runs = append(runs, b)
		}
	}
	if len(runs) == 1 || len(next.Cells[p]) < 2 {
		return nil, nil, false
	}
	pairs, control := controls(runs, p)
	if twin && !control {
		return nil, nil, false
	}
	for i, r := range runs {
		var y float64
		var parts []part
		if control {
			y, parts, _ = controlled(r, p, pairs[i])
		} else {
			var pm part
			y, pm = level(r.Cells[p])
			parts = []part{pm}
		}
		ys = append(ys, y)
		within = append(within, parts)
	}
	return ys, within, control
}

// historySpread pools the scatter over the runs (the new one and the
// baselines) of every gated place of next (spread).
func historySpread(base []*Run, next *Run) spread {
	var s spread
	for _, p := range next.places() {
		if next.isTwin(p.Target) {
			continue
		}
		if ys, within, _ := placeLevels(base, next, p); len(ys) > 2 {
			s.add(ys, within)
		}
	}
	s.finish()
	return s
}

// decidePlace computes p's row (all but the Holm step); false when the new
// run or every baseline lacks two repetitions of it (placeLevels). The
// run-level variance counted is the larger of the twins' (rl) and the
// history's own (hs).
func decidePlace(base []*Run, next *Run, p Place, rl runLevel, hs spread, o GateOptions) (Row, bool) {
	ys, levels, control := placeLevels(base, next, p)
	if ys == nil {
		return Row{}, false
	}
	twin := next.isTwin(p.Target)
	k := len(ys) - 1
	var within []part
	for i, parts := range levels {
		scale := 1.0
		if i > 0 {
			scale = 1 / float64(k*k)
		}
		for _, pt := range parts {
			within = append(within, part{pt.v * scale, pt.df})
		}
	}
	mean := 0.0
	for _, y := range ys[1:] {
		mean += y
	}
	d := ys[0] - mean/float64(k)
	// The run-level effect enters once for the place itself and, through
	// the control, half again (the twins' mean) or once (a sibling twin).
	// The history's spread already holds the control's share: it is the
	// scatter of controlled levels.
	a := 1.0
	switch {
	case twin:
		a = 2
	case control:
		a = 1.5
	}
	c := 1 + 1/float64(k)
	run := rl.parts(a * c)
	if !twin && hs.tau2() > a*rl.tau2() {
		run = hs.parts(c)
	}
	se, df := satterthwaite(append(within, run...))
	row := Row{Place: p, Ratio: math.Exp(d), DF: df, Baselines: k, Twin: twin}
	t := d / se
	switch {
	case se == 0 && d < 0:
		row.P = 0
	case se == 0:
		row.P = 1
	case t < 0:
		row.P = verdict.StudentTwoSided(t, df) / 2
	default:
		row.P = 1 - verdict.StudentTwoSided(t, df)/2
	}
	q := tCritical(2*o.Alpha, df)
	row.Low, row.High = math.Exp(d-q*se), math.Exp(d+q*se)
	return row, true
}

// satterthwaite returns the sd of a sum of independent variance parts and
// its Welch–Satterthwaite degrees of freedom (capped at 1e6).
func satterthwaite(parts []part) (se, df float64) {
	v, den := 0.0, 0.0
	for _, p := range parts {
		v += p.v
		if p.df > 0 {
			den += p.v * p.v / p.df
		}
	}
	if den == 0 {
		return math.Sqrt(v), 1e6
	}
	return math.Sqrt(v), math.Min(1e6, v*v/den)
}

// tCritical is the t with P(|T| ≥ t) = p for df degrees of freedom, by
// bisection on verdict.StudentTwoSided (monotone in t).
func tCritical(p, df float64) float64 {
	lo, hi := 0.0, 1e4
	for range 200 {
		mid := (lo + hi) / 2
		if verdict.StudentTwoSided(mid, df) > p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}
