package collect

import (
	"os"
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
	// This test binary, run again as TestPeakSpike: it holds 64 MiB for a
	// moment, gives them back to the system, and waits.
	s, err := startProcess("spike", []string{os.Args[0], "-test.run=^TestPeakSpike$"}, t.TempDir(), []string{"FAIRBENCH_PEAK_SPIKE=1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop(time.Second)
	time.Sleep(100 * time.Millisecond) // started, not yet spiked
	before := runtime.NumGoroutine()
	peak := s.group.watchPeak(rssSampleEvery)
	during := runtime.NumGoroutine()
	time.Sleep(2500 * time.Millisecond)
	now := s.RSS()
	got := peak()
	if during != before {
		t.Errorf("%d goroutines during the window, %d before: fairbench samples instead of reading the kernel's peak", during, before)
	}
	if got < spikeBytes || now >= spikeBytes {
		t.Errorf("peak %d bytes, %d resident after the spike: want a peak of at least %d", got, now, spikeBytes)
	}
}

// TestPeakSpike is the spiking server of TestPeakKeptByTheKernel; it does
// nothing unless FAIRBENCH_PEAK_SPIKE is set.
func TestPeakSpike(t *testing.T) {
	if os.Getenv("FAIRBENCH_PEAK_SPIKE") == "" {
		t.Skip("the server of TestPeakKeptByTheKernel")
	}
	time.Sleep(300 * time.Millisecond)
	b := make([]byte, spikeBytes)
	for i := range b {
		b[i] = 1
	}
	runtime.KeepAlive(b)
	b = nil
	debug.FreeOSMemory()
	time.Sleep(30 * time.Second)
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
	time.Sleep(time.Second)
	if after := g.tree(); len(after) != 2 || slices.Contains(first, after[1]) {
		t.Errorf("tree %v after the second child started, %v before: want the shell and its new child", after, first)
	}
}
