package collect_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fairbench/fairbench/parse/runjson"
)

// signalSuite builds for a second and starts slowly while the files named
// in it exist, so that every stage lasts long enough to be hit.
const signalSuite = `
name = "signal"

[load]
tool = "bombardier"
connections = 4
duration = "1s"
warmup = "1s"
repetitions = 2
# capped: these tests check plumbing, not speed; uncapped, every window
# takes both cores from the tests running beside it
rate = 1000

[[target]]
name = "one"
build = ["sh", "-c", "if [ -e @SLOWBUILD@ ]; then sleep 1; fi"]
start = ["@BIN@"]
env = { BODY = "Hi", FAULT = "@FAULT@" }
ready_timeout = "5s"

[[scenario]]
name = "ping"
request = { method = "GET", path = "/" }
expect = { status = 200, body = "Hi" }
`

// TestSignalAtEveryStage sends SIGINT and SIGTERM to a real `fairbench
// collect` in each stage of its run: it must exit non-zero, mark the run
// interrupted, leave every process group it started empty, and -resume
// must finish the run with the first session's dumps untouched.
func TestSignalAtEveryStage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fairbench and loads servers")
	}
	t.Parallel() // its subtests too: each watches only the fairbench it starts
	hi, fairbench := sharedBinaries(t)
	stages := []struct {
		name string
		// reached reports whether the run is in the stage, from its
		// progress lines and run dir.
		reached func(stderr, runDir string) bool
	}{
		{"build", func(s, _ string) bool { return strings.Contains(s, "one: building") }},
		{"gate", func(s, _ string) bool { return strings.Contains(s, "one: gate") }},
		{"warm-up", func(s, _ string) bool { return strings.Contains(s, "one ping warm-up 1/2") }},
		{"measurement", func(s, _ string) bool { return strings.Contains(s, "one ping rep 1/2") }},
		{"between reps", func(_, dir string) bool { return dir != "" && countMeasured(t, dir) == 1 }},
	}
	for _, st := range stages {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			t.Run(st.name+"/"+sig.String(), func(t *testing.T) {
				t.Parallel()
				work := t.TempDir()
				slow, fault := filepath.Join(work, "slowbuild"), filepath.Join(work, "fault")
				os.WriteFile(slow, nil, 0o644)
				os.WriteFile(fault, []byte("slow-start 1s"), 0o644)
				suitePath := filepath.Join(work, "suite.toml")
				src := strings.NewReplacer("@BIN@", hi, "@FAULT@", fault, "@SLOWBUILD@", slow).Replace(signalSuite)
				if err := os.WriteFile(suitePath, []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
				runDir := interruptAt(t, fairbench, suitePath, filepath.Join(work, "runs"), sig, st.reached)
				m := checkRunDir(t, runDir)
				if m.Status != runjson.StatusInterrupted {
					t.Errorf("status %q, want %q", m.Status, runjson.StatusInterrupted)
				}
				os.Remove(slow)
				os.Remove(fault)
				before := hashDumps(t, runDir)
				resume := exec.Command(fairbench, "collect", "-resume", runDir)
				if b, err := resume.CombinedOutput(); err != nil {
					t.Fatalf("resume: %v\n%s", err, b)
				}
				done := checkRunDir(t, runDir)
				if done.Status != runjson.StatusComplete || countMeasured(t, runDir) != 2 {
					t.Errorf("after resume: status %q with %d measurements, want complete with 2", done.Status, countMeasured(t, runDir))
				}
				sameDumps(t, runDir, before)
			})
		}
	}
}

// interruptAt runs `fairbench collect`, sends sig 300 ms after reached
// says the stage has begun, and checks the exit and the process groups.
// It returns the run dir.
func interruptAt(t *testing.T, fairbench, suitePath, out string, sig syscall.Signal, reached func(stderr, runDir string) bool) string {
	t.Helper()
	cmd := exec.Command(fairbench, "collect", "-suite", suitePath, "-out", out)
	var stdout bytes.Buffer
	stderr := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	groups := map[int]bool{}
	var runDir string
	var at time.Time
	deadline := time.Now().Add(60 * time.Second)
	for at.IsZero() || time.Now().Before(at) {
		for _, pid := range childrenOf(cmd.Process.Pid) {
			if pgidOf(pid) == pid {
				groups[pid] = true
			}
		}
		if runDir == "" {
			if dirs, _ := filepath.Glob(filepath.Join(out, "*", "run.json")); len(dirs) == 1 {
				runDir = filepath.Dir(dirs[0])
			}
		}
		if at.IsZero() && reached(stderr.String(), runDir) {
			at = time.Now().Add(300 * time.Millisecond)
		}
		select {
		case err := <-exited:
			t.Fatalf("collect ended before the signal: %v\n%s", err, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			<-exited
			t.Fatalf("stage not reached in time\n%s", stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() == 0 {
			t.Errorf("collect after %v: %v, want a non-zero exit", sig, err)
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		<-exited
		t.Fatalf("collect did not stop within 30 s of %v\n%s", sig, stderr.String())
	}
	if !strings.Contains(stderr.String(), "interrupted: finish with -resume "+runDir) {
		t.Errorf("stderr does not say how to resume:\n%s", stderr.String())
	}
	for pgid := range groups {
		if left := groupMembers(pgid); len(left) > 0 {
			t.Errorf("process group %d still has %v after %v: orphans", pgid, left, sig)
		}
	}
	if len(groups) == 0 {
		t.Errorf("no process group seen: the stage was not reached")
	}
	return runDir
}

// syncBuffer is a bytes.Buffer safe to read while a command writes it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
