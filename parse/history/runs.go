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
	// Twins are the run's A/A pairs, each the two target names of one
	// program: a pair per runtime where the suite named several
	// (aa_pairs), else its one aa_pair; none when the run has none. A
	// place is read against the pair of its own runtime (controlPair).
	Twins [][2]string
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
		r.Twins = pr.Pairs()
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

// twinPlace is the place of twin i of pair in scenario; false when the
// run did not measure it there.
func (r *Run) twinPlace(pair [2]string, i int, scenario string) (Place, bool) {
	if pair[i] == "" {
		return Place{}, false
	}
	for p := range r.Cells {
		if p.Scenario == scenario && p.Target == pair[i] {
			return p, true
		}
	}
	return Place{}, false
}

// hasPair reports whether the run names pair and measured both its twins
// in scenario, twice each at least.
func (r *Run) hasPair(pair [2]string, scenario string) bool {
	if !slices.Contains(r.Twins, pair) {
		return false
	}
	for i := range 2 {
		if q, ok := r.twinPlace(pair, i, scenario); !ok || len(r.Cells[q]) < 2 {
			return false
		}
	}
	return true
}

// isTwin reports whether target is a twin of one of the run's pairs.
func (r *Run) isTwin(target string) bool {
	_, ok := r.pairOf(target)
	return ok
}

// pairOf is the pair target is a twin of.
func (r *Run) pairOf(target string) ([2]string, bool) {
	for _, pair := range r.Twins {
		if target != "" && (target == pair[0] || target == pair[1]) {
			return pair, true
		}
	}
	return [2]string{}, false
}

// isSecondTwin reports whether target is the second of a pair: its
// series mirrors the first twin's.
func (r *Run) isSecondTwin(target string) bool {
	pair, ok := r.pairOf(target)
	return ok && target == pair[1]
}

// controlPair is the pair place p is read against in every one of runs
// (the new run or the history first): of the first run's pairs for p
// (pairsFor), the first that every run names and measured in p's
// scenario. False when none serves every run.
func controlPair(runs []*Run, p Place) ([2]string, bool) {
	if len(runs) == 0 {
		return [2]string{}, false
	}
	for _, pair := range runs[0].pairsFor(p) {
		everywhere := true
		for _, r := range runs {
			everywhere = everywhere && r.hasPair(pair, p.Scenario)
		}
		if everywhere {
			return pair, true
		}
	}
	return [2]string{}, false
}

// controls are the pair each of runs reads place p against: one pair
// every run measured where there is one (controlPair); else each run's own
// best (pairsFor: runs whose suites named their twins otherwise). ok
// reports whether every run measured its pair in p's scenario; where one
// did not, its level is read alone (controlled).
func controls(runs []*Run, p Place) (pairs [][2]string, ok bool) {
	pairs = make([][2]string, len(runs))
	if pair, found := controlPair(runs, p); found {
		for i := range pairs {
			pairs[i] = pair
		}
		return pairs, true
	}
	ok = len(runs) > 0
	for i, r := range runs {
		ps := r.pairsFor(p)
		if len(ps) == 0 {
			ok = false
			continue
		}
		pairs[i] = ps[0]
		ok = ok && r.hasPair(ps[0], p.Scenario)
	}
	return pairs, ok
}

// pairsFor are the pairs place p may be read against, best first: a
// twin's own pair alone; else the pairs whose first twin ran on p's
// runtime in p's scenario, then the others. A day moves the programs of
// one runtime together against another's (a Go server against Node
// twins), so a place read against twins of its own runtime sees that
// movement cancel.
func (r *Run) pairsFor(p Place) [][2]string {
	if own, ok := r.pairOf(p.Target); ok {
		return [][2]string{own}
	}
	var same, other [][2]string
	for _, pair := range r.Twins {
		if q, ok := r.twinPlace(pair, 0, p.Scenario); ok && p.Runtime != "" && q.Runtime == p.Runtime {
			same = append(same, pair)
		} else {
			other = append(other, pair)
		}
	}
	return append(same, other...)
}
