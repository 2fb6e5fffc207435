package collect

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect/hostcheck"
	"github.com/fairbench/fairbench/collect/machine"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/rundir"
	"github.com/fairbench/fairbench/parse/runjson"
)

const speedSuite = `
name = "speed"

[isolation]
retake_slow = RETAKE

[load]
tool = "bombardier"
connections = 2
duration = "1s"
warmup = "1s"
repetitions = 4

[[target]]
name = "app"
start = ["HI"]
env = { BODY = "hi" }

[[scenario]]
name = "hi"
request = { path = "/" }
expect = { status = 200, body = "hi" }
`

// retakeSuite is speedSuite with retake_slow = retake.
func retakeSuite(t *testing.T, retake string) *suite.Suite {
	t.Helper()
	suite, err := suite.ParseSuite([]byte(strings.NewReplacer("HI", buildHiServer(t), "RETAKE", retake).Replace(speedSuite)), "speed.toml")
	if err != nil {
		t.Fatal(err)
	}
	return suite
}

// slowCalls is a speedTimer for which the probe takes 50 ms, and 90 ms
// on the calls (counted from 1) it lists: the host is slow then.
type slowCalls struct {
	mu   sync.Mutex
	n    int
	slow []int
}

func (s *slowCalls) time(context.Context, machine.Machine, string) (float64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	if slices.Contains(s.slow, s.n) {
		return 0.09, nil
	}
	return 0.05, nil
}

