package collect

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

// TestSpeedProbeSeesASharedCPU times the real probe on CPU 0, alone and
// then beside a busy loop pinned to the same CPU: sharing the CPU, the
// same work takes about twice as long, which is what a neighbour on the
// physical core does to a server while /proc/stat shows it busy as ever.
func TestSpeedProbeSeesASharedCPU(t *testing.T) {
	if _, err := exec.LookPath("taskset"); err != nil {
		t.Skip("taskset not installed")
	}
	ctx := context.Background()
	here := &localMachine{}
	times := func() []float64 {
		var out []float64
		for range 3 {
			s, err := timeSpeed(ctx, here, "0")
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		}
		slices.Sort(out)
		return out
	}
	alone := times()
	hog := exec.Command("taskset", "-c", "0", "sh", "-c", "while :; do :; done")
	if err := hog.Start(); err != nil {
		t.Fatal(err)
	}
	shared := times()
	hog.Process.Kill()
	hog.Wait()
	if alone[0] <= 0 || shared[1]/alone[0] < 1.4 {
		t.Errorf("the probe took %v s alone and %v s sharing its CPU with a busy loop: want the shared at least 1.4 times as long", alone, shared)
	}
	t.Logf("probe alone %v s, sharing CPU 0 %v s", alone, shared)
	for _, bad := range []string{"", "12", "5 3", "x 9"} {
		if _, err := parseSpeed([]byte(bad)); err == nil {
			t.Errorf("parseSpeed(%q): no error", bad)
		}
	}
}

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

func (s *slowCalls) time(context.Context, Machine, string) (float64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	if slices.Contains(s.slow, s.n) {
		return 0.09, nil
	}
	return 0.05, nil
}

// TestSlowTurnsTakenAgain injects a slow host around one turn of four (a
// target, one scenario, four rounds, unpinned: one probe per call, before
// and after each turn). After the turn: with retake_slow the turn is taken
// again at the end of the rounds, the slow one kept in run.json and not
// counted; without it, it is kept, counted, its slowdown recorded. Before
// the turn: the collector waits for the host to come back to speed and the
// turn runs then, not taken again. Slow around three turns of four, the
// host is slow too often for a second pass: none is taken again.
func TestSlowTurnsTakenAgain(t *testing.T) {
	if testing.Short() {
		t.Skip("runs whole collects against real servers")
	}
	t.Parallel()
	for _, tc := range []struct {
		name    string
		retake  string
		slow    []int
		dropped bool
		waited  bool
		slowed  []int // the reps counted slow
	}{
		{"after the turn", "1.25", []int{4}, true, false, nil},
		{"before the turn", "1.25", []int{3}, false, true, nil},
		{"not retaken", "0", []int{4}, false, false, []int{2}},
		{"too many to retake", "1.25", []int{2, 4, 6}, false, false, []int{1, 2, 3}},
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
			var counted, dropped []runjson.Measurement
			for _, mr := range dir.Manifest().Measurements {
				if mr.Warmup {
					if first := mr.Rep == 2 && !mr.HostSpeed.Retake; tc.dropped && first != (mr.Error != "" && mr.HostSpeed.Dropped) {
						t.Errorf("warm-up of rep %d (retake %v): error %q, dropped %v; want the dropped turn's warm-up dropped too, no other", mr.Rep, mr.HostSpeed.Retake, mr.Error, mr.HostSpeed.Dropped)
					}
					continue
				}
				if mr.HostSpeed == nil {
					t.Fatalf("%s rep %d: no host_speed", mr.Scenario, mr.Rep)
				}
				if mr.Error == "" {
					counted = append(counted, mr)
				} else {
					dropped = append(dropped, mr)
				}
			}
			if len(counted) != 4 {
				t.Fatalf("%d measurements counted, want 4 (one a round)", len(counted))
			}
			best := runjson.Fastest(dir.Manifest().Measurements)
			if tc.dropped {
				if len(dropped) != 1 || dropped[0].Rep != 2 || !dropped[0].HostSpeed.Dropped || !strings.Contains(dropped[0].Error, "1.80× slower") {
					t.Fatalf("dropped: %+v, want rep 2's first turn, 1.80× slower", dropped)
				}
				retake := counted[len(counted)-1]
				if retake.Rep != 2 || !retake.HostSpeed.Retake || retake.Order < dropped[0].Order || retake.Dump == dropped[0].Dump {
					t.Errorf("the last counted measurement: rep %d retake %v order %d dump %s; want rep 2 taken again after the rounds under a new name", retake.Rep, retake.HostSpeed.Retake, retake.Order, retake.Dump)
				}
			} else if len(dropped) != 0 {
				t.Fatalf("dropped %d measurements, want none", len(dropped))
			}
			for _, mr := range counted {
				s := mr.Slowdown(best)
				if slices.Contains(tc.slowed, mr.Rep) != (s > 1.7) {
					t.Errorf("rep %d: slowdown %.2f", mr.Rep, s)
				}
				if waited := mr.HostSpeed.WaitedS >= speedEvery.Seconds(); waited != (tc.waited && mr.Rep == 2) {
					t.Errorf("rep %d waited %v s", mr.Rep, mr.HostSpeed.WaitedS)
				}
			}
		})
	}
}

