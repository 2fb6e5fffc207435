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

// TestSignalStopsEveryCommand runs the real binary on an input that never
// ends (a FIFO the test holds open after the first lines of a wrk dump) and
// sends SIGTERM or SIGINT once: every command that reads dumps must end
// within a second or two, on that first signal.
func TestSignalStopsEveryCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fairbench")
	}
	t.Parallel() // measures nothing; its build overlaps the others' waits
	dir := t.TempDir()
	bin := filepath.Join(dir, "fairbench")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dump, err := os.ReadFile("../../parse/testdata/wrk-4.1.0__latency.txt")
	if err != nil {
		t.Fatal(err)
	}
	commands := [][]string{
		{"parse", "@FIFO@"},
		{"parse", "-format", "csv", "@FIFO@"},
		{"audit", "@FIFO@"},
		{"compare", "@FIFO@", "@FIFO@"},
		{"render", "-out", filepath.Join(dir, "site"), "@FIFO@"},
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		for _, args := range commands {
			t.Run(sig.String()+"/"+strings.Join(args[:1], ""), func(t *testing.T) {
				fifo := filepath.Join(t.TempDir(), "wrk.txt")
				if err := syscall.Mkfifo(fifo, 0o600); err != nil {
					t.Fatal(err)
				}
				// Read and write: the open does not wait for a reader, and
				// the reader never sees the end of the file.
				w, err := os.OpenFile(fifo, os.O_RDWR, 0)
				if err != nil {
					t.Fatal(err)
				}
				defer w.Close()
				w.Write(dump[:len(dump)/2])
				argv := make([]string, len(args))
				for i, a := range args {
					argv[i] = strings.ReplaceAll(a, "@FIFO@", fifo)
				}
				stopsOnSignal(t, exec.Command(bin, argv...), sig)
			})
		}
	}
}

// stopsOnSignal starts cmd, checks it is still at work after a moment,
// sends sig once and wants it gone within the bound.
func stopsOnSignal(t *testing.T, cmd *exec.Cmd, sig syscall.Signal) {
	t.Helper()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		t.Fatalf("%v ended before the signal (%v), so the test shows nothing: its input must never end\n%s", cmd.Args, err, stderr.String())
	case <-time.After(300 * time.Millisecond):
	}
	sent := time.Now()
	cmd.Process.Signal(sig)
	const bound = 3 * time.Second
	select {
	case <-done:
		if took := time.Since(sent); took > bound {
			t.Errorf("%v took %s after %v", cmd.Args, took, sig)
		}
	case <-time.After(bound):
		cmd.Process.Kill()
		<-done
		t.Fatalf("%v still running %s after %v; killed\n%s", cmd.Args, bound, sig, stderr.String())
	}
}