// TestSlowTurnsTakenAgain injects a slow host around turns (a target, one
// scenario, four rounds, unpinned: one probe per call; the probe after a
// turn is the next turn's before, so call n+1 is the probe after turn n).
// After the turn: with retake_slow the turn is taken again at once, in
// its round, before the next round's turn, the slow one kept in run.json
// and not counted; the retake, whose probe before is that slow one, first
// waits for the host to come back to speed. Without retake_slow, the turn
// is kept and counted, and so is the next, whose probe before was the
// slow one; their slowdowns are recorded. Slow after every turn, a turn is
// taken again once at most (its retake, slow too, counted), and none once
// the turns taken again reach one and a fifth of those counted (the third
// turn, with two of three counted taken again).
func TestSlowTurnsTakenAgain(t *testing.T) {
	if testing.Short() {
		t.Skip("runs whole collects against real servers")
	}
	t.Parallel()
	for _, tc := range []struct {
		name    string
		retake  string
		slow    []int
		dropped []int // the reps whose first turn is not counted
		waited  []int // the reps whose counted turn waited for the host first
		slowed  []int // the reps counted slow
	}{
		{"after the turn", "1.25", []int{3}, []int{2}, []int{2}, nil},
		{"not retaken", "0", []int{3}, nil, nil, []int{2, 3}},
		{"slow throughout", "1.25", []int{2, 4, 6, 8, 10, 12}, []int{1, 2}, []int{1, 2, 3, 4}, []int{1, 2, 3, 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			suite := retakeSuite(t, tc.retake)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			timer := &slowCalls{slow: tc.slow}
			dir, err := Run(ctx, suite, Options{Out: t.TempDir(), speedTimer: timer.time, buildCache: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			m := dir.Manifest()
			var counted, dropped []runjson.Measurement
			var droppedReps []int
			for _, mr := range m.Measurements {
				if mr.HostSpeed == nil {
					t.Fatalf("%s rep %d: no host_speed", mr.Scenario, mr.Rep)
				}
				if first := slices.Contains(tc.dropped, mr.Rep) && !mr.HostSpeed.Retake; first != (mr.Error != "" && mr.HostSpeed.Dropped) {
					t.Errorf("rep %d (warm-up %v, retake %v): error %q, dropped %v; want the dropped turns' measurements and warm-ups dropped, no other", mr.Rep, mr.Warmup, mr.HostSpeed.Retake, mr.Error, mr.HostSpeed.Dropped)
				}
				if mr.HostSpeed.Retake != (slices.Contains(tc.dropped, mr.Rep) && mr.Error == "") {
					t.Errorf("rep %d (warm-up %v): retake %v", mr.Rep, mr.Warmup, mr.HostSpeed.Retake)
				}
				switch {
				case mr.Warmup:
				case mr.Error == "":
					counted = append(counted, mr)
				default:
					dropped = append(dropped, mr)
					droppedReps = append(droppedReps, mr.Rep)
				}
			}
			if len(counted) != 4 {
				t.Fatalf("%d measurements counted, want 4 (one a round)", len(counted))
			}
			if !slices.Equal(droppedReps, tc.dropped) {
				t.Fatalf("dropped reps %v, want %v", droppedReps, tc.dropped)
			}
			for _, d := range dropped {
				if !strings.Contains(d.Error, "1.80× slower") || !strings.Contains(d.Error, "taken again at once") {
					t.Errorf("dropped rep %d: %q, want 1.80× slower, taken again at once", d.Rep, d.Error)
				}
				i := slices.IndexFunc(counted, func(mr runjson.Measurement) bool { return mr.Rep == d.Rep })
				if retake := counted[i]; !retake.HostSpeed.Retake || retake.Order < d.Order || retake.Dump == d.Dump {
					t.Errorf("rep %d counted: retake %v order %d dump %s; want it taken again after order %d under a new name", d.Rep, retake.HostSpeed.Retake, retake.Order, retake.Dump, d.Order)
				}
			}
			if out := TurnsOutOfRound(m); len(out) > 0 {
				t.Errorf("turns counted out of their round: %v", out)
			}
			best := runjson.Fastest(m.Measurements)
			for _, mr := range counted {
				s := mr.Slowdown(best)
				if slices.Contains(tc.slowed, mr.Rep) != (s > 1.7) {
					t.Errorf("rep %d: slowdown %.2f", mr.Rep, s)
				}
				if waited := mr.HostSpeed.WaitedS >= speedEvery.Seconds(); waited != slices.Contains(tc.waited, mr.Rep) {
					t.Errorf("rep %d waited %v s", mr.Rep, mr.HostSpeed.WaitedS)
				}
			}
		})
	}
}

// TestSlowTurnIn: the turn judged is the one just taken, against the
// run's typical turn so far (its fastest over its first turns), and a
// turn taken again is not judged again.
func TestSlowTurnIn(t *testing.T) {
	turn := func(target string, rep, order int, s float64, retake bool) runjson.Measurement {
		return runjson.Measurement{Target: target, Rep: rep, Order: order,
			HostSpeed: &runjson.HostSpeed{Before: runjson.Probe{ServerS: s, ClientS: 0.05}, After: runjson.Probe{ServerS: 0.05, ClientS: 0.05}, Retake: retake}}
	}
	ms := []runjson.Measurement{turn("a", 1, 1, 0.05, false), turn("b", 1, 2, 0.09, false), turn("a", 2, 3, 0.09, false), turn("a", 2, 4, 0.06, false)}
	for _, tc := range []struct {
		name     string
		ms       []runjson.Measurement
		target   string
		rep      int
		first    int
		slowdown float64 // 0: not slow
	}{
		{"slow", ms, "a", 2, 2, 1.8},
		{"an earlier session's turn", ms, "b", 1, 2, 0},
		{"another target's turn", ms, "b", 2, 2, 0},
		{"at speed", ms[:1], "a", 1, 0, 0},
		{"taken again", []runjson.Measurement{ms[0], turn("a", 2, 5, 0.09, true)}, "a", 2, 4, 0},
	} {
		st, ok := slowTurnIn(tc.ms, tc.target, tc.rep, tc.first, 1.25)
		if ok != (tc.slowdown > 0) || ok && (st.target != tc.target || st.rep != tc.rep || st.slowdown < tc.slowdown-0.01 || st.slowdown > tc.slowdown+0.01) {
			t.Errorf("%s: %+v, %v; want slowdown %v", tc.name, st, ok, tc.slowdown)
		}
	}
	// A slow day: the run's first turn at 50 ms, every later one at about
	// 90. A turn at the day's speed is not slow; one at twice it is.
	day := []runjson.Measurement{turn("a", 1, 1, 0.05, false)}
	for i := 2; i <= 7; i++ {
		mr := turn("b", i, i, 0.09+0.001*float64(i), false)
		mr.HostSpeed.After.ServerS = 0.09
		day = append(day, mr)
	}
	atSpeed := append(slices.Clone(day), turn("a", 8, 8, 0.095, false))
	if st, ok := slowTurnIn(atSpeed, "a", 8, 7, 1.25); ok {
		t.Errorf("a turn at the slow day's speed: %+v, want it not slow (1.9× the run's fastest, 1.05× its typical turn)", st)
	}
	slow := append(slices.Clone(day), turn("a", 8, 8, 0.19, false))
	if st, ok := slowTurnIn(slow, "a", 8, 7, 1.25); !ok || st.slowdown < 2 {
		t.Errorf("a turn at twice the slow day's speed: %+v, %v; want it slow, about 2.1×", st, ok)
	}
	if n := retakenTurns([]runjson.Measurement{turn("a", 2, 5, 0.09, true), turn("a", 2, 6, 0.09, true), turn("b", 2, 7, 0.09, true), turn("b", 3, 8, 0.09, false)}); n != 2 {
		t.Errorf("retakenTurns = %d, want 2", n)
	}
	warm, dropped := turn("a", 3, 9, 0.05, false), turn("b", 3, 10, 0.09, false)
	warm.Warmup, dropped.Error = true, "not counted"
	if n := countedTurns([]runjson.Measurement{ms[0], ms[1], warm, dropped, {Target: "a", Rep: 1, Phase: "pilot"}}); n != 2 {
		t.Errorf("countedTurns = %d, want 2: no warm-up, no turn dropped, no pilot window", n)
	}
}

// TestSlowStartWaitsAgainstMemoSoak: a collect that starts while the host runs
// slow has no fast probe of its own yet; with the machine's memo of its
// last collects it waits before its first turn, without it the first turn
// runs slow and is taken again at once. Each collect adds its fastest
// times to the memo.
func TestSlowStartWaitsAgainstMemoSoak(t *testing.T) {
	Soak(t, "runs whole collects against real servers, about half a minute")
	t.Parallel()
	suite := retakeSuite(t, "1.25")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	collectWith := func(cache string, slow ...int) []runjson.Measurement {
		timer := &slowCalls{slow: slow}
		dir, err := Run(ctx, suite, Options{Out: t.TempDir(), speedTimer: timer.time, buildCache: cache})
		if err != nil {
			t.Fatal(err)
		}
		var out []runjson.Measurement
		for _, mr := range dir.Manifest().Measurements {
			if !mr.Warmup {
				out = append(out, mr)
			}
		}
		return out
	}
	remembered := t.TempDir()
	collectWith(remembered) // at speed throughout: the memo has 50 ms
	first := collectWith(remembered, 1)[0]
	if first.Rep != 1 || first.HostSpeed.WaitedS < speedEvery.Seconds() || first.Error != "" {
		t.Errorf("with the memo, the first turn: rep %d waited %v s, error %q; want it waited for the host and counted", first.Rep, first.HostSpeed.WaitedS, first.Error)
	}
	if m := hostcheck.ReadSpeedMemo(hostcheck.MemoPath(&machine.Local{Cache: remembered})); len(m) != 2 || len(m[runjson.SpeedSet(true, "", "")]) != 2 || m[runjson.SpeedSet(false, "", "")][0] != 0.05 {
		t.Errorf("memo after two collects: %v, want the server's and the client's set (unpinned) with two times each, 0.05 s first", m)
	}
	fresh := collectWith(t.TempDir(), 1)
	if fresh[0].Rep != 1 || fresh[0].HostSpeed.WaitedS != 0 || !fresh[0].HostSpeed.Dropped {
		t.Errorf("without a memo, the first turn: rep %d waited %v s, dropped %v; want it ran at once and was taken again", fresh[0].Rep, fresh[0].HostSpeed.WaitedS, fresh[0].HostSpeed.Dropped)
	}
}

// TestResumeLeavesSlowTurns: a complete run whose slow turn was not taken
// again (collected under a rule that took none), or one a window of which
// ran beside other processes (cpu-interference), is not resumed for it:
// taken now, the turn would come from another stretch of the host's time
// than its round. run.json stays as it was.
func TestResumeLeavesSlowTurns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs whole collects against real servers")
	}
	t.Parallel()
	for _, tc := range []struct {
		name   string
		slow   []int
		change func(m *runjson.Manifest)
	}{
		{"slow, not taken again", []int{4}, func(m *runjson.Manifest) {
			// the retake's records gone, the dropped ones counted
			var kept []runjson.Measurement
			for _, mr := range m.Measurements {
				if mr.HostSpeed.Retake {
					continue
				}
				if mr.HostSpeed.Dropped {
					mr.HostSpeed.Dropped, mr.Error = false, ""
				}
				kept = append(kept, mr)
			}
			m.Measurements = kept
		}},
		{"other load", nil, func(m *runjson.Manifest) {
			for i, mr := range m.Measurements {
				if mr.Rep == 3 && !mr.Warmup { // pinned, with half a CPU of other load on the client's
					load := &runjson.CPUSetLoad{CPUs: "1", CapacityS: 1, BusyS: 0.9, OursS: 0.4, ForeignS: 0.5}
					m.Measurements[i].Interference = &runjson.Interference{WindowS: 1, Client: load}
					m.Measurements[i].ServerCPUList, m.Measurements[i].ClientCPUList = "0", "1"
				}
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			suite := retakeSuite(t, "1.25")
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			opt := func(slow ...int) Options {
				return Options{Out: t.TempDir(), speedTimer: (&slowCalls{slow: slow}).time, buildCache: t.TempDir()}
			}
			dir, err := Run(ctx, suite, opt(tc.slow...))
			if err != nil {
				t.Fatal(err)
			}
			if err := dir.Update(tc.change); err != nil {
				t.Fatal(err)
			}
			before, err := runjson.Encode(ptr(dir.Manifest()))
			if err != nil {
				t.Fatal(err)
			}
			again := opt()
			again.Resume = dir.Path
			if _, err := Run(ctx, suite, again); err == nil || !strings.Contains(err.Error(), "nothing to resume") {
				t.Errorf("resuming: %v, want nothing to resume", err)
			}
			d, err := rundir.Load(dir.Path)
			if err != nil {
				t.Fatal(err)
			}
			if after, err := runjson.Encode(ptr(d.Manifest())); err != nil || !bytes.Equal(after, before) {
				t.Errorf("run.json changed by the resume (%v):\n%s\nwas\n%s", err, after, before)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// TestSpeedWaitBudget: the waits for the host's speed take at most a
// tenth of the suite's measurement budget, and never more than
// speedBudget; with no budget given, speedBudget.
func TestSpeedWaitBudget(t *testing.T) {
	for _, c := range []struct {
		budget string
		want   time.Duration
	}{
		{"", speedBudget},
		{`budget = "15m"`, 90 * time.Second},
		{`budget = "30m"`, 3 * time.Minute},
		{`budget = "2h"`, speedBudget},
	} {
		src := strings.Replace(speedSuite, "repetitions = 4", "repetitions = 4\n"+c.budget, 1)
		s, err := suite.ParseSuite([]byte(strings.NewReplacer("HI", "true", "RETAKE", "1.2").Replace(src)), "speed.toml")
		if err != nil {
			t.Fatal(err)
		}
		if got := newCollector(s, Options{}).speedWaitBudget(); got != c.want {
			t.Errorf("%q: waits may take %v, want %v", c.budget, got, c.want)
		}
	}
}
