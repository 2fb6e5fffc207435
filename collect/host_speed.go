package collect

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/fairbench/fairbench/collect/hostcheck"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

// What a run does with the host speed probe (hostcheck.Probe), around
// each target's turn: the run's fastest time on each set is the host at
// speed, and before a turn it waits for a slow host (beforeTurn); a turn
// around which the probe took retake_slow times as long as the run's
// typical turn (its median so far), or which ran beside other load, is
// taken again at once (takeTurn). The retake is judged against the
// typical turn, not the fastest: it pays where a short slow spell hit one
// turn, and where the host is slow for much of a run the retake runs as
// slow, while the verdicts take the probe's share out of the turns kept
// (verdict.MethodBlockedSpeed).

// speedWait bounds the wait before a turn for the host to come back to
// speed, speedBudget all such waits of a collect (at most a tenth of the
// suite's measurement budget, speedWaitBudget), and speedEvery is how
// often the host is probed meanwhile. A slow turn is taken again only
// while the turns taken again are fewer than one and retakeShare of those
// counted so far: a retake pays for a short slow spell, but where the host
// is slow for much of a run the retake is slow too, the verdicts take the
// probe's share out of the turns kept (verdict.MethodBlockedSpeed), and
// the time is better spent on more rounds.
const (
	speedWait   = 2 * time.Minute
	speedBudget = 6 * time.Minute
	speedEvery  = 2 * time.Second
	retakeShare = 0.2
	// speedWaitShare is the most of a suite's budget the waits may take:
	// they count in the rounds' wall time, so a short budget spent waiting
	// for a speed the day does not have would leave it no rounds.
	speedWaitShare = 10
	// probeFresh is how recently the last turn's probe must have ended
	// to stand as the next turn's probe before (lastProbe).
	probeFresh = 500 * time.Millisecond
	// typicalTimes is how many probe times (two a turn) a CPU set needs
	// before its median stands as the run's typical turn; before that a
	// turn is judged against the run's fastest.
	typicalTimes = 10
)

// speedWaitBudget is what all of a collect's waits for the host's speed
// may take: speedBudget, or a tenth of the suite's measurement budget
// where that is less (no budget given: speedBudget).
func (c *collector) speedWaitBudget() time.Duration {
	if b := c.suite.Precision().Budget; b > 0 {
		return min(speedBudget, b/speedWaitShare)
	}
	return speedBudget
}

// speedProbe times the probe on the server's CPUs and the client's
// (hostcheck.Probe). A probe that fails leaves 0 and is noted once per
// run.
func (c *collector) speedProbe(ctx context.Context) runjson.Probe {
	iso := c.suite.Isolation
	p, errs := hostcheck.Probe(ctx, c.opt.speedTimer, c.server, c.client, iso.ServerCPUs, iso.ClientCPUs)
	for _, err := range errs {
		if err != nil && ctx.Err() == nil && !c.speedFailed {
			c.speedFailed = true
			c.note("%v: turns are not probed where it fails", err)
		}
	}
	c.keepFastest(p)
	return p
}

// keepFastest folds p into the run's fastest probe times, first reading
// those run.json has (a resumed run).
func (c *collector) keepFastest(p runjson.Probe) {
	if c.atSpeed == nil {
		c.atSpeed = runjson.Fastest(c.dir.Manifest().Measurements)
	}
	iso := c.suite.Isolation
	runjson.KeepFastest(c.atSpeed, runjson.SpeedSet(true, c.server.Name(), iso.ServerCPUs), p.ServerS)
	runjson.KeepFastest(c.atSpeed, runjson.SpeedSet(false, c.client.Name(), iso.ClientCPUs), p.ClientS)
}

// slowdown is how much slower than ref (fastest times by set) p ran; 0:
// unknown.
func (c *collector) slowdown(p runjson.Probe, ref map[string]float64) float64 {
	mr := runjson.Measurement{HostSpeed: &runjson.HostSpeed{Before: p},
		ServerHost: c.server.Name(), ClientHost: c.client.Name(),
		ServerCPUList: c.suite.Isolation.ServerCPUs, ClientCPUList: c.suite.Isolation.ClientCPUs}
	return mr.Slowdown(ref)
}

// rememberSpeed adds this collect's fastest times to the memo on disk
// (hostcheck.SpeedMemo), for a suite that retakes slow turns.
func (c *collector) rememberSpeed() {
	if c.suite.Isolation.RetakeSlow <= 0 || len(c.atSpeed) == 0 {
		return
	}
	hostcheck.RememberSpeed(hostcheck.MemoPath(c.here), c.atSpeed)
}

