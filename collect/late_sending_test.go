package collect

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect/loadgen"
	"github.com/fairbench/fairbench/collect/suite"
)

// TestLateSendingTellsWhoStalled runs the real vegeta at 200 req/s for
// 2 s, twice, and stalls one side for 300 ms in the middle: once the
// server, with four workers (every answer waits until the stall ends, so
// the four are held and the requests due meanwhile go out as answers
// return), once the load tool itself, with sixteen (SIGSTOP, then SIGCONT:
// its workers are free, but nothing is sent until it resumes). Both leave
// about 60 requests late by up to 300 ms; the part of their wait spent
// due while every worker waited for an answer says whose stall it was. A
// busy host adds requests a few milliseconds late either way, unheld; the
// stall's own wait grows with its square, so a 300 ms stall keeps it the
// larger part on a loaded host too.
// The client's case has more workers than a busy host keeps in flight:
// with few, answers slow to come back on a loaded machine would hold
// every worker, and the load tool's own stall would count as held.
func TestLateSendingTellsWhoStalled(t *testing.T) {
	t.Parallel() // 200 req/s: light
	if testing.Short() {
		t.Skip("runs vegeta")
	}
	resolve, cancel := context.WithTimeout(context.Background(), time.Minute)
	v, err := loadgen.Vegeta{}.Resolve(resolve)
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	const (
		rate  = 200
		stall = 300 * time.Millisecond
		at    = 800 * time.Millisecond // from the first request
	)
	attack := func(t *testing.T, serverStall bool, workers int) schedule {
		// bounded from here: the subtests wait for a slot among the
		// package's parallel tests first
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		var until atomic.Int64       // Unix ns the server's stall ends; 0: none
		first := make(chan struct{}) // closed on the first request: the attack has begun
		var once sync.Once
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			once.Do(func() { close(first) })
			if d := time.Until(time.Unix(0, until.Load())); d > 0 {
				time.Sleep(d)
			}
			io.WriteString(w, "Hi")
		}))
		defer srv.Close()
		dir := t.TempDir()
		argv, err := loadgen.Vegeta{}.Argv(v.Path, srv.URL+"/", suite.Request{Method: "GET", Path: "/"},
			suite.Load{Rate: rate, Connections: workers, Timeout: suite.Duration(5 * time.Second)}, 2*time.Second, dir)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		select {
		case <-first:
		case <-ctx.Done():
			cmd.Process.Kill()
			t.Fatalf("%q sent nothing: %v", argv, ctx.Err())
		}
		time.Sleep(at) // the stall's place in the attack
		if serverStall {
			until.Store(time.Now().Add(stall).UnixNano())
		} else {
			if err := cmd.Process.Signal(syscall.SIGSTOP); err != nil {
				t.Fatal(err)
			}
			time.Sleep(stall)
			if err := cmd.Process.Signal(syscall.SIGCONT); err != nil {
				t.Fatal(err)
			}
		}
		if err := cmd.Wait(); err != nil {
			t.Fatalf("%q: %v", argv, err)
		}
		csv, err := exec.CommandContext(ctx, v.Path, "encode", "-to=csv", loadgen.VegetaResults(dir)).Output()
		if err != nil {
			t.Fatal(err)
		}
		s, err := readSchedule(bytes.NewReader(csv), filepath.Base(dir), rate, workers)
		if err != nil {
			t.Fatal(err)
		}
		os.Remove(loadgen.VegetaResults(dir))
		if s.Late == nil {
			t.Fatalf("schedule %+v: no late count", s)
		}
		return s
	}
	t.Run("server", func(t *testing.T) {
		t.Parallel()
		l := attack(t, true, 4).Late
		t.Logf("server stall: %+v", l)
		// The audit calls a point the target's when at least half of its
		// late wait was held; on a busy host the client's own pauses add
		// some unheld wait, so the test asks for a clear margin over that
		// line, not for all of it.
		if l.Workers != 4 || l.Requests < 15 || l.HeldWaitS < 0.65*l.WaitS {
			t.Errorf("server stall: %+v, want 15 or more late, most of their wait held", l)
		}
	})
	t.Run("client", func(t *testing.T) {
		t.Parallel()
		l := attack(t, false, 16).Late
		t.Logf("client stall: %+v", l)
		if l.Requests < 15 || l.HeldWaitS > 0.2*l.WaitS {
			t.Errorf("client stall: %+v, want 15 or more late, little of their wait held", l)
		}
	})
}
