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
	"github.com/fairbench/fairbench/parse/manifest"
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
func leakSuite(t *testing.T, hi string, targets, scenarios int) *collect.Suite {
	t.Helper()
	var b strings.Builder
	b.WriteString("name = \"leak\"\n[load]\nconnections = 2\nduration = \"1s\"\nwarmup = \"0s\"\nrepetitions = 1\n")
	for i := 1; i <= targets; i++ {
		fmt.Fprintf(&b, "[[target]]\nname = \"t%02d\"\nstart = [%q]\nenv = { BODY = \"Hi\" }\n", i, hi)
	}
	for i := 1; i <= scenarios; i++ {
		fmt.Fprintf(&b, "[[scenario]]\nname = \"s%02d\"\nrequest = { path = \"/\" }\nexpect = { status = 200, body = \"Hi\" }\n", i)
	}
	s, err := collect.ParseSuite([]byte(b.String()), filepath.Join(t.TempDir(), "leak.toml"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestNoLeakOver20Targets11Scenarios collects 20 targets × 11 scenarios
// (220 one-second windows, about four minutes) and checks that the
// collector holds no more file descriptors and no process afterwards than
// before. A one-target run first lets the runtime open what it keeps for
// good (its poller, signal pipes).
func TestNoLeakOver20Targets11Scenarios(t *testing.T) {
	if testing.Short() {
		t.Skip("220 load windows: about four minutes")
	}
	hi, _ := sharedBinaries(t)
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	if _, err := collect.Run(ctx, leakSuite(t, hi, 1, 1), collect.Options{Out: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	fdsBefore, procsBefore := openFDs(t), liveDescendants()
	start := time.Now()
	dir, err := collect.Run(ctx, leakSuite(t, hi, 20, 11), collect.Options{Out: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	fdsAfter, procsAfter := openFDs(t), liveDescendants()
	m := checkRunDir(t, dir.Path)
	if m.Status != manifest.StatusComplete || len(m.Measurements) != 220 {
		t.Errorf("status %q with %d measurements, want complete with 220", m.Status, len(m.Measurements))
	}
	if fdsAfter > fdsBefore {
		t.Errorf("%d open file descriptors after, %d before: a leak", fdsAfter, fdsBefore)
	}
	if len(procsAfter) > len(procsBefore) {
		t.Errorf("live processes %v after, %v before: a leak", procsAfter, procsBefore)
	}
	t.Logf("220 measurements in %v; open fds %d before, %d after; processes %d before, %d after", took.Round(time.Second), fdsBefore, fdsAfter, len(procsBefore), len(procsAfter))
}