// TestSlowStartWaitsAgainstMemo: a collect that starts while the host runs
// slow has no fast probe of its own yet; with the machine's memo of its
// last collects it waits before its first turn, without it the first turn
// runs slow and is taken again at the end. Each collect adds its fastest
// times to the memo.
func TestSlowStartWaitsAgainstMemo(t *testing.T) {
	if testing.Short() {
		t.Skip("runs whole collects against real servers")
	}
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
	c := &collector{here: &localMachine{cache: remembered}}
	if m := c.readMemo(); len(m) != 2 || len(m[runjson.SpeedSet(true, "", "")]) != 2 || m[runjson.SpeedSet(false, "", "")][0] != 0.05 {
		t.Errorf("memo after two collects: %v, want the server's and the client's set (unpinned) with two times each, 0.05 s first", m)
	}
	fresh := collectWith(t.TempDir(), 1)
	if fresh[0].Rep != 1 || fresh[0].HostSpeed.WaitedS != 0 || !fresh[0].HostSpeed.Dropped {
		t.Errorf("without a memo, the first turn: rep %d waited %v s, dropped %v; want it ran at once and was taken again", fresh[0].Rep, fresh[0].HostSpeed.WaitedS, fresh[0].HostSpeed.Dropped)
	}
}

// TestResumeTakesSlowTurnsAgain: a complete run whose slow turn was not
// taken again (collected under a rule that took none), or one a window of
// which ran beside other processes (cpu-interference), is resumed for it,
// and only for it; once taken, there is nothing left to resume.
func TestResumeTakesSlowTurnsAgain(t *testing.T) {
	if testing.Short() {
		t.Skip("runs whole collects against real servers")
	}
	t.Parallel()
	for _, tc := range []struct {
		name   string
		slow   []int
		change func(m *runjson.Manifest)
		rep    int
		why    string
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
		}, 2, "the host ran 1.80× slower than its fastest around this turn"},
		{"other load", nil, func(m *runjson.Manifest) {
			for i, mr := range m.Measurements {
				if mr.Rep == 3 && !mr.Warmup { // pinned, with half a CPU of other load on the client's
					load := &runjson.CPUSetLoad{CPUs: "1", CapacityS: 1, BusyS: 0.9, OursS: 0.4, ForeignS: 0.5}
					m.Measurements[i].Interference = &runjson.Interference{WindowS: 1, Client: load}
					m.Measurements[i].ServerCPUList, m.Measurements[i].ClientCPUList = "0", "1"
				}
			}
		}, 3, "other processes used 50% of a CPU set it was measured on"},
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
			again := opt()
			again.Resume = dir.Path
			if _, err := Run(ctx, suite, again); err != nil {
				t.Fatal(err)
			}
			d, err := OpenRunDir(dir.Path)
			if err != nil {
				t.Fatal(err)
			}
			var dropped, retaken []int
			for _, mr := range d.Manifest().Measurements {
				if mr.Warmup {
					continue
				}
				if mr.HostSpeed.Dropped {
					dropped = append(dropped, mr.Rep)
					if !strings.Contains(mr.Error, tc.why) {
						t.Errorf("dropped rep %d: %q, want it to say %q", mr.Rep, mr.Error, tc.why)
					}
				}
				if mr.HostSpeed.Retake {
					retaken = append(retaken, mr.Rep)
				}
			}
			if !slices.Equal(dropped, []int{tc.rep}) || !slices.Equal(retaken, []int{tc.rep}) {
				t.Errorf("after resuming: dropped reps %v, taken again %v; want rep %d both", dropped, retaken, tc.rep)
			}
			if _, err := Run(ctx, suite, again); err == nil || !strings.Contains(err.Error(), "nothing to resume") {
				t.Errorf("resuming once more: %v, want nothing to resume", err)
			}
		})
	}
}
