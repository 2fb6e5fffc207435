package audit

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/parse"
)

// sweepOf is a sweep of target on ping over conns, reps repetitions each.
func sweepOf(target string, reps int, conns ...int) []*parse.Measurement {
	var ms []*parse.Measurement
	for _, c := range conns {
		for rep := 1; rep <= reps; rep++ {
			m := meas("r", target, "ping", rep, 100*float64(min(c, 64)))
			m.Phase, m.Connections = parse.PhaseSweep, c
			m.Source.File += fmt.Sprintf(".sweep.%d", c)
			ms = append(ms, m)
		}
	}
	return ms
}

func TestSweepTooFewPoints(t *testing.T) {
	tests := []struct {
		name  string
		set   *parse.Set
		where []string
		want  string
	}{
		{"enough", setOf(sweepOf("a", 2, 1, 8, 64, 256)), nil, ""},
		{"three counts", setOf(sweepOf("a", 2, 1, 8, 64), sweepOf("b", 2, 1, 8, 64, 256)),
			[]string{"r/a/ping"}, "(3 connection counts (1, 8, 64), 2 repetitions at the fewest)"},
		{"one repetition", setOf(sweepOf("a", 1, 1, 8, 64, 256), sweepOf("b", 1, 1, 8, 64, 256)),
			[]string{"r"}, "in both cells of the run (a/ping 4 connection counts (1, 8, 64, 256), 1 repetition at the fewest; b/ping"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkPlaces(t, rulesOfKind(Audit(tt.set, AuditOptions{}), RuleSweepPoints), tt.where, tt.want)
		})
	}
}

// TestClosedLoopPointsToLatencyPhase checks that the closed-loop note of a
// run with a latency phase names its p99 at half capacity instead of
// advising to measure it, once for the run.
func TestClosedLoopPointsToLatencyPhase(t *testing.T) {
	closed := func(m *parse.Measurement) {
		m.Latency = parse.Latency{Percentiles: []parse.Percentile{{P: 50, Value: time.Millisecond}, {P: 99, Value: 9 * time.Millisecond}}}
	}
	s := each(each(cleanSet(), "a", closed), "b", closed)
	plain := rulesOfKind(Audit(s, AuditOptions{}), RuleClosedLoop)
	s.Measurements = append(s.Measurements, phaseOf(func(m *parse.Measurement) {
		if m.Target == "b" {
			m.Latency.Percentiles[1].Value = time.Duration(m.Rep) * 3 * time.Millisecond
		}
	}, "a", "b").Measurements...)
	fs := rulesOfKind(Audit(s, AuditOptions{}), RuleClosedLoop)
	if len(plain) != 1 || len(fs) != 1 {
		t.Fatalf("want one closed-loop note per run, got %d without the phase and %d with it", len(plain), len(fs))
	}
	if !strings.Contains(plain[0].Message, "measure at a constant rate") {
		t.Errorf("without a latency phase the note should advise one: %s", plain[0].Message)
	}
	for _, want := range []string{"in 2 of 2 cells", "see the latency phase (a/ping: p99 4 ms at 50% (5,000 req/s); b/ping: p99 4.5 ms at 50% (5,000 req/s))"} {
		if !strings.Contains(fs[0].Message, want) {
			t.Errorf("message lacks %q:\n%s", want, fs[0].Message)
		}
	}
	if strings.Contains(fs[0].Message, "measure at a constant rate") {
		t.Errorf("advises what the run already did: %s", fs[0].Message)
	}
	for _, m := range s.Measurements {
		if m.Phase == parse.PhaseLatency && m.Target == "a" {
			m.Open.SendRate = m.Rate / 2
		}
	}
	fs = rulesOfKind(Audit(s, AuditOptions{}), RuleClosedLoop)
	if want := "a/ping: p99 4 ms at 50% (5,000 req/s), where the client fell behind (achieved-below-offered); b/ping: p99 4.5 ms"; len(fs) != 1 || !strings.Contains(fs[0].Message, want) {
		t.Errorf("a point whose client fell behind is not said to be: want %q in %v", want, fs)
	}
}
