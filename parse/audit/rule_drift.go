package audit

import (
	"fmt"
	"math"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

const RuleDrift = "drift" // req/s rising or falling at every repetition, in more cells than chance gives

// drift fires when every repetition is above (or below) the one before
// and the whole change exceeds the noise threshold.
func drift(c *verdict.Cell, th verdict.Thresholds) (Finding, bool) {
	v := c.RPS.Values
	if len(v) < th.DriftReps || v[0] <= 0 {
		return Finding{}, false
	}
	up, down := true, true
	for i := 1; i < len(v); i++ {
		up = up && v[i] > v[i-1]
		down = down && v[i] < v[i-1]
	}
	change := v[len(v)-1]/v[0] - 1
	if !(up || down) || !(math.Abs(change) > th.Noise) {
		return Finding{}, false
	}
	way := "rose"
	if down {
		way = "fell"
	}
	return cellFinding(c, RuleDrift, LevelWarning, fmt.Sprintf(
		"req/s %s at every one of %d repetitions (%s to %s, %+.1f%%)",
		way, len(v), parse.FormatCount(v[0]), parse.FormatCount(v[len(v)-1]), change*100), nil), true
}

// driftFindings reports drift only beyond chance: a cell's repetitions all
// rise or all fall with probability 2/n! when nothing drifts, so over many
// cells some do. One finding per run names the cells, when their number is
// above what chance gives at α.
func driftFindings(runs map[string]*parse.Run, cells []*verdict.Cell, th verdict.Thresholds) []Finding {
	var fs []Finding
	ids, byRun := runGroups(cells)
	for _, id := range ids {
		drifting, eligible, chance, p := beyondChance(byRun[id], th.DriftReps,
			func(n int) float64 { return 2 / math.Gamma(float64(n+1)) },
			func(c *verdict.Cell) bool { _, ok := drift(c, th); return ok })
		if len(drifting) == 0 || !(p < th.Alpha) {
			continue
		}
		fs = append(fs, Finding{Rule: RuleDrift, Level: LevelWarning, Run: id, Dumps: dumpsOfCells(drifting),
			Message: fmt.Sprintf("req/s rose or fell at every repetition in %d of %d cells, where chance gives about %.1f (p=%.2g): the host or the servers drift over the run (heat, frequency scaling, a leak): %s. %s",
				len(drifting), eligible, chance, p, cellList(drifting), capitalize(runAdvice(runs[id]).hostRemedy()))})
	}
	return fs
}
