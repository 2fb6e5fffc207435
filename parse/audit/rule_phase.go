package audit

import "github.com/fairbench/fairbench/parse"

// inThroughputPass reports whether m belongs to the closed-loop pass at the
// suite's connections (parse.PhaseThroughput), the pass every statistic,
// verdict, floor and closed-loop rule of this package is about. A latency
// point (an offered rate) and a sweep point (a connection count) measure
// something else: a sweep point at 1 connection is not a repetition of the
// throughput cell, and a rate chosen as a share of the cell's capacity is
// not a sample of it. Their own rules are in rule_openmodel.go and
// rule_sweep.go. A phase this package does not know is left out too.
func inThroughputPass(m *parse.Measurement) bool {
	return m.Phase == parse.PhaseThroughput
}
