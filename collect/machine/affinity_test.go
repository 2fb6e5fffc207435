package machine

import (
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse/runjson"
)

// TestKeepOffServerCPUs: for a window, every thread of fairbench leaves
// the server's CPUs, and comes back to the CPUs it had afterwards.
func TestKeepOffServerCPUs(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("needs two CPUs")
	}
	allowed := func() map[string]bool {
		lists := map[string]bool{}
		for _, tid := range ownThreads() {
			b, err := os.ReadFile(filepath.Join("/proc/self/task", strconv.Itoa(tid), "status"))
			if err != nil {
				continue // ended meanwhile
			}
			for _, l := range strings.Split(string(b), "\n") {
				if v, ok := strings.CutPrefix(l, "Cpus_allowed_list:"); ok {
					lists[strings.TrimSpace(v)] = true
				}
			}
		}
		return lists
	}
	before := allowed()
	back := KeepOff("0")
	during := allowed()
	back()
	after := allowed()
	for list := range during {
		if cpus, _ := runjson.ParseCPUList(list); len(cpus) == 0 || cpus[0] == 0 {
			t.Errorf("a thread of fairbench may run on %q during the window, want CPU 0 left out", list)
		}
	}
	if !maps.Equal(before, after) {
		t.Errorf("threads on %v after the window, %v before", after, before)
	}
	// Two windows side by side in one process (collects in tests), the
	// first ending first: the mask comes back only when both have ended.
	first, second := KeepOff("0"), KeepOff("0")
	first()
	if mid := allowed(); maps.Equal(mid, before) {
		t.Errorf("threads back on %v while a window still runs", mid)
	}
	second()
	if last := allowed(); !maps.Equal(last, before) {
		t.Errorf("threads on %v after both windows, %v before", last, before)
	}
}
