package history

import (
	"cmp"
	"slices"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// Place is a target in a scenario, the unit the gate decides on.
type Place struct {
	Scenario string `json:"scenario"`
	Target   string `json:"target"`
	Runtime  string `json:"runtime,omitempty"`
}

// Run is one run as the gate reads it: each place's repetitions'
// throughput (req/s, warm-ups excluded), and its A/A twins.
type Run struct {
	ID string
	// Twins are the two target names of the run's A/A pair; empty when the
	// run has none.
	Twins [2]string
	Cells map[Place][]float64
	// Rounds are the round of each of a place's values in Cells (its
	// repetition number: collect's round r is every target's r-th turn);
	// nil for a place whose run did not record the order it ran in.
	Rounds map[Place][]int

	// Read once, on first use (a Run's Cells and Rounds do not change
	// once the gate or Find reads it, and one goroutine reads it): its
	// places in order, and each scenario's levels.
	sorted   []Place
	levelsOf map[string]func(Place) (float64, part)
}

// RunsOf splits a parsed set into its runs, in the set's order of runs.
// Cells a run's gate did not pass, and repetitions without a positive
// throughput, are left out.
func RunsOf(set *parse.Set) []*Run {
	byID := map[string]*Run{}
	var out []*Run
	get := func(id string) *Run {
		if r, ok := byID[id]; ok {
			return r
		}
		r := &Run{ID: id, Cells: map[Place][]float64{}, Rounds: map[Place][]int{}}
		byID[id] = r
		out = append(out, r)
		return r
	}
	for _, pr := range set.Runs {
		r := get(pr.ID)
		if len(pr.AAPair) == 2 {
			r.Twins = [2]string{pr.AAPair[0], pr.AAPair[1]}
		}
	}
	for _, c := range verdict.Cells(set, verdict.DefaultThresholds) {
		if c.Ungated {
			continue
		}
		var v []float64
		var rounds []int
		ordered := true
		for _, m := range c.Reps {
			if x := verdict.ReqPerSec(m); x > 0 {
				v = append(v, x)
				rounds = append(rounds, m.Rep)
				ordered = ordered && m.Order > 0
			}
		}
		if len(v) > 0 {
			r, p := get(c.Run), Place{c.Scenario, c.Target, c.Runtime}
			r.Cells[p] = v
			if ordered {
				r.Rounds[p] = rounds
			}
		}
	}
	return out
}

// places lists a run's places, sorted by scenario, target, runtime.
func (r *Run) places() []Place {
	if len(r.sorted) == len(r.Cells) {
		return r.sorted
	}
	var ps []Place
	for p := range r.Cells {
		ps = append(ps, p)
	}
	slices.SortFunc(ps, func(a, b Place) int {
		return cmp.Or(cmp.Compare(a.Scenario, b.Scenario), cmp.Compare(a.Target, b.Target), cmp.Compare(a.Runtime, b.Runtime))
	})
	r.sorted = ps
	return ps
}

// twin returns the cell of the run's twin i in scenario, or nil.
func (r *Run) twin(i int, scenario string) []float64 {
	p, ok := r.twinPlace(i, scenario)
	if !ok {
		return nil
	}
	return r.Cells[p]
}

// twinPlace is the place of the run's twin i in scenario; false when the
// run did not measure it there.
func (r *Run) twinPlace(i int, scenario string) (Place, bool) {
	if r.Twins[i] == "" {
		return Place{}, false
	}
	for p := range r.Cells {
		if p.Scenario == scenario && p.Target == r.Twins[i] {
			return p, true
		}
	}
	return Place{}, false
}

// isTwin reports whether target is one of the run's twins.
func (r *Run) isTwin(target string) bool {
	return target != "" && (target == r.Twins[0] || target == r.Twins[1])
}
