package audit

import (
	"fmt"
	"slices"
	"sort"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// Rules about the first repetition: one target's warm-up, or the host's
// slow start across the run.
const (
	RuleSlowFirstRep = "slow-first-rep" // the first repetition well below the others: warm-up too short
	RuleHostFirstRep = "host-first-rep" // repetition 1 slowest across the run's cells: the host, not a warm-up
)

// slowFirstRep fires when the first repetition is the slowest and well
// below the median of the others. The first is repetition 1 when it ran
// first: where rep 1 was taken again later (its turn ran on a slow host,
// runjson.HostSpeed), the cell's earliest measurement is not the first
// of the target's processes, and a slow one there is an outlier-rep's.
func slowFirstRep(c *verdict.Cell, th verdict.Thresholds) (Finding, bool) {
	v := c.RPS.Values
	if len(v) < 3 || c.Reps[0].Rep != 1 {
		return Finding{}, false
	}
	others := slices.Clone(v[1:])
	sort.Float64s(others)
	med := verdict.MedianSorted(others)
	if !(v[0] < others[0] && v[0] < med*(1-th.SlowFirst)) {
		return Finding{}, false
	}
	return cellFinding(c, RuleSlowFirstRep, LevelWarning, fmt.Sprintf(
		"the first repetition ran %.1f%% below the median of the others (%s vs %s req/s): the server was not warm yet; lengthen the warm-up",
		(1-v[0]/med)*100, parse.FormatCount(v[0]), parse.FormatCount(med)), []string{c.Reps[0].Source.File}), true
}

// firstRepFindings tells a host pattern from a target's warm-up: when the
// run's cells have their first repetition slowest more often than chance
// (1 in n each) allows at α, that is one host-first-rep finding for the
// run; otherwise each cell whose first repetition is slow and well below
// the rest gets slow-first-rep.
func firstRepFindings(runs map[string]*parse.Run, cells []*verdict.Cell, th verdict.Thresholds) []Finding {
	var fs []Finding
	ids, byRun := runGroups(cells)
	for _, id := range ids {
		slow, eligible, chance, p := beyondChance(byRun[id], 3,
			func(n int) float64 { return 1 / float64(n) },
			func(c *verdict.Cell) bool { _, ok := slowFirstRep(c, th); return ok })
		if len(slow) == 0 {
			continue
		}
		if len(slow) >= 3 && p < th.Alpha {
			fs = append(fs, Finding{Rule: RuleHostFirstRep, Level: LevelWarning, Run: id, Dumps: firstDumps(slow),
				Message: fmt.Sprintf("repetition 1 was the slowest and at least %.0f%% below the rest in %d of %d cells (chance would give about %.1f, p=%.2g): the host was slow at the start of the run, not one target's warm-up; it widens every interval alike. %s; or discard a first round of every target: %s",
					th.SlowFirst*100, len(slow), eligible, chance, p, capitalize(runAdvice(runs[id]).hostRemedy()), cellList(slow))})
			continue
		}
		for _, c := range slow {
			if !standsApart(c.RPS.Values) {
				continue // as slow as the noise makes a first repetition by chance
			}
			f, _ := slowFirstRep(c, th)
			if w := runAdvice(runs[id]).warmup; w != "" {
				f.Message += fmt.Sprintf(" (the warm-up ran %s)", w)
			}
			fs = append(fs, f)
		}
	}
	return fs
}

// standsApart reports whether the first value lies below the others by
// more than twice their own range: a warm-up, not the cell's noise.
func standsApart(v []float64) bool {
	others := slices.Clone(v[1:])
	sort.Float64s(others)
	return others[0]-v[0] > 2*(others[len(others)-1]-others[0])
}

// firstDumps is the first repetition's dump of each cell.
func firstDumps(cells []*verdict.Cell) []string {
	var d []string
	for _, c := range cells {
		d = append(d, c.Reps[0].Source.File)
	}
	return uniqueSorted(d)
}
