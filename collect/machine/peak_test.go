package machine

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"testing"
	"time"
)

// spikeBytes is what the spiking server holds for a moment.
const spikeBytes = 64 << 20

// TestPeakKeptByTheKernel: a server's memory peak in a window is read from
// the kernel's own high-water mark, so that fairbench runs nothing during
// the window (no sampler competing with the server for a CPU) and a spike
// between two samples still counts.
func TestPeakKeptByTheKernel(t *testing.T) {
	// This test binary, run again as TestPeakSpike: once told to, it holds
	// 64 MiB for a moment, gives them back to the system, and waits. The
	// files in dir order the two: the server writes "ready" once it runs,
	// the window opens, the test writes "spike", the server spikes and
	// writes "spiked".
	dir := t.TempDir()
	s, err := startProcess("spike", []string{os.Args[0], "-test.run=^TestPeakSpike$"}, t.TempDir(), []string{"FAIRBENCH_PEAK_SPIKE=" + dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop(time.Second)
	// A busy machine may take seconds to start the server.
	if !waitForFile(filepath.Join(dir, "ready"), 20*time.Second) {
		t.Fatal("the spiking server did not start within 20 s")
	}
	before := runtime.NumGoroutine()
	peak := s.WatchPeak(20 * time.Millisecond) // collect samples at this rate where it must
	during := runtime.NumGoroutine()
	if err := os.WriteFile(filepath.Join(dir, "spike"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if !waitForFile(filepath.Join(dir, "spiked"), 20*time.Second) {
		t.Fatal("the server did not spike within 20 s")
	}
	now := s.RSS()
	got := peak()
	if during != before {
		t.Errorf("%d goroutines during the window, %d before: fairbench samples instead of reading the kernel's peak", during, before)
	}
	if got < spikeBytes || now >= spikeBytes {
		t.Errorf("peak %d bytes, %d resident after the spike: want a peak of at least %d", got, now, spikeBytes)
	}
}

// waitForFile polls for name until it exists or timeout passes, and
// reports whether it exists.
func waitForFile(name string, timeout time.Duration) bool {
	for deadline := time.Now().Add(timeout); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(name); err == nil {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
	}
}

// TestPeakSpike is the spiking server of TestPeakKeptByTheKernel; it does
// nothing unless FAIRBENCH_PEAK_SPIKE names the folder of its signals.
func TestPeakSpike(t *testing.T) {
	dir := os.Getenv("FAIRBENCH_PEAK_SPIKE")
	if dir == "" {
		t.Skip("the server of TestPeakKeptByTheKernel")
	}
	os.WriteFile(filepath.Join(dir, "ready"), nil, 0o644)
	if !waitForFile(filepath.Join(dir, "spike"), time.Minute) {
		t.Fatal("never told to spike")
	}
	b := make([]byte, spikeBytes)
	for i := range b {
		b[i] = 1
	}
	runtime.KeepAlive(b)
	b = nil
	debug.FreeOSMemory()
	os.WriteFile(filepath.Join(dir, "spiked"), nil, 0o644)
	time.Sleep(30 * time.Second) // a server runs until stopped
}

// TestTreeListedOncePerSide: the reads around a window (CPU time, memory,
// the peak) share one listing of the server's process tree on each side
// of it, and a process started during the window is in the listing after
// (the shell's first child, sleep 0.4, gives way to its second).
func TestTreeListedOncePerSide(t *testing.T) {
	s, err := startProcess("forks", []string{"sh", "-c", "sleep 0.4; sleep 30 & wait"}, t.TempDir(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop(time.Second)
	g := s.group.(*localGroup)
	first := g.tree()
	s.CPUSeconds()
	s.RSS()
	if again := g.tree(); &again[0] != &first[0] {
		t.Errorf("the tree was listed again within %v", treeFresh)
	}
	// The second child comes after 0.4 s, or later on a busy machine.
	var after []int
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if after = g.tree(); len(after) == 2 && !slices.Contains(first, after[1]) {
			return
		}
	}
	t.Errorf("tree %v after the second child started, %v before: want the shell and its new child", after, first)
}
