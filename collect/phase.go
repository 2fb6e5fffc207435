package collect

import (
	"cmp"
	"context"
	"fmt"
	"path"
	"slices"
	"strconv"
	"time"

	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/rundir"
	"github.com/fairbench/fairbench/parse/runjson"
)

// phasePoint is one measurement of the passes after the closed-loop one:
// an open-model point of [latency] (Fraction of capacity, or a fixed Rate)
// or a connections point of [sweep].
type phasePoint struct {
	Phase       string // manifest phase: "latency" or "sweep"
	Scenario    suite.Scenario
	Fraction    float64 // latency: share of capacity; 0 for a fixed rate
	Rate        int     // latency: the fixed rate, req/s; 0 for a fraction
	Connections int     // sweep
	Rep         int
}

// The phases, as run.json's measurements name them.
const (
	PhaseLatency = "latency"
	PhaseSweep   = "sweep"
)

// label names the point in its dump folder and progress lines:
// latency-25pct, latency-500rps, sweep-c64.
func (p phasePoint) label() string {
	switch {
	case p.Phase == PhaseSweep:
		return "sweep-c" + strconv.Itoa(p.Connections)
	case p.Fraction > 0:
		return "latency-" + strconv.FormatFloat(p.Fraction*100, 'f', -1, 64) + "pct"
	}
	return "latency-" + strconv.Itoa(p.Rate) + "rps"
}

// is reports whether the recorded measurement mr took the point.
func (p phasePoint) is(mr runjson.Measurement) bool {
	if mr.Phase != p.Phase || mr.Scenario != p.Scenario.Name || mr.Rep != p.Rep {
		return false
	}
	if p.Phase == PhaseSweep {
		return mr.Connections == p.Connections
	}
	if p.Fraction > 0 {
		return mr.RateFraction == p.Fraction
	}
	return mr.RateFraction == 0 && mr.Rate == float64(p.Rate)
}

// phasePoints lists every point of the suite's phases, phase by phase,
// then repetition by repetition, scenario by scenario.
func (c *collector) phasePoints() []phasePoint {
	var out []phasePoint
	byName := func(name string) suite.Scenario {
		i := slices.IndexFunc(c.suite.Scenarios, func(sc suite.Scenario) bool { return sc.Name == name })
		return c.suite.Scenarios[i]
	}
	if l, ok := c.suite.LatencyPhase(); ok {
		for rep := 1; rep <= l.Repetitions; rep++ {
			for _, name := range l.Scenarios {
				for _, f := range l.Fractions {
					out = append(out, phasePoint{Phase: PhaseLatency, Scenario: byName(name), Fraction: f, Rep: rep})
				}
				for _, r := range l.Rates {
					out = append(out, phasePoint{Phase: PhaseLatency, Scenario: byName(name), Rate: r, Rep: rep})
				}
			}
		}
	}
	if w, ok := c.suite.SweepPhase(); ok {
		for rep := 1; rep <= w.Repetitions; rep++ {
			for _, name := range w.Scenarios {
				for _, n := range w.Connections {
					out = append(out, phasePoint{Phase: PhaseSweep, Scenario: byName(name), Connections: n, Rep: rep})
				}
			}
		}
	}
	return out
}

// phasePending lists t's phase points still to take: those on scenarios
// that passed the gate, not yet in run.json without an error, and, for a
// latency point, not above the client's limit on the scenario (offered).
func (c *collector) phasePending(t suite.Target) []phasePoint {
	rec, _ := c.targetRecord(t.Name)
	ms := c.dir.Manifest().Measurements
	var out []phasePoint
	for _, p := range c.phasePoints() {
		if slices.Contains(rec.Failed, p.Scenario.Name) {
			continue
		}
		if slices.ContainsFunc(ms, func(mr runjson.Measurement) bool {
			return mr.Target == t.Name && !mr.Warmup && mr.SHA256 != "" && mr.Error == "" && p.is(mr)
		}) {
			continue
		}
		if p.Phase == PhaseLatency {
			if rate, _, ok := c.pointRate(t, p); ok && !c.offered(p.Scenario.Name, rate) {
				continue // noteNotOffered says so
			}
		}
		out = append(out, p)
	}
	return out
}

// phaseLoad is the load of a point: for a sweep the scenario's with the
// point's connections; for the open model vegeta at the point's rate.
// rate is the offered rate of a latency point.
func (c *collector) phaseLoad(p phasePoint, rate int) suite.Load {
	load := c.suite.LoadFor(p.Scenario)
	if p.Phase == PhaseSweep {
		w, _ := c.suite.SweepPhase()
		load.Connections, load.Duration, load.Warmup = p.Connections, w.Duration, w.Warmup
		load.Threads = min(load.Threads, p.Connections) // wrk needs a connection per thread
		return load
	}
	l, _ := c.suite.LatencyPhase()
	return suite.Load{Tool: "vegeta", Connections: cmp.Or(l.MaxWorkers, load.Connections), Threads: 1, Pipelining: 1, Rate: rate,
		Duration: l.Duration, Warmup: l.Warmup, Timeout: suite.Duration(cmp0(l.Timeout.Std(), load.Timeout.Std()))}
}

// cmp0 is a unless it is zero, else b.
func cmp0(a, b time.Duration) time.Duration {
	if a != 0 {
		return a
	}
	return b
}