// beforeTurn probes the host before a turn. Where the suite retakes slow
// turns and the probe ran retake_slow times as long as its fastest, in
// this run or in this machine's last collects (hostcheck.SpeedMemo), it waits for
// the host to come back to speed, probing every speedEvery, at most
// speedWait: the turn then runs at speed and is not taken again.
func (c *collector) beforeTurn(ctx context.Context) (runjson.Probe, time.Duration) {
	p, ok := c.lastProbe()
	if !ok {
		p = c.speedProbe(ctx)
	}
	limit, most := c.suite.Isolation.RetakeSlow, c.speedWaitBudget()
	if limit <= 0 || c.speedWaited >= most {
		return p, 0
	}
	if c.memo == nil {
		c.memo = hostcheck.ReadSpeedMemo(hostcheck.MemoPath(c.here))
	}
	start := time.Now()
	defer func() { c.speedWaited += time.Since(start) }()
	for s := c.slowdown(p, c.memo.Reference(c.atSpeed)); s >= limit && ctx.Err() == nil; s = c.slowdown(p, c.memo.Reference(c.atSpeed)) {
		waited := time.Since(start)
		if waited >= speedWait {
			c.note("the host still ran %.2f× slower than its fastest (in this run or this machine's last collects) after a wait of %v: the turn runs now", s, waited.Round(time.Second))
			break
		}
		if c.speedWaited+waited >= most {
			c.note("the host still ran %.2f× slower than its fastest (in this run or this machine's last collects), and the waits for it have reached %v, all this collect may wait (at most a tenth of its budget): from here turns run without waiting, and a slow one is taken again at once while few have been", s, most)
			break
		}
		c.opt.Progress.Step(fmt.Sprintf("host running %.2f× slower than its fastest (speed probe; this run or this machine's last collects): waiting for it, %v of at most %v", s, waited.Round(time.Second), speedWait), 0)
		select {
		case <-ctx.Done():
		case <-time.After(speedEvery):
		}
		p = c.speedProbe(ctx)
	}
	return p, time.Since(start)
}

// lastProbe is the probe after the last turn where it ended under
// probeFresh ago, with both sides timed: nothing ran between it and a turn
// starting now, so it times the host at the same moment as a new probe
// would, and a turn then costs one probe, not two: the probe is a
// noticeable share of a short turn.
func (c *collector) lastProbe() (runjson.Probe, bool) {
	p := c.last
	c.last = runjson.Probe{}
	if p.ServerS <= 0 || p.ClientS <= 0 || time.Since(c.lastAt) >= probeFresh {
		return runjson.Probe{}, false
	}
	return p, true
}

// afterTurn probes the host after t's turn and records both probes on
// the turn's measurements: those of t listed after the first order.
func (c *collector) afterTurn(ctx context.Context, t suite.Target, first int, before runjson.Probe, waited time.Duration) error {
	after := c.speedProbe(ctx)
	c.last, c.lastAt = after, time.Now()
	retake := c.retaking
	return c.dir.Update(func(m *runjson.Manifest) {
		for i := range m.Measurements {
			mr := &m.Measurements[i]
			if mr.Target == t.Name && mr.Order > first && mr.Phase == "" {
				mr.HostSpeed = &runjson.HostSpeed{Before: before, After: after, WaitedS: hostcheck.Round3(waited.Seconds()), Retake: retake}
			}
		}
	})
}

// slowTurn is a target's turn in a round that ran slow, or beside other
// load: slowdown is its probe's against the run's fastest, foreign the
// largest share of a CPU set other processes used in one of its windows
// (runjson.Interference). Either takes the turn again.
type slowTurn struct {
	target            string
	rep               int
	slowdown, foreign float64
}

// foreignRetake is the share of a CPU set other processes may use in a
// window before its turn is taken again: the audit's cpu-interference
// threshold (verdict.DefaultThresholds.ForeignLoad, checked by a test), so
// that a turn it would name is taken again instead.
const foreignRetake = 0.10

// why says why st is taken again, against the slowdown limit.
func (st slowTurn) why(limit float64) string {
	var parts []string
	if st.slowdown >= limit {
		parts = append(parts, fmt.Sprintf("the host ran %.2f× slower than its typical turn around it", st.slowdown))
	}
	if st.foreign > foreignRetake {
		parts = append(parts, fmt.Sprintf("other processes used %.0f%% of a CPU set it was measured on", 100*st.foreign))
	}
	return strings.Join(parts, ", and ")
}

// foreignShare is the largest share of its CPU set's capacity other
// processes used in mr's window; 0 where not measured, and where mr was
// not pinned: unpinned, the whole machine is the set, and what else runs
// on it is the suite's choice (the audit still names it).
func foreignShare(mr *runjson.Measurement) float64 {
	share := 0.0
	if in := mr.Interference; in != nil && mr.ServerCPUList != "" && mr.ClientCPUList != "" {
		for _, l := range []*runjson.CPUSetLoad{in.Server, in.Client} {
			if l != nil && l.CapacityS > 0 {
				share = max(share, l.ForeignS/l.CapacityS)
			}
		}
	}
	return share
}

