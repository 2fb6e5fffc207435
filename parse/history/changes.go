package history

import (
	"math"
	"slices"
)

// Change is a step in one target's history in one scenario, as
// results.json lists it under "changes": Run is the id of the first run
// after the step, Ratio the level after ÷ the level before (both read
// against the twins), Low and High its 95% interval.
type Change struct {
	Suite    string  `json:"suite"`
	Target   string  `json:"target"`
	Runtime  string  `json:"-"`
	Scenario string  `json:"scenario"`
	Run      string  `json:"run"`
	Ratio    float64 `json:"ratio"`
	Low      float64 `json:"low"`
	High     float64 `json:"high"`
	// Why is what changed in the target between the last run before the
	// step and the first after it: its packages' versions, "pkg: a → b".
	Why []string `json:"why,omitempty"`
}

// Break is where a history's lines break: the run whose comparability key
// differs from the run before, and what changed.
type Break struct {
	Run string   `json:"run"`
	Why []string `json:"why"`
}

// Entry is one run of a history with its comparability key.
type Entry struct {
	Run *Run
	Key Key
	// Versions are each target's package versions in the run, by target
	// name, as a key ("package" → version), for saying what changed at a
	// step; nil where the run dir does not say.
	Versions map[string]Key
}

// Steps are a history's findings: the changes of its targets, its breaks,
// and the changes found on the twins' own series (TwinAlarms), which are
// false alarms by construction and are counted, never listed.
type Steps struct {
	Changes    []Change
	Breaks     []Break
	TwinAlarms int
	// Series counts the place × key-segment series searched.
	Series int
}

// Find searches the history of one suite, runs in the order they ran, for
// changes: each place's level read against its run's twins, split where
// the key changes, segmented by ChangePoints at Penalty with the noise of
// one point the larger of the twins' model (repetitions' variance plus the
// run-level variance the twins show) and NoiseSD's robust estimate. Changes is empty, not nil, when none.
func Find(suite string, hist []Entry) Steps {
	st := Steps{Changes: []Change{}}
	cuts := []int{0}
	for i := 1; i < len(hist); i++ {
		if d := hist[i-1].Key.Diff(hist[i].Key); len(d) > 0 {
			st.Breaks = append(st.Breaks, Break{Run: hist[i].Run.ID, Why: d})
			cuts = append(cuts, i)
		}
	}
	cuts = append(cuts, len(hist))
	// The twins' run-level variance is one per key segment, whatever the
	// place: pooled once, not once a series.
	rls := make([]runLevel, len(cuts))
	for c := 1; c < len(cuts); c++ {
		seg := hist[cuts[c-1]:cuts[c]]
		runs := make([]*Run, len(seg))
		for i, e := range seg {
			runs[i] = e.Run
		}
		rls[c] = runVariance(runs)
	}
	for _, p := range historyPlaces(hist) {
		for c := 1; c < len(cuts); c++ {
			st.search(suite, hist[cuts[c-1]:cuts[c]], p, rls[c])
		}
	}
	return st
}

// search finds the changes of place p in one key segment of a history
// whose twins' run-level variance is rl.
func (st *Steps) search(suite string, hist []Entry, p Place, rl runLevel) {
	var y []float64
	var at []int // y[i] is of hist[at[i]]
	twin := false
	within := 0.0
	var runs []*Run // the segment's runs that measured p, and their controls
	for _, e := range hist {
		if len(e.Run.Cells[p]) >= 2 {
			runs = append(runs, e.Run)
		}
	}
	pairs, _ := controls(runs, p)
	control := map[*Run][2]string{}
	for i, r := range runs {
		control[r] = pairs[i]
	}
	for i, e := range hist {
		if e.Run.isSecondTwin(p.Target) {
			return // the sibling's series mirrors the first twin's
		}
		twin = twin || e.Run.isTwin(p.Target)
		if v, parts, ok := controlled(e.Run, p, control[e.Run]); ok {
			y, at = append(y, v), append(at, i)
			for _, pt := range parts {
				within += pt.v
			}
		}
	}
	if len(y) == 0 {
		return
	}
	// The model's noise of one point: the repetitions' part, and the
	// run-level part the twins estimate (once for the place, half again
	// through the twins' mean, or once more for a sibling twin).
	a := 1.5
	if twin {
		a = 2
	}
	model := math.Sqrt(within/float64(len(y)) + a*rl.tau2())
	sigma := math.Max(NoiseSD(y), model)
	if sigma == 0 {
		return
	}
	st.Series++
	cps := ChangePoints(y, sigma, Penalty(len(y)))
	if twin {
		st.TwinAlarms += len(cps)
		return
	}
	bounds := append(append([]int{0}, cps...), len(y))
	for i, cp := range cps {
		before, after := y[bounds[i]:cp], y[cp:bounds[i+2]]
		d := mean(after) - mean(before)
		se := sigma * math.Sqrt(1/float64(len(before))+1/float64(len(after)))
		q := tCritical(0.05, float64(len(y)-1))
		st.Changes = append(st.Changes, Change{Suite: suite, Target: p.Target, Runtime: p.Runtime, Scenario: p.Scenario,
			Run: hist[at[cp]].Run.ID, Ratio: math.Exp(d), Low: math.Exp(d - q*se), High: math.Exp(d + q*se),
			Why: hist[at[cp-1]].Versions[p.Target].Diff(hist[at[cp]].Versions[p.Target])})
	}
}

// historyPlaces lists every place any run of hist holds, sorted.
func historyPlaces(hist []Entry) []Place {
	all := &Run{Cells: map[Place][]float64{}}
	for _, e := range hist {
		for p := range e.Run.Cells {
			all.Cells[p] = nil
		}
	}
	return slices.Clip(all.places())
}

// mean is the arithmetic mean of v.
func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}
