package verdict

import (
	"math"
	"sort"
)

// Tier is a group of cells of one scenario of one run that the verdicts do
// not tell from the tier's first (highest) cell.
type Tier struct {
	Rank  int     // from 1, the highest tier first
	Cells []*Cell // highest geometric mean first
	// Comparisons[i] is Cells[i] against Cells[0] (Cells[0] against itself
	// is the zero Comparison).
	Comparisons []Comparison
}

// ScenarioTiers are the tiers of one scenario of one run, derived from its
// verdicts. Tiers are not transitive (two cells of different tiers may
// still be "~" with each other); Rank ranges (ScenarioVerdicts.Ranks) are
// the honest summary and pages should prefer them.
type ScenarioTiers struct {
	Run, Scenario string
	Metric        Metric
	Tiers         []Tier
	// Unranked are cells that cannot be ranked: fewer than MinReps
	// repetitions, or no positive number. Sorted by name.
	Unranked []*Cell
}

// Fastest is the only cell of the top tier, or nil when the top tier holds
// more than one cell (then nobody is "the fastest").
func (s ScenarioTiers) Fastest() *Cell {
	if len(s.Tiers) == 0 || len(s.Tiers[0].Cells) != 1 {
		return nil
	}
	return s.Tiers[0].Cells[0]
}

// Tiers groups the scenario's cells in the order of their estimate: the
// highest remaining cell leads a tier, and the tier takes the following
// cells for as long as the leader's verdict with each is "~". Nothing is
// decided here; every boundary is a claimed verdict of the family.
func (d *Verdicts) Tiers(sv *ScenarioVerdicts) ScenarioTiers {
	st := ScenarioTiers{Run: sv.Run, Scenario: sv.Scenario, Metric: sv.Metric}
	var ranked []*Cell
	for _, r := range sv.Ranks {
		if r.Ranked {
			ranked = append(ranked, r.Cell)
		} else {
			st.Unranked = append(st.Unranked, r.Cell)
		}
	}
	sort.Slice(st.Unranked, func(i, j int) bool { return st.Unranked[i].Name < st.Unranked[j].Name })
	for len(ranked) > 0 {
		leader := ranked[0]
		t := Tier{Rank: len(st.Tiers) + 1, Cells: []*Cell{leader}, Comparisons: []Comparison{{}}}
		for _, other := range ranked[1:] {
			c, _ := d.Versus(leader, other)
			if c.Differs {
				break
			}
			t.Cells = append(t.Cells, other)
			t.Comparisons = append(t.Comparisons, c)
		}
		st.Tiers = append(st.Tiers, t)
		ranked = ranked[len(t.Cells):]
	}
	return st
}

// GeoMean is the geometric mean of each target's medians across the
// scenarios of one run in which every target has a valid cell.
type GeoMean struct {
	Run    string
	Metric Metric
	// Scenarios are the scenarios summarised, sorted.
	Scenarios []string
	// Dropped are the scenarios left out because some target has no valid
	// cell in them, sorted.
	Dropped []string
	// Entries are one per target, highest first; empty when no scenario is
	// shared by every target.
	Entries []GeoMeanEntry
}

// GeoMeanEntry is one target's geometric mean.
type GeoMeanEntry struct {
	Name, Target, Runtime string
	Value                 float64
}

// GeoMeans summarises each run's cells on metric m by geometric mean, one
// GeoMean per run, sorted by run.
func GeoMeans(cells []*Cell, m Metric) []GeoMean {
	byRun := map[string][]*Cell{}
	var runs []string
	for _, c := range cells {
		if byRun[c.Run] == nil {
			runs = append(runs, c.Run)
		}
		byRun[c.Run] = append(byRun[c.Run], c)
	}
	sort.Strings(runs)
	out := make([]GeoMean, 0, len(runs))
	for _, run := range runs {
		out = append(out, geoMean(run, byRun[run], m))
	}
	return out
}

func geoMean(run string, cells []*Cell, m Metric) GeoMean {
	g := GeoMean{Run: run, Metric: m}
	valid := map[string]map[string]*Cell{} // scenario → name → cell
	names := map[string]*Cell{}
	for _, c := range cells {
		names[c.Name] = c
		if valid[c.Scenario] == nil {
			valid[c.Scenario] = map[string]*Cell{}
		}
		if c.Stat(m).Valid() {
			valid[c.Scenario][c.Name] = c
		}
	}
	for s, byName := range valid {
		if len(byName) == len(names) {
			g.Scenarios = append(g.Scenarios, s)
		} else {
			g.Dropped = append(g.Dropped, s)
		}
	}
	sort.Strings(g.Scenarios)
	sort.Strings(g.Dropped)
	if len(g.Scenarios) == 0 {
		return g
	}
	for name, c := range names {
		sum := 0.0
		for _, s := range g.Scenarios {
			sum += math.Log(valid[s][name].Stat(m).Median)
		}
		g.Entries = append(g.Entries, GeoMeanEntry{Name: name, Target: c.Target, Runtime: c.Runtime,
			Value: math.Exp(sum / float64(len(g.Scenarios)))})
	}
	sort.Slice(g.Entries, func(i, j int) bool {
		if g.Entries[i].Value != g.Entries[j].Value {
			return g.Entries[i].Value > g.Entries[j].Value
		}
		return g.Entries[i].Name < g.Entries[j].Name
	})
	return g
}
