package hostcheck

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect/machine"
)

// TestSpeedProbeSeesASharedCPU times the real probe on CPU 0, alone and
// then beside a busy loop pinned to the same CPU: sharing the CPU, the
// same work takes about twice as long, which is what a neighbour on the
// physical core does to a server while /proc/stat shows it busy as ever.
func TestSpeedProbeSeesASharedCPU(t *testing.T) {
	if _, err := exec.LookPath("taskset"); err != nil {
		t.Skip("taskset not installed")
	}
	ctx := context.Background()
	here := &machine.Local{}
	times := func() []float64 {
		var out []float64
		for range 3 {
			s, err := TimeSpeed(ctx, here, "0")
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		}
		slices.Sort(out)
		return out
	}
	// Alone and shared alternate, and each compares its fastest probe, so
	// that other work on the machine, which only ever slows a probe, does
	// not decide the test. -short takes one round of each: 6 probes, not 12.
	rounds := 2
	if testing.Short() {
		rounds = 1
	}
	var alone, shared []float64
	for range rounds {
		alone = append(alone, times()...)
		hog := exec.Command("taskset", "-c", "0", "sh", "-c", "while :; do :; done")
		if err := hog.Start(); err != nil {
			t.Fatal(err)
		}
		waitBusy(t, hog.Process.Pid)
		shared = append(shared, times()...)
		hog.Process.Kill()
		hog.Wait()
	}
	slices.Sort(alone)
	slices.Sort(shared)
	if alone[0] <= 0 || shared[0]/alone[0] < 1.4 {
		t.Errorf("the probe took %v s alone and %v s sharing its CPU with a busy loop: want the shared at least 1.4 times as long", alone, shared)
	}
	t.Logf("probe alone %v s, sharing CPU 0 %v s", alone, shared)
	for _, bad := range []string{"", "12", "5 3", "x 9"} {
		if _, err := parseSpeed([]byte(bad)); err == nil {
			t.Errorf("parseSpeed(%q): no error", bad)
		}
	}
}

// waitBusy returns once process pid has used 50 ms of CPU: the busy loop
// is running on its CPU, not still starting.
func waitBusy(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(f) > 12 {
			if utime, err := strconv.Atoi(f[11]); err == nil && utime >= 5 {
				return
			}
		}
	}
	t.Fatalf("the busy loop %d used no CPU within 10 s", pid)
}
