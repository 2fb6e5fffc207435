package hostcheck

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"

	"github.com/fairbench/fairbench/collect/machine"
	"github.com/fairbench/fairbench/parse/rundir"
	"github.com/fairbench/fairbench/parse/runjson"
)

// SpeedMemo is the fastest the host speed probe ran on each CPU set
// (runjson.SpeedSet) in this machine's last speedRuns collects of suites
// that retake slow turns, oldest first, kept in the cache folder as
// host-speed.json. A collect that starts while the host runs slow has no
// fast time of its own to know it by: before its first turns it waits
// against the memo. Turns are taken again, and the audit judges them,
// against the run's own fastest alone, which run.json holds.
type SpeedMemo map[string][]float64

// speedRuns is how many collects the memo keeps: a machine that became
// slower for good is waited for in five collects at most.
const speedRuns = 5

// MemoPath is where the memo of the machine m (fairbench's own) is kept:
// in its cache folder.
func MemoPath(m machine.Machine) string { return m.CachePath("host-speed.json") }

// ReadSpeedMemo reads the memo at path; empty when there is none or it
// cannot be read.
func ReadSpeedMemo(path string) SpeedMemo {
	m := SpeedMemo{}
	if b, err := os.ReadFile(path); err == nil {
		if json.Unmarshal(b, &m) != nil {
			return SpeedMemo{}
		}
	}
	return m
}

// Reference is the fastest the probe ran on each set, in this run
// (atSpeed, the run's fastest by set) or in the memo's collects.
func (memo SpeedMemo) Reference(atSpeed map[string]float64) map[string]float64 {
	ref := maps.Clone(atSpeed)
	if ref == nil {
		ref = map[string]float64{}
	}
	for set, times := range memo {
		for _, s := range times {
			runjson.KeepFastest(ref, set, s)
		}
	}
	return ref
}

// RememberSpeed adds a collect's fastest times (atSpeed) to the memo at
// path. The memo is a hint: failing to write it is not the run's failure.
func RememberSpeed(path string, atSpeed map[string]float64) {
	m := ReadSpeedMemo(path)
	for set, s := range atSpeed {
		times := append(m[set], s)
		m[set] = times[max(0, len(times)-speedRuns):]
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return
	}
	if os.MkdirAll(filepath.Dir(path), 0o755) == nil {
		_ = rundir.WriteFileAtomic(path, append(b, '\n'))
	}
}
