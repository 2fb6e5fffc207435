package collect

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"path"
	"slices"
	"time"

	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
	"github.com/fairbench/fairbench/parse/verdict"
)

// Before the first round of a collect to a precision, a noise pilot
// measures how noisy the host is now: two live servers of one program
// (the suite's A/A twins, else its first target twice) take pilotPairs
// pairs of windows of the suite's length in alternation, each pair
// adjacent in time, as the rounds' pairs will be. From their noise it
// plans the rounds the suite's largest family needs to resolve resolve;
// when even the budget cannot hold them, the host is too noisy now, and
// the collect waits for quiet, piloting again every pilotEvery, at most
// Options.QuietWait, then measures anyway and says so. Each pilot's
// windows are kept as dumps (phase "pilot" in run.json) and the pilots,
// the wait and the plan go into run.json's precision.

// PhasePilot is run.json's phase of a noise pilot's windows.
const PhasePilot = parse.PhasePilot

// DefaultQuietWait is the longest a collect waits for a quiet host when
// Options.QuietWait is 0.
const DefaultQuietWait = 10 * time.Minute

// pilotPairs is the pairs of windows one pilot takes, and pilotEvery how
// long a collect waiting for quiet waits between pilots.
const (
	pilotPairs = 6
	pilotEvery = 30 * time.Second
)

// turnOverhead is what a turn adds to its windows, for a plan made before
// any was timed: a server's start and stop, the speed probes.
const turnOverhead = time.Second

// pilot runs the noise pilots before the first round (none on a resumed
// run that has one, or where the suite is not collected to a precision).
func (c *collector) pilot(ctx context.Context, ready []suite.Target) error {
	rec := c.dir.Manifest().Precision
	if rec == nil || len(rec.Pilots) > 0 || len(ready) < 2 {
		return nil
	}
	a, b, sc, ok := c.pilotPair(ready)
	if !ok {
		return nil
	}
	wait, every := c.opt.QuietWait, cmp.Or(c.opt.pilotEvery, pilotEvery)
	if wait == 0 {
		wait = DefaultQuietWait
	}
	clock := quietClock{now: c.opt.Now}
	for {
		began := c.opt.Now()
		p, err := c.pilotOnce(ctx, a, b, sc, ready)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			c.note("noise pilot: %v: the rounds start without a plan", err)
			return nil
		}
		waited := clock.ended(began)
		if err := c.keepPilot(p, waited); err != nil {
			return err
		}
		switch {
		case p.Quiet:
			c.opt.Progress.Note(fmt.Sprintf("noise pilot: %.1f%% per window; about %d rounds (%v) should tell apart %s", 100*p.Sigma, p.Rounds, seconds(p.PlannedS), percent(rec.Resolve)))
			return c.stored(c.planFromPilot(p, len(ready)))
		case clock.over(waited, every, wait):
			c.note("noise pilot: %.1f%% per window, too noisy for the budget to tell apart %s (%s); waited %v for quiet: measuring anyway, and the run states what it resolves",
				100*p.Sigma, percent(rec.Resolve), roundsNeed(p), waited.Round(time.Second))
			return c.stored(c.planFromPilot(p, len(ready)))
		}
		c.waitStep(ready, fmt.Sprintf("host too noisy (%.1f%% per window, %s): waiting for quiet, %v of at most %v", 100*p.Sigma, roundsNeed(p), waited.Round(time.Second), wait), every)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(every):
		}
		clock.slept(every)
	}
}

// quietClock counts a wait for quiet in wall time: from the end of its
// first pilot to the end of the last, on top of what the run waited
// before (prior), so that the sleeps between pilots and the pilots taken
// meanwhile both count, and a wait of 10 minutes ends after about 10
// minutes whatever a pilot takes on the day.
type quietClock struct {
	now   func() time.Time
	prior time.Duration
	since time.Time     // the end of this wait's first pilot
	took  time.Duration // the last pilot's length
	// sleeps are the sleeps between pilots so far: the wait is never
	// counted shorter, whatever now says.
	sleeps time.Duration
}

// slept counts a sleep of d between pilots.
func (q *quietClock) slept(d time.Duration) { q.sleeps += d }

// ended is the wait so far, for a pilot begun at began that has just
// ended.
func (q *quietClock) ended(began time.Time) time.Duration {
	end := q.now()
	if q.since.IsZero() {
		q.since = end
	}
	q.took = end.Sub(began)
	return q.prior + max(end.Sub(q.since), q.sleeps)
}

