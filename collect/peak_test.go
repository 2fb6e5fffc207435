package collect

import (
	"os"
	"runtime"
	"runtime/debug"
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
