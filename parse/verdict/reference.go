package verdict

import (
	"math"
	"sort"
)

// A family of k cells decided pair by pair holds k(k−1)/2 verdicts, which
// grows past what memory and results.json can hold for a folder of
// thousands of loose dumps, each its own target. Past MaxPairwise cells a scenario is decided against one
// reference instead, k − 1 pairs with Holm over those, and ranks come
// from each cell's own interval rather than from the pairs: memory and
// time stay linear in the cells (the ranks sort k intervals). With that
// many targets no page shows every pair anyway, and the question a reader
// can still ask of the family is how each stands against the reference.

// MaxPairwise is the most cells a scenario's family decides pair by pair
// (4,950 pairs); larger families are decided against a reference.
const MaxPairwise = 100

// decideByReference decides cells (more than MaxPairwise of one scenario
// of one run) each against the reference: the A/A pair's first target
// when the floor has one among the cells, else the first by name. Never
// one picked by its numbers: the fastest of 120 identical targets is
// fast by chance, and tests against it claimed a difference on 31 of 200
// simulated null pages (α = 0.05 allows 19). Pairs keep the records'
// A < B order; Pair answers only pairs with the reference. Ranks are
// from intervals (intervalRanks).
func decideByReference(cells []*Cell, m Metric, th Thresholds, floor Floor, bound map[*Cell]bool) *ScenarioVerdicts {
	sv := &ScenarioVerdicts{Run: cells[0].Run, Scenario: cells[0].Scenario, Hosts: cells[0].Hosts, Metric: m,
		Floor: floor, ClientBound: map[*Cell]bool{}, index: map[[2]*Cell]int{}}
	sv.Cells = sortByEstimate(cells, m, th)
	ref := sv.Cells[0]
	for _, c := range sv.Cells {
		if bound[c] {
			sv.ClientBound[c] = true
		}
		if c.Name < ref.Name {
			ref = c
		}
	}
	for _, c := range sv.Cells {
		if floor.Pair[0] != "" && c.Name == floor.Pair[0] {
			ref = c
		}
	}
	others := make([]*Cell, 0, len(cells)-1)
	for _, c := range sv.Cells {
		if c != ref {
			others = append(others, c)
		}
	}
	sort.SliceStable(others, func(i, j int) bool { return others[i].Name < others[j].Name })
	sv.Pairs = make([]Verdict, 0, len(others))
	for _, o := range others {
		a, b := ref, o
		if a.Name > b.Name {
			a, b = b, a
		}
		sv.Pairs = append(sv.Pairs, Verdict{Run: sv.Run, Scenario: sv.Scenario, A: a.Name, B: b.Name, CellA: a, CellB: b})
	}
	// Sorted by A then B, as the pairwise family's are.
	sort.SliceStable(sv.Pairs, func(i, j int) bool {
		if sv.Pairs[i].A != sv.Pairs[j].A {
			return sv.Pairs[i].A < sv.Pairs[j].A
		}
		return sv.Pairs[i].B < sv.Pairs[j].B
	})
	for i, v := range sv.Pairs {
		sv.index[[2]*Cell{v.CellA, v.CellB}] = i
	}
	sv.Family = Judge(sv.Pairs, m, th, floor, bound)
	sv.Ranks = intervalRanks(sv.Cells, m, th)
	return sv
}

// intervalRanks ranks the cells that can be tested from intervals of
// their own: each cell's geometric mean at confidence 1 − α/k (Bonferroni
// over the k ranked, so that every interval holds at once with 1 − α),
// widened by the noise floor on each side. Lo = 1 + the cells whose
// interval lies wholly above this one's, Hi = k − those wholly below: a
// cell's place is a range no overlap contradicts. It sorts the interval
// ends once, so its cost is k log k.
func intervalRanks(cells []*Cell, m Metric, th Thresholds) []Rank {
	type span struct{ lo, hi float64 }
	spans := make([]span, len(cells))
	var los, his []float64
	tested := make([]bool, len(cells))
	for i, c := range cells {
		tested[i], _ = Testable(c, m, th)
	}
	k := 0
	for _, ok := range tested {
		if ok {
			k++
		}
	}
	widen := math.Log1p(th.Noise)
	for i, c := range cells {
		if !tested[i] {
			continue
		}
		v := c.Stat(m).Values
		mean, variance := LogMeanVar(v)
		half := studentQuantile(1-th.Alpha/float64(2*k), float64(len(v)-1)) * math.Sqrt(variance/float64(len(v)))
		spans[i] = span{mean - half - widen, mean + half + widen}
		los, his = append(los, spans[i].lo), append(his, spans[i].hi)
	}
	sort.Float64s(los)
	sort.Float64s(his)
	out := make([]Rank, len(cells))
	for i, c := range cells {
		out[i] = Rank{Cell: c}
		if !tested[i] {
			continue
		}
		above := len(los) - sort.Search(len(los), func(j int) bool { return los[j] > spans[i].hi })
		below := sort.Search(len(his), func(j int) bool { return his[j] >= spans[i].lo })
		out[i] = Rank{Cell: c, Lo: 1 + above, Hi: k - below, Ranked: true}
	}
	return out
}