// over reports whether the wait must end: bound is negative (no wait), or
// another sleep of every and a pilot as long as the last would end past it.
func (q *quietClock) over(waited, every, bound time.Duration) bool {
	return bound < 0 || waited+every+q.took > bound
}

// keepPilot records pilot p in run.json's precision, with the wait for
// quiet so far (wall time since the first pilot ended).
func (c *collector) keepPilot(p runjson.Pilot, waited time.Duration) error {
	return c.stored(c.dir.Update(func(m *runjson.Manifest) {
		m.Precision.Pilots = append(m.Precision.Pilots, p)
		m.Precision.WaitedS = roundS(waited.Seconds())
	}))
}

// roundsNeed says what a pilot's plan needs: "about 40 rounds, 25m0s" or
// "more than 200 rounds".
func roundsNeed(p runjson.Pilot) string {
	if p.Rounds == 0 {
		return fmt.Sprintf("more than %d rounds", maxRounds)
	}
	return fmt.Sprintf("about %d rounds, %v", p.Rounds, seconds(p.PlannedS))
}

// seconds is s as a duration rounded to the second.
func seconds(s float64) time.Duration {
	return time.Duration(s * float64(time.Second)).Round(time.Second)
}

// pilotPair picks the pilot's two targets and scenario: the suite's A/A
// twins where both are ready and passed a scenario's gate, else the first
// ready target twice, on the first scenario it passed.
func (c *collector) pilotPair(ready []suite.Target) (a, b suite.Target, sc suite.Scenario, ok bool) {
	passed := func(t suite.Target, sc suite.Scenario) bool {
		rec, _ := c.targetRecord(t.Name)
		return !slices.Contains(rec.Failed, sc.Name)
	}
	find := func(name string) (suite.Target, bool) {
		i := slices.IndexFunc(ready, func(t suite.Target) bool { return t.Name == name })
		if i < 0 {
			return suite.Target{}, false
		}
		return ready[i], true
	}
	if pair := c.suite.AAPair; len(pair) == 2 {
		x, okX := find(pair[0])
		y, okY := find(pair[1])
		for _, s := range c.suite.Scenarios {
			if okX && okY && passed(x, s) && passed(y, s) {
				return x, y, s, true
			}
		}
	}
	for _, s := range c.suite.Scenarios {
		if passed(ready[0], s) {
			return ready[0], ready[0], s, true
		}
	}
	return suite.Target{}, suite.Target{}, suite.Scenario{}, false
}

// pilotOnce takes one pilot on a and b (one server when they are one
// target) and plans the rounds of the family of ready targets from it.
func (c *collector) pilotOnce(ctx context.Context, a, b suite.Target, sc suite.Scenario, ready []suite.Target) (runjson.Pilot, error) {
	p := runjson.Pilot{Start: c.opt.Now().UTC(), Targets: []string{a.Name, b.Name}}
	c.planPilotWindows(ready, a, b, sc)
	srvA, _, err := c.start(ctx, a)
	if err != nil {
		return p, err
	}
	defer srvA.Stop(2 * time.Second)
	srvB := srvA
	if b.Name != a.Name {
		if srvB, _, err = c.start(ctx, b); err != nil {
			return p, err
		}
		defer srvB.Stop(2 * time.Second)
	}
	load := c.suite.LoadFor(sc)
	warm := map[string]bool{}
	// A pilot's windows are numbered on from the last pilot's, so that a
	// target's reps go up with order as run.json's readers require.
	first := len(c.dir.Manifest().Precision.Pilots) * 2 * pilotPairs
	for w := 1; w <= 2*pilotPairs; w++ {
		t, srv := a, srvA
		if w%2 == 0 {
			t, srv = b, srvB
		}
		l := load
		if warm[t.Name] {
			none := suite.Duration(0)
			l.Warmup = &none
		}
		warm[t.Name] = true
		mr, err := c.take(ctx, srv, t, sc, path.Join(sc.Name, PhasePilot), sc.Name+" noise pilot", first+w, fmt.Sprintf("%d/%d", w, 2*pilotPairs), l, func(r *runjson.Measurement) {
			r.Phase = PhasePilot
		})
		if err != nil {
			return p, err
		}
		if mr.Error != "" {
			return p, fmt.Errorf("%s %s window %d: %s", t.Name, sc.Name, w, mr.Error)
		}
		p.RPS = append(p.RPS, c.measuredRPS(mr))
	}
	p.Sigma = round4(pilotSigma(p.RPS))
	c.planPilot(&p, len(ready))
	return p, nil
}