// takeTurn takes t's turn in round rep (repetition). Where the suite
// retakes slow turns and the probe ran retake_slow times as long as the
// run's typical turn so far around it, or other processes used more than
// foreignRetake of a CPU set in one of its windows, the turn is taken
// again at once, in its place in the round, before the next target's
// turn: its measurements stay in run.json, dumps and all, marked not
// counted (Error, HostSpeed.Dropped). A turn is taken again once at most
// (a retake that ran slow too is counted, and the audit's host-slow names
// it), and never after the round: counted turns of every target then come
// from the same stretch of the host's time as the others' of the round,
// which is what a comparison within a round rests on. Progress is planned
// again for a retake (ready are the run's targets): its windows were not
// in the plan.
func (c *collector) takeTurn(ctx context.Context, ready []suite.Target, t suite.Target, rep int, only string) error {
	first := c.order
	if err := c.repetition(ctx, t, rep, only); err != nil {
		return err
	}
	limit := c.suite.Isolation.RetakeSlow
	if limit <= 0 {
		return nil
	}
	ms := c.dir.Manifest().Measurements
	st, ok := slowTurnIn(ms, t.Name, rep, first, limit)
	if !ok {
		return nil
	}
	if again, counted := retakenTurns(ms), countedTurns(ms); float64(again) >= 1+retakeShare*float64(counted) {
		c.note("%s rep %d ran slow, or beside other load (%s), and is not taken again: %d of the %d turns counted so far were taken again already, and a run takes again at most one more than %.0f%% of its turns counted (the audit's host-slow names it)",
			t.Name, rep, st.why(limit), again, counted, 100*retakeShare)
		return nil
	}
	c.opt.Progress.Note(fmt.Sprintf("%s rep %d: %s: taking the turn again", t.Name, rep, st.why(limit)))
	if err := c.dropTurn(st, first); err != nil {
		return err
	}
	c.plan(ready)
	c.retaking = true
	defer func() { c.retaking = false }()
	return c.repetition(ctx, t, rep, only)
}

// countedTurns counts the closed-loop windows of ms counted: a turn of
// many scenarios counts as many, here and in retakenTurns alike.
func countedTurns(ms []runjson.Measurement) int {
	n := 0
	for _, mr := range ms {
		if mr.Phase == "" && !mr.Warmup && mr.Error == "" {
			n++
		}
	}
	return n
}

// retakenTurns counts the closed-loop windows of ms taken again.
func retakenTurns(ms []runjson.Measurement) int {
	turns := map[string]bool{}
	for _, mr := range ms {
		if mr.Phase == "" && mr.HostSpeed != nil && mr.HostSpeed.Retake {
			turns[mr.Target+"/"+strconv.Itoa(mr.Rep)+"/"+mr.Scenario] = true
		}
	}
	return len(turns)
}

// slowTurnIn reports whether target's turn in round rep, its counted
// closed-loop measurements of ms listed after the order first, ran with
// the probe at least limit times as long as the typical turn of ms
// (runjson.Typical), or beside other load (foreignRetake); a turn already
// taken again is not.
func slowTurnIn(ms []runjson.Measurement, target string, rep, first int, limit float64) (slowTurn, bool) {
	typical := runjson.Typical(ms, typicalTimes)
	st := slowTurn{target: target, rep: rep}
	found := false
	for _, mr := range ms {
		if mr.Target != target || mr.Rep != rep || mr.Order <= first || mr.Phase != "" || mr.Warmup || mr.Error != "" || mr.HostSpeed == nil || mr.HostSpeed.Retake {
			continue
		}
		s, f := mr.Slowdown(typical), foreignShare(&mr)
		if s >= limit || f > foreignRetake {
			st.slowdown, st.foreign, found = max(st.slowdown, s), max(st.foreign, f), true
		}
	}
	return st, found
}

// dropTurn marks the measurements of st listed after the order first,
// warm-ups too, not counted: the turn taken again has warm-ups of its own.
func (c *collector) dropTurn(st slowTurn, first int) error {
	limit := c.suite.Isolation.RetakeSlow
	return c.dir.Update(func(m *runjson.Manifest) {
		for i := range m.Measurements {
			mr := &m.Measurements[i]
			if mr.Target != st.target || mr.Rep != st.rep || mr.Order <= first || mr.Phase != "" || mr.Error != "" || mr.HostSpeed == nil {
				continue
			}
			mr.HostSpeed.Dropped = true
			mr.Error = fmt.Sprintf("not counted: %s (the host speed probe took %s); the turn was taken again at once, in its place in the round, this dump is kept",
				strings.Replace(st.why(limit), " around it", " around this turn", 1), probeTimes(mr.HostSpeed))
		}
	})
}

// probeTimes says a turn's four probe times in ms.
func probeTimes(h *runjson.HostSpeed) string {
	ms := func(s float64) string { return strconv.FormatFloat(math.Round(s*1e4)/10, 'f', -1, 64) + " ms" }
	return fmt.Sprintf("server %s before, %s after; client %s before, %s after",
		ms(h.Before.ServerS), ms(h.After.ServerS), ms(h.Before.ClientS), ms(h.After.ClientS))
}
