package collect

import (
	"fmt"
	"math"
	"testing"

	"github.com/fairbench/fairbench/parse/runjson"
)

// TestTwinSigma: the twins' noise is the spread of their log differences
// about each scenario's own mean (a twin's steady offset is not noise),
// pooled over scenarios, ÷ √2; windows of other targets, warm-ups, other
// phases and rounds outside the range are not read.
func TestTwinSigma(t *testing.T) {
	const e = 0.05
	offset := map[string]float64{"hi": 0.02, "lo": -0.03}
	var ms []runjson.Measurement
	rps := map[string]float64{}
	add := func(target, scenario string, rep int, v float64, mod func(*runjson.Measurement)) {
		mr := runjson.Measurement{Target: target, Scenario: scenario, Rep: rep, Order: len(ms) + 1, SHA256: "x",
			Dump: fmt.Sprintf("dumps/%s-%s-%d-%d.txt", target, scenario, rep, len(ms))}
		if mod != nil {
			mod(&mr)
		}
		ms = append(ms, mr)
		rps[mr.Dump] = v
	}
	for rep := 1; rep <= 8; rep++ {
		sign := 1.0
		if rep%2 == 0 {
			sign = -1
		}
		for s, off := range offset {
			add("a", s, rep, 1000*math.Exp(off+sign*e), nil)
			add("b", s, rep, 1000, nil)
			add("c", s, rep, 5000*float64(rep), nil) // not a twin
			add("a", s, rep, 1, func(m *runjson.Measurement) { m.Warmup = true })
			add("a", s, rep, 1, func(m *runjson.Measurement) { m.Phase = "latency" })
		}
	}
	c := scheduleCollector(t, runjson.Manifest{Measurements: ms}, 1)
	c.rps = rps
	sigma, df := c.twinSigma("a", "b", 1, 8)
	// 8 differences a scenario, each e from its mean: ss = 16e², df = 14.
	want := math.Sqrt(16 * e * e / 14 / 2)
	if df != 14 || math.Abs(sigma-want) > 1e-12 {
		t.Errorf("twinSigma = %g (df %d), want %g (df 14)", sigma, df, want)
	}
	if sigma, df := c.twinSigma("a", "b", 9, 12); sigma != 0 || df != 0 {
		t.Errorf("twinSigma of rounds not taken = %g (df %d), want 0 (df 0)", sigma, df)
	}
}

// TestJumpWindow: each noise estimate reads at least four rounds, more
// where the suite has too few scenarios for jumpDF degrees of freedom.
func TestJumpWindow(t *testing.T) {
	c := scheduleCollector(t, runjson.Manifest{}, 1) // one scenario
	if got := c.jumpWindow(); got != jumpDF+1 {
		t.Errorf("jumpWindow of one scenario = %d, want %d", got, jumpDF+1)
	}
	c.suite.Scenarios = append(c.suite.Scenarios, c.suite.Scenarios[0], c.suite.Scenarios[0])
	if got := c.jumpWindow(); got != 4 {
		t.Errorf("jumpWindow of three scenarios = %d, want 4", got)
	}
}