// waitStep shows a sleep of every between pilots as a step of progress,
// planned first: the rounds' total does not hold it.
func (c *collector) waitStep(ready []suite.Target, what string, every time.Duration) {
	c.planPlus(ready, 1, every)
	c.opt.Progress.Step(what, every)
}

// planPilotWindows tells progress of a pilot's windows on top of the
// rounds', so that a wait for quiet, pilot after pilot, counts up to a
// total that holds them: its 2*pilotPairs windows and a warm-up for each
// server.
func (c *collector) planPilotWindows(ready []suite.Target, a, b suite.Target, sc suite.Scenario) {
	load := c.suite.LoadFor(sc)
	windows, total := 2*pilotPairs, 2*pilotPairs*load.Duration.Std()
	if w := load.WarmupWindow(); w > 0 {
		servers := 2
		if a.Name == b.Name {
			servers = 1
		}
		windows += servers
		total += time.Duration(servers) * w
	}
	c.planPlus(ready, windows, total)
}

// pilotSigma is the noise of one window from windows taken in adjacent
// pairs: the sd of the pairs' log differences ÷ √2; 0 with any window
// empty.
func pilotSigma(rps []float64) float64 {
	var d []float64
	for i := 0; i+1 < len(rps); i += 2 {
		if !(rps[i] > 0 && rps[i+1] > 0) {
			return 0
		}
		d = append(d, math.Log(rps[i])-math.Log(rps[i+1]))
	}
	_, v := verdict.MeanVar(d)
	return math.Sqrt(v / 2)
}

// planPilot sets p's plan: the rounds a family of k targets needs at its
// noise, what they take at the suite's windows, and whether the host is
// quiet enough: the budget holds them, or the noise asks for no more than
// the suite's repetitions, which are taken whatever the noise (a budget
// too small for those is the suite's sizing, and no wait for quiet mends
// it).
func (c *collector) planPilot(p *runjson.Pilot, k int) {
	rec := c.dir.Manifest().Precision
	round, budget := c.roundEstimate(k)
	p.Rounds = verdict.RoundsFor(rec.Resolve, k, p.Sigma, verdict.DefaultThresholds)
	if p.Rounds > 0 {
		p.Rounds = max(p.Rounds, rec.MinRounds)
	}
	p.PlannedS = roundS(float64(p.Rounds) * round)
	p.Quiet = p.Rounds > 0 && (p.PlannedS <= budget || p.Rounds <= rec.MinRounds)
}

// roundEstimate is what one round of k targets should take, s, from the
// suite's windows, and the budget: the suite's, else the default's
// multiple of its fewest rounds at that estimate.
func (c *collector) roundEstimate(k int) (round, budget float64) {
	var d time.Duration
	for _, sc := range c.suite.Scenarios {
		l := c.suite.LoadFor(sc)
		d += time.Duration(k) * (l.Duration.Std() + l.WarmupWindow() + turnOverhead)
	}
	rec := c.dir.Manifest().Precision
	budget = rec.BudgetS
	if budget == 0 {
		budget = suite.DefaultBudgetFactor * float64(rec.MinRounds) * d.Seconds()
	}
	return d.Seconds(), budget
}

// planFromPilot plans every scenario's first rounds from the last pilot p
// of a family of k: the rounds it asks for, or all the budget holds when
// fewer, never below the suite's repetitions. The first look at a
// scenario's own noise comes after them. Planning from the pilot, whose
// windows no verdict reads, costs the tests nothing; a look at the rounds'
// own noise, taken before they are enough, would stop a family where its
// variance happened to read low, and its tests would claim a little more
// often than α (precision_test.go in package verdict measures both).
func (c *collector) planFromPilot(p runjson.Pilot, k int) error {
	rec := c.dir.Manifest().Precision
	round, budget := c.roundEstimate(k)
	n := p.Rounds
	if n == 0 {
		n = maxRounds
	}
	if round > 0 {
		n = min(n, int(budget/round))
	}
	n = max(n, rec.MinRounds)
	return c.dir.Update(func(m *runjson.Manifest) {
		for _, sc := range c.suite.Scenarios {
			setScenarioPrecision(m.Precision, runjson.ScenarioPrecision{Scenario: sc.Name, Rounds: max(n, c.suite.LoadFor(sc).Repetitions)})
		}
	})
}
