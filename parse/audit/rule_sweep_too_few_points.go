package audit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// RuleSweepPoints: a saturation curve (throughput against connections)
// measured on too few connection counts, or with one repetition per count.
const RuleSweepPoints = "sweep-too-few-points"

// The sweep's bounds, and why.
const (
	// minSweepCounts is the fewest connection counts a curve needs for its
	// knee: throughput must be seen growing (two points) and then flat
	// while latency grows (two more); with three, one noisy point makes or
	// hides the knee.
	minSweepCounts = 4
	// minSweepReps is the fewest repetitions per count: with one, nothing
	// says whether two neighbouring points differ or only their noise does,
	// and the chart cannot show the spread it promises.
	minSweepReps = 2
)

// sweepFindings reports the sweep cells (a target on a scenario of a run,
// Phase sweep, warm-ups aside) measured on fewer than minSweepCounts
// connection counts or with fewer than minSweepReps repetitions at some
// count, folded to one finding for a run where every sweep cell has it.
func sweepFindings(set *parse.Set) []Finding {
	type key struct{ run, target, scenario string }
	points := map[key]map[int][]*parse.Measurement{}
	for _, m := range set.Measurements {
		if m.Warmup || m.Phase != parse.PhaseSweep {
			continue
		}
		k := key{m.Run, m.Target, m.Scenario}
		if points[k] == nil {
			points[k] = map[int][]*parse.Measurement{}
		}
		points[k][m.Connections] = append(points[k][m.Connections], m)
	}
	keys := make([]key, 0, len(points))
	for k := range points {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		return verdict.PlaceLess(a.run, a.scenario, a.target, b.run, b.scenario, b.target)
	})
	var seen, thin []place
	for _, k := range keys {
		var counts []int
		var all []*parse.Measurement
		fewest := -1
		for conns, ms := range points[k] {
			counts = append(counts, conns)
			all = append(all, ms...)
			if fewest < 0 || len(ms) < fewest {
				fewest = len(ms)
			}
		}
		sort.Ints(counts)
		p := place{run: k.run, target: k.target, scenario: k.scenario, dumps: verdict.DumpsOf(all)}
		seen = append(seen, p)
		if len(counts) >= minSweepCounts && fewest >= minSweepReps {
			continue
		}
		names := make([]string, len(counts))
		for i, n := range counts {
			names[i] = fmt.Sprint(n)
		}
		p.evidence = fmt.Sprintf("%d connection counts (%s), %s at the fewest", len(counts), strings.Join(names, ", "), parse.Plural(fewest, "repetition"))
		thin = append(thin, p)
	}
	return fold(foldSpec{rule: RuleSweepPoints, level: LevelWarning, message: func(scope string, ev []string) string {
		return fmt.Sprintf("the saturation curve rests on too few points %s(%s): a knee needs at least %d connection counts (growth, then a plateau) and %d repetitions at each to be told from noise; sweep more counts, each repeated",
			scopeSpace(scope), evidenceList(ev), minSweepCounts, minSweepReps)
	}}, seen, thin)
}
