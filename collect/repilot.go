package collect

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/fairbench/fairbench/collect/suite"
)

// A host's noise can jump during a run (a neighbour starts); rounds taken
// then resolve less than the pilot planned for, and more of them only buy
// a little. So after each round the twins' noise in the latest rounds is
// set against their noise in the rounds before: where it is more than
// jumpFactor times as large, and above jumpFloor, the collect pilots again
// and, while the pilot reads more than jumpFactor times the first pilot's
// noise and the budget cannot hold the rounds it needs, waits for quiet
// within what is left of Options.QuietWait, as before the first round.
// The rule reads the spread of the twins' differences, never a difference
// between targets, so it leaves every verdict's false-claim rate where it
// was; a pause only moves the rounds still to come to a quieter stretch of
// the host's time. Every pilot taken again is in run.json's precision,
// with the round it followed and the noise that set it off.

const (
	// jumpFactor is how many times its earlier noise the twins' recent
	// noise must be to count as a jump; jumpFloor the least noise that
	// can (below it, every plan holds).
	jumpFactor = 2.0
	jumpFloor  = 0.02
	// jumpDF is the fewest degrees of freedom either noise estimate needs,
	// and maxRepilots bounds the pilots taken again in one run.
	jumpDF      = 6
	maxRepilots = 3
)

// repilot checks after round rep whether the twins' noise jumped, and if
// so pilots again and waits for quiet (see above).
func (c *collector) repilot(ctx context.Context, ready []suite.Target, rep int) error {
	rec := c.dir.Manifest().Precision
	if rec == nil || len(rec.Pilots) == 0 || rec.Stop != "" || c.pendingRounds(rep) == 0 {
		return nil
	}
	first := rec.Pilots[0]
	if len(first.Targets) != 2 || first.Targets[0] == first.Targets[1] {
		return nil // no twins: one target's rounds cannot tell the host's noise from its own
	}
	since, again := 0, 0 // the rounds before the last pilot taken again are another stretch
	for _, p := range rec.Pilots {
		if p.AfterRound > 0 {
			since, again = p.AfterRound, again+1
		}
	}
	if again >= maxRepilots {
		return nil
	}
	w := c.jumpWindow()
	if rep-since < 2*w {
		return nil
	}
	twinA, twinB := first.Targets[0], first.Targets[1]
	before, dfB := c.twinSigma(twinA, twinB, since+1, rep-w)
	recent, dfR := c.twinSigma(twinA, twinB, rep-w+1, rep)
	if dfB < jumpDF || dfR < jumpDF || !(recent > jumpFactor*before && recent > jumpFloor) {
		return nil
	}
	a, b, sc, ok := c.pilotPair(ready)
	if !ok {
		return nil
	}
	c.opt.Progress.Note(fmt.Sprintf("round %d: the twins' noise in the last %d rounds is %.1f%% per window, against %.1f%% before: piloting again", rep, w, 100*recent, 100*before))
	wait, every := c.opt.QuietWait, c.opt.pilotEvery
	if wait == 0 {
		wait = DefaultQuietWait
	}
	if every == 0 {
		every = pilotEvery
	}
	clock := quietClock{now: c.opt.Now, prior: time.Duration(rec.WaitedS * float64(time.Second))}
	for {
		began := c.opt.Now()
		p, err := c.pilotOnce(ctx, a, b, sc, ready)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			c.note("noise pilot after round %d: %v: the rounds go on", rep, err)
			return nil
		}
		waited := clock.ended(began)
		p.AfterRound, p.RecentSigma = rep, round4(recent)
		if err := c.keepPilot(p, waited); err != nil {
			return err
		}
		switch {
		case p.Quiet || p.Sigma <= jumpFactor*first.Sigma:
			c.opt.Progress.Note(fmt.Sprintf("noise pilot: %.1f%% per window (the first read %.1f%%): the rounds go on", 100*p.Sigma, 100*first.Sigma))
			return nil
		case clock.over(waited, every, wait):
			c.note("noise pilot after round %d: %.1f%% per window, the first read %.1f%%; waited %v for quiet in all: the rounds go on, and the run states what it resolves",
				rep, 100*p.Sigma, 100*first.Sigma, waited.Round(time.Second))
			return nil
		}
		c.waitStep(ready, fmt.Sprintf("host noisier than at the start (%.1f%% per window against %.1f%%): waiting for quiet, %v of at most %v in all", 100*p.Sigma, 100*first.Sigma, waited.Round(time.Second), wait), every)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(every):
		}
		clock.slept(every)
	}
}

// jumpWindow is the rounds each noise estimate of repilot reads: four, or
// as many as give jumpDF degrees of freedom over the suite's scenarios.
func (c *collector) jumpWindow() int {
	s := max(1, len(c.suite.Scenarios))
	return max(4, (jumpDF+s-1)/s+1)
}

// twinSigma is the noise of one window as the twins a and b show it in
// rounds from to to: their log differences, each scenario's mean taken
// out (the twins' own offset is not noise), pooled, ÷ √2; df is the
// pooled estimate's degrees of freedom.
func (c *collector) twinSigma(a, b string, from, to int) (sigma float64, df int) {
	type key struct {
		scenario string
		rep      int
	}
	logs := map[string]map[key]float64{a: {}, b: {}}
	for _, mr := range c.dir.Manifest().Measurements {
		if mr.Phase != "" || mr.Warmup || mr.Error != "" || mr.SHA256 == "" || mr.Rep < from || mr.Rep > to || logs[mr.Target] == nil {
			continue
		}
		if rps := c.measuredRPS(mr); rps > 0 {
			logs[mr.Target][key{mr.Scenario, mr.Rep}] = math.Log(rps)
		}
	}
	byScenario := map[string][]float64{}
	for k, la := range logs[a] {
		if lb, ok := logs[b][k]; ok {
			byScenario[k.scenario] = append(byScenario[k.scenario], la-lb)
		}
	}
	var ss float64
	for _, d := range byScenario {
		if len(d) < 2 {
			continue
		}
		mean := 0.0
		for _, x := range d {
			mean += x
		}
		mean /= float64(len(d))
		for _, x := range d {
			ss += (x - mean) * (x - mean)
		}
		df += len(d) - 1
	}
	if df == 0 {
		return 0, 0
	}
	return math.Sqrt(ss / float64(df) / 2), df
}
