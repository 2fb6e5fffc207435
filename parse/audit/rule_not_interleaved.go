package audit

import (
	"slices"
	"sort"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

const RuleNotInterleaved = "not-interleaved" // a target's repetitions ran back to back (needs the run order)

// interleaveFindings fires for cells whose repetitions ran back to back
// while other targets were measured in the same run. It needs the run order.
func interleaveFindings(set *parse.Set) []Finding {
	byRun := map[string][]*parse.Measurement{}
	for _, m := range set.Measurements {
		if m.Run != "" && !m.Warmup && inThroughputPass(m) {
			byRun[m.Run] = append(byRun[m.Run], m)
		}
	}
	var fs []Finding
	for _, ms := range byRun {
		fs = append(fs, runInterleave(ms)...)
	}
	return fs
}

func runInterleave(ms []*parse.Measurement) []Finding {
	targets := map[string]bool{}
	for _, m := range ms {
		if m.Order <= 0 {
			return nil // the order is not known
		}
		targets[m.Target] = true
	}
	if len(targets) < 2 {
		return nil
	}
	ms = slices.Clone(ms)
	sort.Slice(ms, func(i, j int) bool { return ms[i].Order < ms[j].Order })
	cells := verdict.Cells(&parse.Set{Measurements: ms}, verdict.DefaultThresholds)
	pos := map[*parse.Measurement]int{}
	for i, m := range ms {
		pos[m] = i
	}
	var fs []Finding
	for _, c := range cells {
		n := len(c.Reps)
		if n < 2 || pos[c.Reps[n-1]]-pos[c.Reps[0]] != n-1 {
			continue
		}
		fs = append(fs, cellFinding(c, RuleNotInterleaved, LevelWarning,
			"its repetitions ran back to back with no other target between them, so a slow spell of the host lands on this target alone; interleave targets across repetitions (rep 1 of every target, then rep 2, as fairbench collect does)", nil))
	}
	return fs
}