// phases runs the passes after the closed-loop one, [latency] then
// [sweep], each interleaved like the first: repetition 1 of every target,
// then repetition 2, …, each on a fresh server process.
func (c *collector) phases(ctx context.Context, ready []suite.Target) error {
	if err := c.calibrate(ctx, ready); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return c.storeError(err)
	}
	c.noteNotOffered(ready)
	c.plan(ready) // the points not offered are not taken
	for _, phase := range []string{PhaseLatency, PhaseSweep} {
		reps := 0
		for _, p := range c.phasePoints() {
			if p.Phase == phase {
				reps = max(reps, p.Rep)
			}
		}
		for rep := 1; rep <= reps; rep++ {
			for _, t := range c.inTurn(ready, rep) {
				if err := c.phaseRepetition(ctx, t, phase, rep, reps); err != nil {
					if ctx.Err() != nil {
						return ctx.Err()
					}
					if storeFailed(err) {
						return c.storeError(err)
					}
					c.note("%s %s rep %d: %v", t.Name, phase, rep, err)
				}
			}
		}
	}
	return nil
}

// phaseRepetition starts a fresh server for t and takes the points of
// phase and rep still missing, each after its warm-up.
func (c *collector) phaseRepetition(ctx context.Context, t suite.Target, phase string, rep, reps int) error {
	var todo []phasePoint
	for _, p := range c.phasePending(t) {
		if p.Phase == phase && p.Rep == rep {
			todo = append(todo, p)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	srv, startup, err := c.start(ctx, t)
	if err != nil {
		return err
	}
	defer srv.Stop(2 * time.Second)
	for _, p := range todo {
		mr := runjson.Measurement{Phase: p.Phase, Connections: p.Connections}
		rate := p.Rate
		if p.Phase == PhaseLatency {
			r, capacity, ok := c.pointRate(t, p)
			if !ok {
				c.note("%s %s %s: no closed-loop req/s recorded for it in this run: not measured", t.Name, p.Scenario.Name, p.label())
				continue
			}
			rate, mr.Capacity, mr.Connections = r, capacity, c.phaseLoad(p, r).Connections
			mr.Rate, mr.RateFraction = float64(rate), p.Fraction
		}
		what := p.Scenario.Name + " " + p.label()
		if p.Phase == PhaseLatency {
			what += fmt.Sprintf(" (%d req/s)", rate)
		}
		got, err := c.take(ctx, srv, t, p.Scenario, path.Join(p.Scenario.Name, p.label()), what, rep, fmt.Sprintf("%d/%d", rep, reps), c.phaseLoad(p, rate), func(r *runjson.Measurement) {
			*r = phaseFields(*r, mr)
			if !r.Warmup {
				r.StartupS = startup.Seconds()
			}
		})
		if err != nil {
			return err
		}
		if p.Phase == PhaseLatency && got.Error == "" {
			c.opt.Progress.Note(fmt.Sprintf("%s %s rep %d: offered %d req/s, sent %.1f req/s, at most %s behind schedule", t.Name, what, rep, rate, got.SendRate, time.Duration(got.BehindS*1e9).Round(time.Microsecond)))
		}
	}
	return nil
}

// phaseFields copies a point's phase, connections and rate fields from
// point into mr.
func phaseFields(mr, point runjson.Measurement) runjson.Measurement {
	mr.Phase, mr.Connections = point.Phase, point.Connections
	mr.Rate, mr.RateFraction, mr.Capacity = point.Rate, point.RateFraction, point.Capacity
	return mr
}

// closedRPS returns the req/s of each closed-loop measurement of target on
// scenario recorded without an error (all targets when target is ""), read
// from its dump; a dump that does not parse is left out.
func (c *collector) closedRPS(target, scenario string) []float64 {
	var out []float64
	for _, mr := range c.dir.Manifest().Measurements {
		if mr.Phase != "" || mr.Warmup || mr.Error != "" || mr.SHA256 == "" || mr.Scenario != scenario || (target != "" && mr.Target != target) {
			continue
		}
		if rps := c.measuredRPS(mr); rps > 0 {
			out = append(out, rps)
		}
	}
	return out
}

// measuredRPS is the req/s of mr's dump as package parse reads it, read
// once per dump; 0 when it reads none.
func (c *collector) measuredRPS(mr runjson.Measurement) float64 {
	rps, ok := c.rps[mr.Dump]
	if !ok {
		rps = dumpRPS(c.dir.Path, mr.Dump)
		c.rps[mr.Dump] = rps
	}
	return rps
}

// dumpRPS is the req/s package parse reads in the dump at rel in the run
// dir, read through rundir's opener; 0 when it reads none.
func dumpRPS(dir, rel string) float64 {
	f, err := rundir.OpenFile(dir, rel, rundir.KindDump)
	if err != nil {
		return 0
	}
	defer f.Close()
	r := parse.NewReader(f, f.Name())
	for r.Scan() {
		if m, ok := r.Result().(*parse.Measurement); ok && m.RPS > 0 {
			return m.RPS
		}
	}
	return 0
}

// capacity is target's median closed-loop req/s on scenario in this run,
// recomputed from the recorded measurements (so a resumed run offers the
// same rates); ok is false when none is recorded.
func (c *collector) capacity(target, scenario string) (float64, bool) {
	rps := c.closedRPS(target, scenario)
	if len(rps) == 0 {
		return 0, false
	}
	slices.Sort(rps)
	n := len(rps)
	if n%2 == 1 {
		return rps[n/2], true
	}
	return (rps[n/2-1] + rps[n/2]) / 2, true
}

// ceiling is the most req/s the client was measured to sustain on
// scenario: the highest closed-loop req/s any target reached on it in this
// run. A fraction of a target's own capacity never exceeds it; a fixed
// rate above it is not offered.
func (c *collector) ceiling(scenario string) (float64, bool) {
	rps := c.closedRPS("", scenario)
	if len(rps) == 0 {
		return 0, false
	}
	return slices.Max(rps), true
}
