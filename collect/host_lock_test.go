package collect_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect"
	"github.com/fairbench/fairbench/parse/rundir"
	"github.com/fairbench/fairbench/parse/runjson"
)

// TestCollectsTakeTurns: two real collects on this host, into different
// -out folders, started together: the host lock makes them take turns.
// One waits, saying which process and run holds the host and since when,
// and no load window of one overlaps a window of the other.
func TestCollectsTakeTurns(t *testing.T) {
	t.Parallel()
	hi := collect.BuiltBinary(t, "hiserver")
	hostLock := filepath.Join(t.TempDir(), "collect.lock")
	type result struct {
		dir    *collect.RunDir
		err    error
		stderr *syncBuffer
	}
	results := make([]result, 2)
	var wg sync.WaitGroup
	for i := range results {
		fc := newFaultCase(t, hi, "", "0s", 1, "")
		results[i].stderr = &syncBuffer{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			opt := collect.Options{Out: fc.out, HostLock: hostLock, Progress: collect.NewLineProgress(results[i].stderr)}
			results[i].dir, results[i].err = runBounded(t, fc.suite, opt)
		}()
	}
	wg.Wait()
	var waited []int
	for i, r := range results {
		if r.err != nil {
			t.Fatalf("collect %d: %v\n%s", i, r.err, r.stderr)
		}
		if strings.Contains(r.stderr.String(), "waiting for this host") {
			waited = append(waited, i)
		}
	}
	a, b := checkRunDir(t, results[0].dir.Path), checkRunDir(t, results[1].dir.Path)
	if len(a.Measurements) == 0 || len(b.Measurements) == 0 {
		t.Fatalf("measurements: %d and %d, want some in each run", len(a.Measurements), len(b.Measurements))
	}
	for _, x := range a.Measurements {
		for _, y := range b.Measurements {
			if x.Start.Before(y.End) && y.Start.Before(x.End) {
				t.Errorf("windows overlap: %s rep %d %s–%s and %s rep %d %s–%s", x.Target, x.Rep, x.Start.Format(time.StampMilli), x.End.Format(time.StampMilli),
					y.Target, y.Rep, y.Start.Format(time.StampMilli), y.End.Format(time.StampMilli))
			}
		}
	}
	if len(waited) != 1 {
		t.Fatalf("collects that waited for the host: %v, want one\nfirst:\n%s\nsecond:\n%s", waited, results[0].stderr, results[1].stderr)
	}
	holder := results[1-waited[0]].dir
	note := results[waited[0]].stderr.String()
	for _, want := range []string{"process " + strconv.Itoa(os.Getpid()), "collect of " + holder.Path, "run " + holder.Manifest().ID, " since "} {
		if !strings.Contains(note, want) {
			t.Errorf("the waiting collect does not say %q:\n%s", want, note)
		}
	}
	if _, err := os.Stat(hostLock); !os.IsNotExist(err) {
		t.Errorf("the host lock file is left after both collects: %v", err)
	}
}

// TestHostWaitInterrupted: a collect waiting for the host stops waiting on
// Ctrl-C (its context ends) at once, having measured nothing, and its run
// is left to -resume.
func TestHostWaitInterrupted(t *testing.T) {
	t.Parallel()
	hi := collect.BuiltBinary(t, "hiserver")
	hostLock := filepath.Join(t.TempDir(), "collect.lock")
	held, _, err := rundir.TryLock(hostLock, "collect of elsewhere, run r0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Unlock()
	fc := newFaultCase(t, hi, "", "0s", 1, "")
	stderr := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ctx.Err() == nil && !strings.Contains(stderr.String(), "waiting for this host") {
			time.Sleep(20 * time.Millisecond)
		}
		cancel()
	}()
	done := make(chan error, 1)
	var dir *collect.RunDir
	go func() {
		var err error
		dir, err = collect.Run(ctx, fc.suite, collect.Options{Out: fc.out, HostLock: hostLock, Progress: collect.NewLineProgress(stderr)})
		done <- err
	}()
	select {
	case err = <-done:
	case <-time.After(time.Minute):
		t.Fatalf("the waiting collect did not stop on its context's end\n%s", stderr)
	}
	if err == nil || !strings.Contains(err.Error(), "interrupted while waiting for this host") || !strings.Contains(err.Error(), "-resume") {
		t.Errorf("error %v, want an interrupted wait that names -resume", err)
	}
	if !strings.Contains(stderr.String(), "collect of elsewhere, run r0") {
		t.Errorf("the wait does not name the holder's run:\n%s", stderr)
	}
	if dir == nil {
		t.Fatal("no run dir returned")
	}
	if m := checkRunDir(t, dir.Path); len(m.Measurements) != 0 || m.Status != runjson.StatusInterrupted {
		t.Errorf("the interrupted wait measured %d, status %s; want nothing measured and the run interrupted", len(m.Measurements), m.Status)
	}
}
