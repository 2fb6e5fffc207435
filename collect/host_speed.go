package collect

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

// The host speed probe (runjson.HostSpeed): a shell counts to
// speedLoops on the server's CPUs and on the client's, before and after
// each target's turn, and times itself. The run's fastest time on each
// set is the host at speed; a turn around which the probe took
// retake_slow times as long is taken again at the end of the rounds.

// speedLoops takes dash about 250 ms on a current server core: long
// against the clock's and a fork's jitter and against a busy neighbour's
// spells of milliseconds (a 50 ms probe varied by ±30% on an idle VM,
// this one by ±3%), short against a turn.
const speedLoops = 300000

// speedScript prints the clock before and after the loop, in ns, so that
// an SSH round trip is not timed.
var speedScript = `s=$(date +%s%N); i=0; while [ $i -lt ` + strconv.Itoa(speedLoops) + ` ]; do i=$((i+1)); done; echo $s $(date +%s%N)`

// speedWait bounds the wait before a turn for the host to come back to
// speed, speedBudget all such waits of a collect, and speedEvery is how
// often the host is probed meanwhile. A turn is taken again only while
// slow turns are at most half of the turns (retakeShare): a host slow
// through most of a run is not made faster by a second pass, and its
// fastest probes were the exception. A smaller share leaves runs whose
// slow spells span many turns with none taken again.
const (
	speedWait   = 2 * time.Minute
	speedBudget = 6 * time.Minute
	speedEvery  = 2 * time.Second
	retakeShare = 0.5
)

// speedTimer times the probe on the CPU list cpus of m, in seconds.
type speedTimer func(ctx context.Context, m Machine, cpus string) (float64, error)

// timeSpeed runs speedScript on m, pinned to cpus.
func timeSpeed(ctx context.Context, m Machine, cpus string) (float64, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := m.run(ctx, program{argv: pinned(cpus, []string{"sh", "-c", speedScript})})
	if err != nil {
		return 0, fmt.Errorf("host speed probe%s: %v: %s", onMachine(m), err, strings.TrimSpace(string(out)))
	}
	return parseSpeed(out)
}

// parseSpeed reads the two clock readings speedScript prints.
func parseSpeed(out []byte) (float64, error) {
	f := strings.Fields(string(out))
	if len(f) != 2 {
		return 0, fmt.Errorf("host speed probe printed %q, not two clock readings", out)
	}
	a, err1 := strconv.ParseInt(f[0], 10, 64)
	b, err2 := strconv.ParseInt(f[1], 10, 64)
	if err1 != nil || err2 != nil || b <= a {
		return 0, fmt.Errorf("host speed probe printed %q, not two rising clock readings in ns", out)
	}
	return float64(b-a) / 1e9, nil
}

// speedProbe times the probe on the server's CPUs and the client's, at
// once when they are different sets; once, for both, when they are the
// same. A probe that fails leaves 0 and is noted once per run.
func (c *collector) speedProbe(ctx context.Context) runjson.Probe {
	iso := c.suite.Isolation
	timer := c.opt.speedTimer
	if timer == nil {
		timer = timeSpeed
	}
	var p runjson.Probe
	var errs [2]error
	if c.server == c.client && iso.ServerCPUs == iso.ClientCPUs {
		p.ServerS, errs[0] = timer(ctx, c.server, iso.ServerCPUs)
		p.ClientS = p.ServerS
	} else {
		var wg sync.WaitGroup
		wg.Add(2)
		go func() { defer wg.Done(); p.ServerS, errs[0] = timer(ctx, c.server, iso.ServerCPUs) }()
		go func() { defer wg.Done(); p.ClientS, errs[1] = timer(ctx, c.client, iso.ClientCPUs) }()
		wg.Wait()
	}
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
	runjson.KeepFastest(c.atSpeed, runjson.SpeedSet(true, c.server.name(), iso.ServerCPUs), p.ServerS)
	runjson.KeepFastest(c.atSpeed, runjson.SpeedSet(false, c.client.name(), iso.ClientCPUs), p.ClientS)
}

