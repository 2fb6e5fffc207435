package render

import (
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// TestLatencyIsPrinted checks the scenario page's p99 is the one the
// lower-median repetition by throughput printed (issue 14's stdlib/ping:
// dumps say 3.39/2.07/2.73/2.56 ms; the mean of the middle two, 2.65 ms,
// was shown), and its title gives the range over the repetitions.
func TestLatencyIsPrinted(t *testing.T) {
	p99 := []float64{3.39, 2.07, 2.73, 2.56}
	rps := []float64{1000, 1300, 1100, 1200} // lower median: 1100, rep 3
	set := &parse.Set{}
	for i := range p99 {
		set.Measurements = append(set.Measurements, &parse.Measurement{
			Target: "stdlib", Scenario: "ping", Rep: i + 1, Order: i + 1, RPS: rps[i],
			Source:  parse.Source{File: "ping-" + string(rune('1'+i)) + ".txt"},
			Latency: parse.Latency{Percentiles: []parse.Percentile{{P: 99, Value: time.Duration(p99[i] * float64(time.Millisecond))}}},
		})
	}
	cells := verdict.Cells(set, verdict.DefaultThresholds)
	m := &model{metric: verdict.MetricRPS, links: newLinker(set, []string{"ping"}, []string{"stdlib"})}
	if rep := cells[0].MedianRep(m.metric); rep.Rep != 3 {
		t.Fatalf("lower-median repetition %d, want 3", rep.Rep)
	}
	got := m.latencyNum(Page{}, cells[0], 99)
	if got.Text != Latency(2730*time.Microsecond) {
		t.Errorf("p99 shown %q, want rep 3's printed %q (not the mean of two)", got.Text, Latency(2730*time.Microsecond))
	}
	if !strings.Contains(got.Title, "rep 3") || !strings.Contains(got.Title, Latency(2070*time.Microsecond)) || !strings.Contains(got.Title, Latency(3390*time.Microsecond)) {
		t.Errorf("title %q does not name the repetition and the range", got.Title)
	}
}

// TestRatioFigures checks ratios show three significant figures, at every
// size, with no false precision.
func TestRatioFigures(t *testing.T) {
	for r, want := range map[float64]string{1.2345: "1.23×", 0.064: "0.0640×", 12.34: "12.3×", 123.4: "123×", 9.996: "10.0×", 0.9996: "1.00×", 1234: "1234×"} {
		if got := Ratio(r); got != want {
			t.Errorf("Ratio(%v) = %q, want %q", r, got, want)
		}
	}
}
