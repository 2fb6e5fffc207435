package collect

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"

	"github.com/fairbench/fairbench/collect/machine"
	"github.com/fairbench/fairbench/parse/runjson"
)

// speedMemo is the fastest the host speed probe ran on each CPU set
// (runjson.SpeedSet) in this machine's last speedRuns collects of suites
// that retake slow turns, oldest first, kept in the cache folder as
// host-speed.json. A collect that starts while the host runs slow has no
// fast time of its own to know it by: before its first turns it waits
// against the memo. Turns are taken again, and the audit judges them,
// against the run's own fastest alone, which run.json holds.
type speedMemo map[string][]float64

// speedRuns is how many collects the memo keeps: a machine that became
// slower for good is waited for in five collects at most.
const speedRuns = 5

func (c *collector) memoPath() string { return c.here.CachePath("host-speed.json") }

// readMemo reads the memo; empty when there is none or it cannot be read.
func (c *collector) readMemo() speedMemo {
	m := speedMemo{}
	if b, err := os.ReadFile(c.memoPath()); err == nil {
		if json.Unmarshal(b, &m) != nil {
			return speedMemo{}
		}
	}
	return m
}

// reference is the fastest the probe ran on each set, in this run or in
// the memo's collects.
func (c *collector) reference() map[string]float64 {
	ref := maps.Clone(c.atSpeed)
	if ref == nil {
		ref = map[string]float64{}
	}
	for set, times := range c.memo {
		for _, s := range times {
			runjson.KeepFastest(ref, set, s)
		}
	}
	return ref
}

// rememberSpeed adds this collect's fastest times to the memo on disk,
// for a suite that retakes slow turns. The memo is a hint: failing to
// write it is not the run's failure.
func (c *collector) rememberSpeed() {
	if c.suite.Isolation.RetakeSlow <= 0 || len(c.atSpeed) == 0 {
		return
	}
	m := c.readMemo()
	for set, s := range c.atSpeed {
		times := append(m[set], s)
		m[set] = times[max(0, len(times)-speedRuns):]
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return
	}
	if os.MkdirAll(filepath.Dir(c.memoPath()), 0o755) == nil {
		_ = machine.WriteFileAtomic(c.memoPath(), append(b, '\n'))
	}
}
