package audit

import (
	"fmt"
	"math"
	"strings"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// RuleAchievedBelowOffered: a point of the open-model (latency) phase
// whose achieved rate fell short of the offered one, with who fell behind:
// the client's schedule (the point's latency is then not the server's) or
// the target's answers.
const RuleAchievedBelowOffered = "achieved-below-offered"

// openModelFindings runs the open-model rules on the set's latency points:
// achieved below offered (folded per run), errors at a rate (per cell),
// the load tool's CPU (the client-saturated rule, folded the same way as
// the closed-loop pass's), and percentile-samples on each point's tail.
func openModelFindings(set *parse.Set, th verdict.Thresholds) []Finding {
	cells := openCells(set)
	ix := verdict.NewRunIndex(set.Runs)
	var fs []Finding
	var seen, behind, cpuSeen, cpuHit []place
	for _, c := range cells {
		p := place{run: c.run, target: c.target, scenario: c.scenario, dumps: c.dumps()}
		seen = append(seen, p)
		if ev, dumps := behindEvidence(ix, c); ev != "" {
			behind = append(behind, place{run: c.run, target: c.target, scenario: c.scenario, evidence: ev, dumps: dumps})
		}
		if f, ok := errorsAtRate(c, th); ok {
			fs = append(fs, f)
		}
		// a point's tail rests on its own samples as a cell's does
		for _, f := range latencyFindings(&verdict.Cell{Run: c.run, Name: c.target, Scenario: c.scenario, Reps: c.points}, th) {
			f.Message = "in the latency phase, " + f.Message
			fs = append(fs, f)
		}
		if ev, dumps, any := clientShares(ix, c, th); any {
			cpuSeen = append(cpuSeen, p)
			if ev != "" {
				cpuHit = append(cpuHit, place{run: c.run, target: c.target, scenario: c.scenario, evidence: ev, dumps: dumps})
			}
		}
	}
	fs = append(fs, fold(foldSpec{rule: RuleAchievedBelowOffered, level: LevelWarning, message: func(scope string, ev []string) string {
		return fmt.Sprintf("the achieved rate fell below the offered one, or requests went out late, %s(%s): where the client fell behind its schedule, requests went out late and their wait is missing from the latency, so those points measure the client, not the server (with the load tool's own CPU near its limit, give it more CPUs; well below it, its workers or other load on its CPUs held it back: raise -max-workers, quiet the host, or lower the rate); where the target held every worker waiting for its answers, requests went out late because of it, and the latency timed from when each was due (the p99 from the schedule) is the one a user at that rate met; where the target answered fewer than were sent, it could not keep up at that rate and its latency there grows with the window (a point past its capacity, not a steady state)",
			scopeSpace(scope), evidenceList(ev))
	}}, seen, behind)...)
	return append(fs, fold(clientSaturatedSpec("latency phase", th), cpuSeen, cpuHit)...)
}

// behindEvidence says, per offered rate of c, who kept it below the rate:
// "at 90% (900 req/s) the client in 2 of 2 repetitions (sent 812 req/s;
// the load tool used 35% of its CPUs)", the share where recorded, so that
// a client held back by its workers or by other load is not taken for
// one short of CPU.
func behindEvidence(ix verdict.RunIndex, c *openCell) (string, []string) {
	var parts, dumps []string
	for _, g := range byRate(c.points) {
		counts, how := map[string]int{}, map[string]string{} // who → points, the first one's how
		for _, m := range g {
			who, h := whoFellBehind(m)
			if who == behindNone {
				continue
			}
			if cu, _ := ix.Share(m); who == behindClient && !math.IsNaN(cu) {
				h += fmt.Sprintf("; the load tool used %.0f%% of its CPUs", cu*100)
			}
			if counts[who] == 0 {
				how[who] = h
			}
			counts[who]++
			dumps = append(dumps, m.Source.File)
		}
		for _, who := range []string{behindClient, behindTarget, behindEither} {
			if counts[who] > 0 {
				parts = append(parts, fmt.Sprintf("at %s %s in %d of %d repetitions (%s)", rateLabel(g[0]), who, counts[who], len(g), how[who]))
			}
		}
	}
	return strings.Join(parts, ", "), uniqueSorted(dumps)
}

// clientShares is the share of its CPUs the load tool kept busy at each of
// c's points (runIndex.share, the client-saturated rule's measure): the
// points at or above Thresholds.ClientSaturation ("95% at 90% (900
// req/s)"), and whether any point recorded CPU seconds at all.
func clientShares(ix verdict.RunIndex, c *openCell, th verdict.Thresholds) (string, []string, bool) {
	var parts, dumps []string
	recorded := false
	for _, m := range c.points {
		cu, _ := ix.Share(m)
		if math.IsNaN(cu) {
			continue
		}
		recorded = true
		if cu >= th.ClientSaturation {
			parts = append(parts, fmt.Sprintf("%.0f%% at %s rep %d", cu*100, rateLabel(m), m.Rep))
			dumps = append(dumps, m.Source.File)
		}
	}
	return strings.Join(parts, ", "), uniqueSorted(dumps), recorded
}
