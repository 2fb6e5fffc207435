package audit

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

const RuleClosedLoop = "closed-loop-latency" // tail percentiles of closed-loop latency (coordinated omission)

// closedLoopFindings says once per run that its latency is closed-loop,
// instead of once per cell. Where the run measured the open-model latency
// phase too (open, from openCells), it points to those numbers rather than
// advising to measure them.
func closedLoopFindings(cells []*verdict.Cell, open []*openCell) []Finding {
	openByRun := map[string][]*openCell{}
	for _, c := range open {
		openByRun[c.run] = append(openByRun[c.run], c)
	}
	var fs []Finding
	ids, byRun := runGroups(cells)
	for _, id := range ids {
		var closed []*verdict.Cell
		for _, c := range byRun[id] {
			if isClosedLoop(c) {
				closed = append(closed, c)
			}
		}
		if len(closed) == 0 {
			continue
		}
		msg := fmt.Sprintf("latency is closed-loop in %d of %d cells: each connection waits for its response before sending the next request, so slow responses hold back the requests that would have seen them and tail percentiles (p90 and up) are understated (coordinated omission); for tail claims measure at a constant rate with wrk2 -R",
			len(closed), len(byRun[id]))
		if oc := openByRun[id]; len(oc) > 0 {
			msg = fmt.Sprintf("latency is closed-loop in %d of %d cells, so their tail percentiles are understated (coordinated omission); this run measured latency at constant offered rates too, which is the latency a user feels: see the latency phase (%s)",
				len(closed), len(byRun[id]), openSummary(oc))
		}
		fs = append(fs, Finding{Rule: RuleClosedLoop, Level: LevelInfo, Run: id, Dumps: dumpsOfCells(closed), Message: msg})
	}
	return fs
}

// openSummary is the p99 of each open cell at its offered rate nearest
// half its capacity (the median over that rate's repetitions): "a/ping:
// p99 4.1 ms at 50% (500 req/s)", eight cells at most; a point that fell
// behind its rate says who did, so its p99 is not read as the server's.
func openSummary(cells []*openCell) string {
	var parts []string
	for _, c := range cells {
		var best []*parse.Measurement
		bestDist := math.Inf(1)
		for _, g := range byRate(c.points) {
			d := math.Abs(g[0].Open.Fraction - 0.5)
			if g[0].Open.Fraction <= 0 {
				d = 1 + g[0].Rate // no share of capacity: the lowest fixed rate
			}
			if d < bestDist {
				best, bestDist = g, d
			}
		}
		var p99 []float64
		for _, m := range best {
			for _, p := range m.Latency.Percentiles {
				if p.P == 99 {
					p99 = append(p99, float64(p.Value))
				}
			}
		}
		if len(p99) == 0 {
			continue
		}
		part := fmt.Sprintf("%s/%s: p99 %s at %s", c.target, c.scenario, formatMS(time.Duration(verdict.MedianOf(p99))), rateLabel(best[0]))
		for _, m := range best {
			if who, _ := whoFellBehind(m); who != behindNone {
				part += ", where " + who + " fell behind (" + RuleAchievedBelowOffered + ")"
				break
			}
		}
		parts = append(parts, part)
	}
	if len(parts) == 0 {
		return "its points printed no p99"
	}
	if len(parts) > 8 {
		return strings.Join(parts[:8], "; ") + fmt.Sprintf("; and %d more", len(parts)-8)
	}
	return strings.Join(parts, "; ")
}

// isClosedLoop reports whether the cell prints tail percentiles of
// closed-loop latency.
func isClosedLoop(c *verdict.Cell) bool {
	for _, m := range c.Reps {
		for _, p := range m.Latency.Percentiles {
			if p.P >= 90 && !m.Latency.Corrected {
				return true
			}
		}
	}
	return false
}
