package collect

import (
	"context"
	"fmt"
	"math"
	"path"
	"runtime"
	"slices"
	"time"

	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
)

// PhaseCeiling is run.json's phase of the calibration before the latency
// points of a scenario: vegeta sending as fast as its workers can, so that
// no point asks it for more than it was seen to send.
const PhaseCeiling = parse.PhaseCeiling

// CeilingShare is the share of the measured ceiling a latency point may
// offer; a point asking for more is not offered (run.json's not_offered).
// At its ceiling every vegeta worker (or its CPU) is busy, so a rate there
// has no slack for a timer firing late, a garbage collection or a slow
// answer: sending falls behind and the point measures the client. 0.9
// leaves a tenth for that, the same margin as the audit's client-saturated
// bound; a larger share leaves sending behind the schedule, a smaller one
// measures less of the target's range. The audit still reports any point
// that fell behind.
const CeilingShare = 0.9

// ceilingNearLimit is the share of its CPUs the load tool must keep busy
// for its rate to be its own limit: the audit's client-saturated bound
// (verdict.DefaultThresholds.ClientSaturation, checked by a test), so
// that the collector and the audit agree on what a saturated client is.
const ceilingNearLimit = 0.9

// clientCeiling is what the calibration of a scenario found.
type clientCeiling struct {
	Rate        float64 // req/s sent as fast as the client could
	ClientBound bool    // its CPUs were near their limit: Rate is the client's
	Dump        string
}

// limit is the highest rate a latency point may offer.
func (cc clientCeiling) limit() float64 { return CeilingShare * cc.Rate }

// calibration is the recorded ceiling measurement of scenario, ok false
// when none was taken without an error (a resumed run reuses it).
func (c *collector) calibration(scenario string) (clientCeiling, bool) {
	for _, mr := range c.dir.Manifest().Measurements {
		if mr.Phase == PhaseCeiling && mr.Scenario == scenario && !mr.Warmup && mr.Error == "" && mr.SHA256 != "" {
			return clientCeiling{Rate: mr.SendRate, ClientBound: mr.ClientBound, Dump: mr.Dump}, true
		}
	}
	return clientCeiling{}, false
}

// fastest is the target of ready with the highest closed-loop median on
// scenario (the first in suite order on a tie), among those that passed
// its gate; ok is false when none has one.
func (c *collector) fastest(ready []suite.Target, scenario string) (suite.Target, float64, bool) {
	var best suite.Target
	top := 0.0
	for _, t := range ready {
		if rec, _ := c.targetRecord(t.Name); slices.Contains(rec.Failed, scenario) {
			continue
		}
		if capacity, ok := c.capacity(t.Name, scenario); ok && capacity > top {
			best, top = t, capacity
		}
	}
	return best, top, top > 0
}

// calibrate measures, for every scenario of [latency] without a recorded
// calibration, how fast the client sends: vegeta at -rate=0 with the
// phase's workers against the fastest target, pinned like every client,
// with the phase's warm-up and window. Its dump is kept like every dump.
func (c *collector) calibrate(ctx context.Context, ready []suite.Target) error {
	l, ok := c.suite.LatencyPhase()
	if !ok {
		return nil
	}
	for _, name := range l.Scenarios {
		if _, ok := c.calibration(name); ok {
			continue
		}
		t, capacity, ok := c.fastest(ready, name)
		if !ok {
			continue // phaseRepetition says why no point is taken
		}
		sc := c.phasePoint(name)
		load := c.phaseLoad(sc, 0) // Rate 0: as fast as the workers go
		if err := c.calibrateOn(ctx, t, sc, load, capacity); err != nil {
			if ctx.Err() != nil || storeFailed(err) {
				return err
			}
			c.note("%s ceiling on %s: %v: its points are bounded by the closed-loop req/s instead", name, t.Name, err)
		}
	}
	return nil
}

// calibrationPlan is the load windows of the calibrations still to take,
// and their length, for Progress.Plan.
func (c *collector) calibrationPlan() (windows int, total time.Duration) {
	l, ok := c.suite.LatencyPhase()
	if !ok {
		return 0, 0
	}
	for _, name := range l.Scenarios {
		if _, ok := c.calibration(name); ok {
			continue
		}
		windows, total = windows+1, total+l.Duration.Std()
		if w := l.Warmup.Std(); w > 0 {
			windows, total = windows+1, total+w
		}
	}
	return windows, total
}

// phasePoint is a latency point of scenario name at no rate.
func (c *collector) phasePoint(name string) phasePoint {
	i := slices.IndexFunc(c.suite.Scenarios, func(sc suite.Scenario) bool { return sc.Name == name })
	return phasePoint{Phase: PhaseLatency, Scenario: c.suite.Scenarios[i]}
}

