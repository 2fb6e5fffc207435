package verdict

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/fairbench/fairbench/parse"
)

// A calibration run (a suite whose targets name planted_on: e.g.
// site/suites/planted.toml) measures one plain server and copies of it with
// a known cost added per request. Whether the run's own verdicts tell each
// copy from its base, the right way round, is the host's resolving power
// at the run's settings: what a publisher can show next to every other
// verdict of the site.

// PlantedDiff is one planted target against its base in one scenario.
type PlantedDiff struct {
	Run, Scenario string
	Target, Base  string
	Cells         [2]*Cell // the base's and the planted target's
	// Cost is how much more server CPU time per request the planted
	// target took than its base, measured (−1 + the base's requests per
	// CPU second ÷ the planted's); NaN where CPU was not recorded.
	Cost float64
	// Verdict is the decision on the pair, as every page shows it.
	Verdict Verdict
	// Resolved: the base was claimed faster. Wrong: the planted target
	// was claimed faster, a claim against what was planted.
	Resolved, Wrong bool
}

// Resolving is what one calibration run resolved.
type Resolving struct {
	Run     string
	Reps    int           // repetitions per cell (the median)
	Window  time.Duration // the measured window (the median)
	Planted []PlantedDiff // by scenario, then cost
	// Unmeasured are the planted targets whose pair with their base was
	// not decided in some scenario of the run, by target.
	Unmeasured []Unmeasured
	// TwinsClaimed counts the scenarios whose A/A twins were claimed
	// apart, of Twins scenarios with both measured.
	TwinsClaimed, Twins int
	// Smallest is the smallest measured cost resolved in every scenario
	// where it was measured; NaN when none was.
	Smallest float64
	// Missed is the largest measured cost (above 0) not resolved
	// somewhere; NaN when every planted difference was.
	Missed float64
}

// Unmeasured is a planted target not measured against its base.
type Unmeasured struct {
	Target, Base string
	// Scenarios are those of the run without the pair; nil when the pair
	// was in none (or the run has no scenario at all).
	Scenarios []string
}

// Monotone reports whether every planted cost the run missed is below
// the smallest it resolved: only then does Smallest bound what the run's
// verdicts tell apart.
func (r Resolving) Monotone() bool { return !(r.Missed >= r.Smallest) }

// ResolvingPower is each calibration run's result: the planted pairs of
// runs in set whose run.json names planted targets, as d decided them.
func ResolvingPower(set *parse.Set, d *Verdicts) []Resolving {
	var out []Resolving
	for _, run := range set.Runs {
		if len(run.Planted) == 0 {
			continue
		}
		r := Resolving{Run: run.ID, Smallest: math.NaN(), Missed: math.NaN()}
		resolvedAll, missed := map[string]bool{}, map[string]bool{}
		// Scenarios of the run, and where each planted pair was decided:
		// a scenario may have a family per host pair.
		scenarios, decided := map[string]bool{}, map[[2]string]bool{}
		for _, sv := range d.Scenarios {
			if sv.Run != run.ID {
				continue
			}
			scenarios[sv.Scenario] = true
			r.countTwins(sv)
			for target, base := range run.Planted {
				p, ok := plantedDiff(sv, target, base)
				if !ok {
					continue
				}
				decided[[2]string{target, sv.Scenario}] = true
				r.Planted = append(r.Planted, p)
				if _, seen := resolvedAll[target]; !seen {
					resolvedAll[target] = true
				}
				resolvedAll[target] = resolvedAll[target] && p.Resolved
				missed[target] = missed[target] || !p.Resolved
			}
		}
		r.Unmeasured = unmeasured(run.Planted, slices.Sorted(maps.Keys(scenarios)), decided)
		slices.SortFunc(r.Planted, func(a, b PlantedDiff) int {
			if a.Scenario != b.Scenario {
				return cmp.Compare(a.Scenario, b.Scenario)
			}
			return cmp.Compare(a.Cost, b.Cost)
		})
		r.bounds(resolvedAll, missed)
		r.Reps, r.Window, _ = d.Settings(run.ID)
		out = append(out, r)
	}
	return out
}

// bounds sets Smallest and Missed from r.Planted: resolvedAll says which
// targets were resolved in every scenario, missed which were not in some.
func (r *Resolving) bounds(resolvedAll, missed map[string]bool) {
	for _, p := range r.Planted {
		switch {
		case math.IsNaN(p.Cost):
		case resolvedAll[p.Target] && !(p.Cost >= r.Smallest):
			r.Smallest = p.Cost
		case missed[p.Target] && p.Cost > 0 && !(p.Cost <= r.Missed):
			r.Missed = p.Cost
		}
	}
}

// unmeasured are the planted targets (target → base) whose pair was
// not decided in some of scenarios, as decided ([target, scenario]) says.
func unmeasured(planted map[string]string, scenarios []string, decided map[[2]string]bool) []Unmeasured {
	var out []Unmeasured
	for _, target := range slices.Sorted(maps.Keys(planted)) {
		u := Unmeasured{Target: target, Base: planted[target]}
		for _, s := range scenarios {
			if !decided[[2]string{target, s}] {
				u.Scenarios = append(u.Scenarios, s)
			}
		}
		switch len(u.Scenarios) {
		case 0:
			if len(scenarios) > 0 {
				continue
			}
		case len(scenarios):
			u.Scenarios = nil
		}
		out = append(out, u)
	}
	return out
}

// plantedDiff is the planted target against its base in one family.
func plantedDiff(sv *ScenarioVerdicts, target, base string) (PlantedDiff, bool) {
	var bc, pc *Cell
	for _, c := range sv.Cells {
		switch {
		case c.is(base):
			bc = c
		case c.is(target):
			pc = c
		}
	}
	if bc == nil || pc == nil {
		return PlantedDiff{}, false
	}
	v, ok := sv.Pair(bc, pc)
	if !ok {
		return PlantedDiff{}, false
	}
	p := PlantedDiff{Run: sv.Run, Scenario: sv.Scenario, Target: pc.Name, Base: bc.Name,
		Cells: [2]*Cell{bc, pc}, Cost: math.NaN(), Verdict: v}
	if eb, ep := bc.Efficiency.GeoMean, pc.Efficiency.GeoMean; eb > 0 && ep > 0 {
		p.Cost = eb/ep - 1
	}
	switch v.Faster() {
	case bc:
		p.Resolved = true
	case pc:
		p.Wrong = true
	}
	return p, true
}

// countTwins adds sv's A/A pairs, each where both were measured, to the
// count.
func (r *Resolving) countTwins(sv *ScenarioVerdicts) {
	for _, pair := range sv.Floor.Pairs {
		a, b := AACells(sv.Cells, pair)
		if a == nil || b == nil {
			continue
		}
		v, ok := sv.Pair(a, b)
		if !ok || v.Family == 0 {
			continue
		}
		r.Twins++
		if v.Claimed() {
			r.TwinsClaimed++
		}
	}
}

// Settings are the repetitions per cell and the measured window of a run,
// each the median over its cells; ok is false for a run with no cell.
func (d *Verdicts) Settings(run string) (reps int, window time.Duration, ok bool) {
	var ns, windows []float64
	for _, sv := range d.Scenarios {
		if sv.Run != run {
			continue
		}
		for _, c := range sv.Cells {
			ns = append(ns, float64(c.RPS.N))
			for _, m := range c.Reps {
				windows = append(windows, float64(RanFor(m)))
			}
		}
	}
	if len(ns) == 0 {
		return 0, 0, false
	}
	return int(MedianOf(ns)), time.Duration(MedianOf(windows)), true
}
