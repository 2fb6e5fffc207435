package audit

import (
	"fmt"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
)

// inThroughputPass reports whether m belongs to the closed-loop pass at the
// suite's connections (parse.PhaseThroughput), the pass every statistic,
// verdict, floor and closed-loop rule of this package is about. A latency
// point (an offered rate) and a sweep point (a connection count) measure
// something else: a sweep point at 1 connection is not a repetition of the
// throughput cell, and a rate chosen as a share of the cell's capacity is
// not a sample of it. Their own rules are achieved-below-offered,
// errors-at-rate and sweep-too-few-points. A phase this package does not
// know is left out too.
func inThroughputPass(m *parse.Measurement) bool {
	return m.Phase == parse.PhaseThroughput
}

// phasePoint names run.json's record mr apart from the throughput cell it
// shares a target and scenario with: "" for the closed-loop pass, " latency
// at 50%" (or " latency at 8,577 req/s" for a fixed rate), " sweep at 64
// connections".
func phasePoint(mr *runjson.Measurement) string {
	switch {
	case mr.Phase == parse.PhaseThroughput:
		return ""
	case mr.Phase == parse.PhaseLatency && mr.RateFraction > 0:
		return fmt.Sprintf(" latency at %s%%", formatShare(mr.RateFraction))
	case mr.Phase == parse.PhaseLatency:
		return fmt.Sprintf(" latency at %s req/s", parse.FormatCount(mr.Rate))
	case mr.Phase == parse.PhaseSweep:
		return " sweep at " + parse.Plural(mr.Connections, "connection")
	}
	return " " + mr.Phase
}
