package history

import (
	"errors"
	"math/rand/v2"
	"testing"
)

var gate5 = GateOptions{Threshold: 0.05, Alpha: 0.05}

// TestGateRates measures the gate's false-alarm rate on unchanged pairs
// and its power on a 10% slowdown of one target, by seeded simulation at
// 3% noise per repetition, n = 8, with host mood between runs.
func TestGateRates(t *testing.T) {
	trials := 400
	if testing.Short() {
		trials = 100
	}
	w := defaultWorld()
	for _, baselines := range []int{1, 5} {
		fa, err := gateRate(w, 1, trials, baselines, nil, gate5)
		if err != nil {
			t.Fatal(err)
		}
		pw, err := gateRate(w, 2, trials, baselines, map[string]float64{"hono": 0.90}, gate5)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("baselines %d: false alarms %.3f of %d unchanged pairs; caught %.3f of %d pairs with hono 10%% slower", baselines, fa, trials, pw, trials)
		if fa > 1.0/20 {
			t.Errorf("baselines %d: false-alarm rate %.3f > 1/20", baselines, fa)
		}
		if pw < 0.8 {
			t.Errorf("baselines %d: caught %.3f < 4/5 of 10%% slowdowns", baselines, pw)
		}
	}
}

// TestGateProgramDays: where each target but the twins moves by 5% from
// run to run on its own (the twins cannot see it), the gate reads that
// scatter from the baselines: at most 1/20 false alarms with five, and a
// 15% slowdown still caught in 4 of 5.
func TestGateProgramDays(t *testing.T) {
	trials := 400
	if testing.Short() {
		trials = 100
	}
	w := defaultWorld()
	w.program = 0.05
	fa, err := gateRate(w, 5, trials, 5, nil, gate5)
	if err != nil {
		t.Fatal(err)
	}
	pw, err := gateRate(w, 6, trials, 5, map[string]float64{"hono": 0.85}, gate5)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("5%% program days, 5 baselines: false alarms %.3f of %d unchanged pairs; caught %.3f of 15%% slowdowns", fa, trials, pw)
	if fa > 1.0/20 {
		t.Errorf("false-alarm rate %.3f > 1/20", fa)
	}
	if pw < 0.8 {
		t.Errorf("caught %.3f < 4/5 of 15%% slowdowns", pw)
	}
}

// TestGateRuntimeDays: where a day moves the Go programs together
// against the Node ones by 6% sd, a Go pair beside the Node pair reads
// each Go server against its own runtime: at most 1/20 false alarms on
// unchanged pairs and 4 of 5 10% slowdowns of one Go server caught with
// five baselines, where the Node pair alone catches fewer.
func TestGateRuntimeDays(t *testing.T) {
	trials := 400
	if testing.Short() {
		trials = 100
	}
	w := world{
		targets:   []string{"gin", "echo", "go-aa-a", "go-aa-b", "hono", "fastify", "aa-a", "aa-b"},
		runtimes:  []string{"go", "go", "go", "go", "node", "node", "node", "node"},
		scenarios: []string{"ping", "json", "query", "upload"},
		reps:      8, within: 0.03, tau: 0.01, mood: 0.03, runtimeDay: 0.06,
		pairs: [][2]string{{"aa-a", "aa-b"}, {"go-aa-a", "go-aa-b"}},
	}
	fa, err := gateRate(w, 11, trials, 5, nil, gate5)
	if err != nil {
		t.Fatal(err)
	}
	pw, err := gateRate(w, 12, trials, 5, map[string]float64{"gin": 0.90}, gate5)
	if err != nil {
		t.Fatal(err)
	}
	one := w
	one.pairs = [][2]string{{"aa-a", "aa-b"}}
	pwOne, err := gateRate(one, 12, trials, 5, map[string]float64{"gin": 0.90}, gate5)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("6%% runtime days, 5 baselines, a pair per runtime: false alarms %.3f of %d unchanged pairs; caught %.3f of gin 10%% slower (the Node pair alone: %.3f)", fa, trials, pw, pwOne)
	if fa > 1.0/20 {
		t.Errorf("false-alarm rate %.3f > 1/20", fa)
	}
	if pw < 0.8 {
		t.Errorf("caught %.3f < 4/5 of 10%% slowdowns", pw)
	}
	if pw <= pwOne {
		t.Errorf("a pair per runtime caught %.3f, no more than the Node pair alone (%.3f)", pw, pwOne)
	}
}

// TestGateMoodIsNotASlowdown: a run where the whole host is 10% slower
// (every target and the twins) is not a regression of any target.
func TestGateMoodIsNotASlowdown(t *testing.T) {
	w := defaultWorld()
	w.mood = 0
	rng := rand.New(rand.NewPCG(7, 7))
	all := map[string]float64{}
	for _, tg := range w.targets {
		all[tg] = 0.90
	}
	g, err := Decide([]*Run{w.run(rng, "old", nil)}, w.run(rng, "new", all), gate5)
	if err != nil {
		t.Fatal(err)
	}
	if g.Failed {
		for _, r := range g.Rows {
			t.Logf("%+v", r)
		}
		t.Fatal("a host-wide slow spell failed the gate")
	}
}

// TestGateTwinsNotGated: twins get rows, marked, and never fail the gate.
func TestGateTwinsNotGated(t *testing.T) {
	w := defaultWorld()
	rng := rand.New(rand.NewPCG(3, 3))
	g, err := Decide([]*Run{w.run(rng, "old", nil)}, w.run(rng, "new", map[string]float64{"aa-a": 0.8}), gate5)
	if err != nil {
		t.Fatal(err)
	}
	twins := 0
	for _, r := range g.Rows {
		if r.Twin {
			twins++
			if r.Slower {
				t.Errorf("twin %s gated", r.Target)
			}
		}
	}
	if twins != 8 {
		t.Errorf("twin rows %d, want 8 (2 twins × 4 scenarios)", twins)
	}
}

func TestGateNoBaseline(t *testing.T) {
	w := defaultWorld()
	rng := rand.New(rand.NewPCG(1, 1))
	if _, err := Decide(nil, w.run(rng, "new", nil), gate5); !errors.Is(err, ErrNoBaseline) {
		t.Fatalf("err %v, want ErrNoBaseline", err)
	}
}

// TestGateRoundSwings: on a host whose speed swings from round to round
// (8% sd per round, shared by the round's turns, beside 3% per
// repetition), the gate reads each target against the twins round by
// round: it still catches 4/5 of 10% slowdowns with one baseline and
// raises at most 1/20 false alarms. Runs without their rounds recorded
// meet the swings as noise; their power is logged beside.
func TestGateRoundSwings(t *testing.T) {
	trials := 400
	if testing.Short() {
		trials = 100
	}
	w := defaultWorld()
	w.round = 0.08
	fa, err := gateRate(w, 3, trials, 1, nil, gate5)
	if err != nil {
		t.Fatal(err)
	}
	pw, err := gateRate(w, 4, trials, 1, map[string]float64{"hono": 0.90}, gate5)
	if err != nil {
		t.Fatal(err)
	}
	w.unordered = true
	blind, err := gateRate(w, 4, trials, 1, map[string]float64{"hono": 0.90}, gate5)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("8%% round swings: false alarms %.3f of %d unchanged pairs; caught %.3f of 10%% slowdowns read round by round, %.3f without the rounds", fa, trials, pw, blind)
	if fa > 1.0/20 {
		t.Errorf("false-alarm rate %.3f > 1/20", fa)
	}
	if pw < 0.8 {
		t.Errorf("caught %.3f < 4/5 of 10%% slowdowns", pw)
	}
}