// slowdown is how much slower than ref (fastest times by set) p ran; 0:
// unknown.
func (c *collector) slowdown(p runjson.Probe, ref map[string]float64) float64 {
	mr := runjson.Measurement{HostSpeed: &runjson.HostSpeed{Before: p},
		ServerHost: c.server.name(), ClientHost: c.client.name(),
		ServerCPUList: c.suite.Isolation.ServerCPUs, ClientCPUList: c.suite.Isolation.ClientCPUs}
	return mr.Slowdown(ref)
}

// beforeTurn probes the host before a turn. Where the suite retakes slow
// turns and the probe ran retake_slow times as long as its fastest, in
// this run or in this machine's last collects (speedMemo), it waits for
// the host to come back to speed, probing every speedEvery, at most
// speedWait: the turn then runs at speed and is not taken again.
func (c *collector) beforeTurn(ctx context.Context) (runjson.Probe, time.Duration) {
	p := c.speedProbe(ctx)
	limit := c.suite.Isolation.RetakeSlow
	if limit <= 0 || c.speedWaited >= speedBudget {
		return p, 0
	}
	if c.memo == nil {
		c.memo = c.readMemo()
	}
	start := time.Now()
	defer func() { c.speedWaited += time.Since(start) }()
	for s := c.slowdown(p, c.reference()); s >= limit && ctx.Err() == nil; s = c.slowdown(p, c.reference()) {
		waited := time.Since(start)
		if waited >= speedWait {
			c.note("the host still ran %.2f× slower than its fastest (in this run or this machine's last collects) after a wait of %v: the turn runs now", s, waited.Round(time.Second))
			break
		}
		if c.speedWaited+waited >= speedBudget {
			c.note("the host still ran %.2f× slower than its fastest (in this run or this machine's last collects), and the waits for it have reached %v, all this collect may wait: from here turns run without waiting, and the slow ones are taken again after the rounds if they are few", s, speedBudget)
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

// afterTurn probes the host after t's turn and records both probes on
// the turn's measurements: those of t listed after the first order.
func (c *collector) afterTurn(ctx context.Context, t suite.Target, first int, before runjson.Probe, waited time.Duration) error {
	after := c.speedProbe(ctx)
	retake := c.retaking
	return c.dir.Update(func(m *runjson.Manifest) {
		for i := range m.Measurements {
			mr := &m.Measurements[i]
			if mr.Target == t.Name && mr.Order > first && mr.Phase == "" {
				mr.HostSpeed = &runjson.HostSpeed{Before: before, After: after, WaitedS: round3(waited.Seconds()), Retake: retake}
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
		parts = append(parts, fmt.Sprintf("the host ran %.2f× slower than its fastest around it", st.slowdown))
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

// retakeSlow takes again, once, each turn of the closed-loop rounds
// around which the probe ran retake_slow times as long as the run's
// fastest, or in whose windows other processes used more than
// foreignRetake of a CPU set: its measurements stay in run.json, dumps and
// all, marked not counted (Error, HostSpeed.Dropped), and the turn runs
// again.
func (c *collector) retakeSlow(ctx context.Context, targets []suite.Target) error {
	limit := c.suite.Isolation.RetakeSlow
	if limit <= 0 {
		return nil
	}
	defer c.rememberSpeed() // host_speed_memo.go
	turns, all := c.slowTurns(limit)
	if len(turns) == 0 {
		return nil
	}
	var names []string
	for _, st := range turns {
		names = append(names, fmt.Sprintf("%s rep %d (%s)", st.target, st.rep, st.why(limit)))
	}
	if float64(len(turns)) > retakeShare*float64(all) {
		c.note("the host ran slow, or beside other load, around %d of %d turns, more than %.0f%%: a second pass would run on the same host, so none is taken again (the audit's host-slow finding names them): %s",
			len(turns), all, 100*retakeShare, strings.Join(names, ", "))
		return nil
	}
	c.opt.Progress.Note(fmt.Sprintf("the host ran slow, or beside other load, around %d turns: taking them again: %s", len(turns), strings.Join(names, ", ")))
	if err := c.dropTurns(turns); err != nil {
		return err
	}
	c.plan(targets) // the dropped turns are pending again
	c.retaking = true
	defer func() { c.retaking = false }()
	for _, st := range turns {
		i := slices.IndexFunc(targets, func(t suite.Target) bool { return t.Name == st.target })
		if i < 0 {
			continue
		}
		if err := c.repetition(ctx, targets[i], st.rep); err != nil {
			if ctx.Err() != nil || storeFailed(err) {
				return err
			}
			c.note("%s rep %d, taken again: %v", st.target, st.rep, err)
		}
	}
	return nil
}

// slowTurns lists the turns of the run, in the order they ran, whose
// counted closed-loop measurements ran with the probe at least limit times
// as long as the run's fastest or beside other load (foreignRetake),
// leaving out turns taken again already, and counts the probed turns.
func (c *collector) slowTurns(limit float64) (slow []slowTurn, turns int) {
	return slowTurnsIn(c.dir.Manifest().Measurements, limit)
}

// retakeDue reports whether a run's measurements ms have slow turns the
// suite's retake_slow takes again: a complete run collected before they
// were taken (or under a rule that took none) is resumed for them.
func (c *collector) retakeDue(ms []runjson.Measurement) bool {
	limit := c.suite.Isolation.RetakeSlow
	if limit <= 0 {
		return false
	}
	slow, all := slowTurnsIn(ms, limit)
	return len(slow) > 0 && float64(len(slow)) <= retakeShare*float64(all)
}

// retakeDueFor reports whether target has a turn retakeDue takes again:
// a resumed run prepares it again for that, finished as it was.
func (c *collector) retakeDueFor(target string) bool {
	ms := c.dir.Manifest().Measurements
	if !c.retakeDue(ms) {
		return false
	}
	slow, _ := slowTurnsIn(ms, c.suite.Isolation.RetakeSlow)
	return slices.ContainsFunc(slow, func(st slowTurn) bool { return st.target == target })
}

// slowTurnsIn is slowTurns on ms.
func slowTurnsIn(ms []runjson.Measurement, limit float64) (slow []slowTurn, turns int) {
	best := runjson.Fastest(ms)
	var out []slowTurn
	seen, probed := map[string]int{}, map[string]bool{}
	for _, mr := range ms {
		if mr.Phase != "" || mr.Warmup || mr.Error != "" || mr.HostSpeed == nil || mr.HostSpeed.Retake {
			continue
		}
		probed[mr.Target+"/"+strconv.Itoa(mr.Rep)] = true
		s, f := mr.Slowdown(best), foreignShare(&mr)
		if s < limit && f <= foreignRetake {
			continue
		}
		key := mr.Target + "/" + strconv.Itoa(mr.Rep)
		if i, ok := seen[key]; ok {
			out[i].slowdown, out[i].foreign = max(out[i].slowdown, s), max(out[i].foreign, f)
			continue
		}
		seen[key] = len(out)
		out = append(out, slowTurn{target: mr.Target, rep: mr.Rep, slowdown: s, foreign: f})
	}
	return out, len(probed)
}

// dropTurns marks the measurements of turns, warm-ups too, not counted:
// the turn taken again has warm-ups of its own.
func (c *collector) dropTurns(turns []slowTurn) error {
	limit := c.suite.Isolation.RetakeSlow
	return c.dir.Update(func(m *runjson.Manifest) {
		for i := range m.Measurements {
			mr := &m.Measurements[i]
			if mr.Phase != "" || mr.Error != "" || mr.HostSpeed == nil || mr.HostSpeed.Retake {
				continue
			}
			for _, st := range turns {
				if mr.Target == st.target && mr.Rep == st.rep {
					mr.HostSpeed.Dropped = true
					mr.Error = fmt.Sprintf("not counted: %s (the host speed probe took %s); the turn was taken again at the end of the rounds, this dump is kept",
						strings.Replace(st.why(limit), " around it", " around this turn", 1), probeTimes(mr.HostSpeed))
				}
			}
		}
	})
}

// probeTimes says a turn's four probe times in ms.
func probeTimes(h *runjson.HostSpeed) string {
	ms := func(s float64) string { return strconv.FormatFloat(math.Round(s*1e4)/10, 'f', -1, 64) + " ms" }
	return fmt.Sprintf("server %s before, %s after; client %s before, %s after",
		ms(h.Before.ServerS), ms(h.After.ServerS), ms(h.Before.ClientS), ms(h.After.ClientS))
}
