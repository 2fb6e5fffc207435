package audit

import (
	"math"
	"sort"
)

// Tier is a group of cells of one scenario that are statistically tied with
// the tier's first (highest) cell.
type Tier struct {
	Rank  int     // from 1, the highest tier first
	Cells []*Cell // by median, highest first
	// Comparisons[i] is Cells[i] against Cells[0] (Cells[0] against itself
	// is the zero Comparison).
	Comparisons []Comparison
}

// ScenarioTiers ranks the targets of one scenario of one run in tiers,
// never by bare rank.
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

// Tiers groups cells by run and scenario and ranks each group in tiers on
// metric m. The highest remaining cell leads a tier, and the tier takes the
// following cells, in order of median, for as long as each is tied ("~")
// with the leader, each pair tested on its own (CompareStats). The first
// cell that differs leads the next tier. The result is sorted by run and
// scenario.
//
// No multiplicity correction is applied here: a tier is grown one
// neighbour at a time and stops at the first difference, and with four
// repetitions a side the smallest possible U-test p (2/70) could never pass
// a Holm–Bonferroni bound over more than one comparison, so every scenario
// would be one tier. Holm–Bonferroni is applied where one baseline faces
// many targets at once (CompareBaseline: cards and comparison tables).
func Tiers(cells []*Cell, m Metric, th Thresholds) []ScenarioTiers {
	type key struct{ run, scenario string }
	groups := map[key][]*Cell{}
	var keys []key
	for _, c := range cells {
		k := key{c.Run, c.Scenario}
		if groups[k] == nil {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], c)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].run != keys[j].run {
			return keys[i].run < keys[j].run
		}
		return keys[i].scenario < keys[j].scenario
	})
	out := make([]ScenarioTiers, 0, len(keys))
	for _, k := range keys {
		st := ScenarioTiers{Run: k.run, Scenario: k.scenario, Metric: m}
		var ranked []*Cell
		for _, c := range groups[k] {
			if s := c.Stat(m); s.N >= th.MinReps && s.Valid() {
				ranked = append(ranked, c)
			} else {
				st.Unranked = append(st.Unranked, c)
			}
		}
		sort.Slice(st.Unranked, func(i, j int) bool { return st.Unranked[i].Name < st.Unranked[j].Name })
		st.Tiers = tierCells(ranked, m, th)
		out = append(out, st)
	}
	return out
}

// tierCells splits cells of one scenario into tiers.
func tierCells(cells []*Cell, m Metric, th Thresholds) []Tier {
	sortByMedian(cells, m)
	var tiers []Tier
	for len(cells) > 0 {
		leader, rest := cells[0], cells[1:]
		t := Tier{Rank: len(tiers) + 1, Cells: []*Cell{leader}, Comparisons: []Comparison{{}}}
		for _, other := range rest {
			c := CompareStats(leader.Stat(m), other.Stat(m), th)
			if c.Differs || c.Method == MethodNone {
				break
			}
			t.Cells = append(t.Cells, other)
			t.Comparisons = append(t.Comparisons, c)
		}
		tiers = append(tiers, t)
		cells = cells[len(t.Cells):]
	}
	return tiers
}

// sortByMedian sorts cells by the median of m, highest first, then by name.
func sortByMedian(cells []*Cell, m Metric) {
	sort.SliceStable(cells, func(i, j int) bool {
		a, b := cells[i].Stat(m).Median, cells[j].Stat(m).Median
		if a != b {
			return a > b
		}
		return cells[i].Name < cells[j].Name
	})
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