// calibrateOn takes the ceiling measurement of p's scenario on a fresh
// server of t, whose closed-loop median there is capacity.
func (c *collector) calibrateOn(ctx context.Context, t suite.Target, p phasePoint, load suite.Load, capacity float64) error {
	srv, startup, err := c.start(ctx, t)
	if err != nil {
		return err
	}
	defer srv.Stop(2 * time.Second)
	what := fmt.Sprintf("%s ceiling (vegeta as fast as %d workers go)", p.Scenario.Name, load.Connections)
	got, err := c.take(ctx, srv, t, p.Scenario, path.Join(p.Scenario.Name, PhaseCeiling), what, 1, "1/1", load, func(r *runjson.Measurement) {
		r.Phase, r.Connections, r.Capacity = PhaseCeiling, load.Connections, capacity
		if r.Warmup {
			return
		}
		r.StartupS = startup.Seconds()
		if cpus := c.clientCPUCount(); cpus > 0 && load.Duration > 0 {
			// the process's CPU seconds include its start and exit: at most all its CPUs
			r.ClientLoad = min(r.ClientCPUSeconds/load.Duration.Std().Seconds()/float64(cpus), 1)
			r.ClientBound = r.ClientLoad >= ceilingNearLimit
		}
		r.Limit = CeilingShare * r.SendRate
	})
	if err != nil {
		return err
	}
	if got.Error != "" {
		return fmt.Errorf("%s", got.Error)
	}
	bound := fmt.Sprintf("at least: the load tool used %.0f%% of its CPUs, so %s or other load on the machine held it back", got.ClientLoad*100, t.Name)
	if got.ClientBound {
		bound = fmt.Sprintf("the client's own: it used %.0f%% of its CPUs", got.ClientLoad*100)
	}
	c.opt.Progress.Note(fmt.Sprintf("%s: sent %.0f req/s (%s); latency points offer at most %.0f req/s", what, got.SendRate, bound, CeilingShare*got.SendRate))
	return nil
}

// clientCPUCount is how many CPUs the load tool may run on: its pinned
// list, else every logical CPU of the machine it runs on.
func (c *collector) clientCPUCount() int {
	if list := c.suite.Isolation.ClientCPUs; list != "" {
		if cpus, err := runjson.ParseCPUList(list); err == nil {
			return len(cpus)
		}
	}
	m := c.dir.Manifest()
	if name := c.client.Name(); name != "" {
		for _, h := range m.Hosts {
			if h.Name == name {
				return h.Facts.Threads
			}
		}
		return 0
	}
	if m.Facts.Threads > 0 {
		return m.Facts.Threads
	}
	return runtime.NumCPU()
}

// pointRate is the rate a latency point offers to t, with the capacity it
// is a share of (0 for a fixed rate); ok is false when t has no
// closed-loop req/s to take a share of.
func (c *collector) pointRate(t suite.Target, p phasePoint) (rate int, capacity float64, ok bool) {
	if p.Fraction <= 0 {
		return p.Rate, 0, true
	}
	capacity, ok = c.capacity(t.Name, p.Scenario.Name)
	if !ok {
		return 0, 0, false
	}
	return max(1, int(math.Round(p.Fraction*capacity))), capacity, true
}

// offered reports whether a latency point at rate on scenario may be
// offered: not above the share of the client's ceiling measured there,
// nor, where no calibration was recorded, above the most req/s any target
// reached closed-loop on it.
func (c *collector) offered(scenario string, rate int) bool {
	if cc, ok := c.calibration(scenario); ok {
		return float64(rate) <= cc.limit()
	}
	ceil, ok := c.ceiling(scenario)
	return !ok || float64(rate) <= ceil
}

// noteNotOffered records in run.json, once each, the latency points of
// ready that are not offered because their rate is above the client's
// limit on the scenario, and says so in the progress.
func (c *collector) noteNotOffered(ready []suite.Target) {
	l, ok := c.suite.LatencyPhase()
	if !ok {
		return
	}
	for _, name := range l.Scenarios {
		cc, calibrated := c.calibration(name)
		closedMax, closedOK := c.ceiling(name)
		for _, t := range ready {
			for _, p := range c.phasePoints() {
				if p.Phase != PhaseLatency || p.Rep != 1 || p.Scenario.Name != name {
					continue
				}
				rate, capacity, ok := c.pointRate(t, p)
				if !ok || c.offered(name, rate) {
					continue
				}
				no := runjson.NotOffered{Target: t.Name, Scenario: name, Rate: float64(rate), RateFraction: p.Fraction, Capacity: capacity}
				if calibrated {
					no.Ceiling, no.ClientBound, no.Limit, no.Calibration = cc.Rate, cc.ClientBound, cc.limit(), cc.Dump
				} else if closedOK {
					no.Ceiling, no.Limit = closedMax, closedMax
				}
				c.addNotOffered(no, p)
			}
		}
	}
}

// addNotOffered adds no to run.json unless it is there already.
func (c *collector) addNotOffered(no runjson.NotOffered, p phasePoint) {
	if slices.ContainsFunc(c.dir.Manifest().NotOffered, func(o runjson.NotOffered) bool {
		return o.Target == no.Target && o.Scenario == no.Scenario && o.RateFraction == no.RateFraction && (no.RateFraction > 0 || o.Rate == no.Rate)
	}) {
		return
	}
	c.dir.Update(func(m *runjson.Manifest) { m.NotOffered = append(m.NotOffered, no) })
	c.opt.Progress.Note(fmt.Sprintf("%s %s %s: %.0f req/s not offered: the client was measured to send %.0f req/s on it, and a point offers at most %.0f", no.Target, no.Scenario, p.label(), no.Rate, no.Ceiling, no.Limit))
}
