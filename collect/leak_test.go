package collect_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

// openFDs counts this process's open file descriptors.
func openFDs(t *testing.T) int {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(entries)
}

// liveDescendants lists this process's live descendants (zombies aside).
func liveDescendants() []int {
	tree := []int{os.Getpid()}
	for i := 0; i < len(tree); i++ {
		tree = append(tree, childrenOf(tree[i])...)
	}
	var out []int
	for _, pid := range tree[1:] {
		if f := procStat(pid); len(f) > 0 && f[0] != "Z" {
			out = append(out, pid)
		}
	}
	return out
}

// leakSuite writes a suite of targets × scenarios, every target a
// hiserver, every window 1 s with no warm-up.
func leakSuite(t *testing.T, hi string, targets, scenarios int) *suite.Suite {
	t.Helper()
	var b strings.Builder
	b.WriteString("name = \"leak\"\n[load]\nconnections = 2\nduration = \"1s\"\nwarmup = \"0s\"\nrepetitions = 1\nrate = 1000 # plumbing, not speed\n")
	for i := 1; i <= targets; i++ {
		fmt.Fprintf(&b, "[[target]]\nname = \"t%02d\"\nstart = [%q]\nenv = { BODY = \"Hi\" }\n", i, hi)
	}
	for i := 1; i <= scenarios; i++ {
		fmt.Fprintf(&b, "[[scenario]]\nname = \"s%02d\"\nrequest = { path = \"/\" }\nexpect = { status = 200, body = \"Hi\" }\n", i)
	}
	s, err := suite.ParseSuite([]byte(b.String()), filepath.Join(t.TempDir(), "leak.toml"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestNoLeak collects 3 targets × 2 scenarios and checks that the
// collector holds no more file descriptors and no process afterwards than
// before: every server, load tool and pipe of a run is let go.
func TestNoLeak(t *testing.T) {
	if testing.Short() {
		t.Skip("six load windows")
	}
	noLeak(t, 3, 2)
}

// TestNoLeakOver20Targets11ScenariosSoak is the soak of TestNoLeak: 220
// one-second turns, each with the host speed probe either side of it
// (0.25 to 0.75 s each, by the host's speed): 5 to 10 minutes.
func TestNoLeakOver20Targets11ScenariosSoak(t *testing.T) {
	collect.Soak(t, "220 load windows, 5 to 10 minutes")
	noLeak(t, 20, 11)
}

// noLeak collects targets × scenarios one-second windows and compares the
// open file descriptors and live processes before and after. A one-target
// run first lets the runtime open what it keeps for good (its poller,
// signal pipes).
func noLeak(t *testing.T, targets, scenarios int) {
	hi := collect.BuiltBinary(t, "hiserver")
	// A bound on a hang, not a speed target: 220 turns take 10 minutes on
	// a slow host.
	ctx, cancel := context.WithTimeout(context.Background(), 17*time.Minute)
	defer cancel()
	if _, err := collect.Run(ctx, leakSuite(t, hi, 1, 1), collect.Options{Out: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	fdsBefore, procsBefore := openFDs(t), liveDescendants()
	start := time.Now()
	dir, err := collect.Run(ctx, leakSuite(t, hi, targets, scenarios), collect.Options{Out: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	fdsAfter, procsAfter := openFDs(t), liveDescendants()
	m := checkRunDir(t, dir.Path)
	if want := targets * scenarios; m.Status != runjson.StatusComplete || len(m.Measurements) != want {
		t.Errorf("status %q with %d measurements, want complete with %d", m.Status, len(m.Measurements), want)
	}
	if fdsAfter > fdsBefore {
		t.Errorf("%d open file descriptors after, %d before: a leak", fdsAfter, fdsBefore)
	}
	if len(procsAfter) > len(procsBefore) {
		t.Errorf("live processes %v after, %v before: a leak", procsAfter, procsBefore)
	}
	t.Logf("%d measurements in %v; open fds %d before, %d after; processes %d before, %d after", len(m.Measurements), took.Round(time.Second), fdsBefore, fdsAfter, len(procsBefore), len(procsAfter))
}
