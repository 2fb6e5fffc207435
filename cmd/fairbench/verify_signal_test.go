package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// asFairbench, set in the environment, makes the test binary run as
// fairbench with the arguments after "--", signals caught as in main.
const asFairbench = "FAIRBENCH_TEST_AS_MAIN"

func init() {
	if os.Getenv(asFairbench) == "" {
		return
	}
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	os.Exit(report(os.Stderr, run(&env{stdout: os.Stdout, stderr: os.Stderr, signals: true}, args)))
}

// TestVerifyInterruptedPrintsChecked: SIGTERM while verify waits on its
// second target: the first target's transcript and verdict, checked
// already, are on stdout, and the command says how far it got.
func TestVerifyInterruptedPrintsChecked(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("needs python3 for a server that answers")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "verify.toml")
	src := `name = "verify"

[[target]]
name = "answers"
start = ["sh", "-c", "exec python3 -m http.server --bind 127.0.0.1 $PORT"]

[[target]]
name = "never-ready"
start = ["sleep", "600"]
ready_timeout = "1h"

[[scenario]]
name = "root"
request = { method = "GET", path = "/" }
expect = { status = 200 }
`
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$", "--", "verify", "-suite", file)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), asFairbench+"=1")
	// Files, not buffers: the test reads stderr while the command writes it.
	stdout, stderr := newLogFile(t, dir, "stdout"), newLogFile(t, dir, "stderr")
	cmd.Stdout, cmd.Stderr = stdout.File, stderr.File
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(stderr.String(), "never-ready: gate") {
		if time.Now().After(deadline) {
			t.Fatalf("verify never reached the second target\nstderr:\n%s", stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("verify still running 20s after SIGTERM\nstderr:\n%s", stderr.String())
	}
	out := stdout.String()

	if !strings.Contains(out, "### answers") || !strings.Contains(out, "GET / ") {
		t.Errorf("stdout lacks the transcript of the target checked before the signal:\n%s\nstderr:\n%s", out, stderr.String())
	}
	if strings.Contains(out, "### never-ready") {
		t.Errorf("stdout holds a verdict for the target interrupted mid-check:\n%s", out)
	}
	if !strings.Contains(stderr.String(), "interrupted after 1 of 2 targets") {
		t.Errorf("stderr does not say how far verify got:\n%s", stderr.String())
	}
}

// logFile is a file a command writes its output to, read back by String.
type logFile struct{ *os.File }

func newLogFile(t *testing.T, dir, name string) logFile {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return logFile{f}
}

// String is what was written so far.
func (l logFile) String() string {
	b, _ := os.ReadFile(l.Name())
	return string(b)
}
