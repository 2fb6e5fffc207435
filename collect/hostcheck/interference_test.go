package hostcheck

import (
	"testing"

	"github.com/fairbench/fairbench/collect/machine"
	"github.com/fairbench/fairbench/collect/pinning"
)

// TestSetLoad: a group counts as fairbench's on a set when it may have run
// there; foreign load is what else was busy, never below zero.
func TestSetLoad(t *testing.T) {
	cpu := func(user, system, idle, soft uint64) pinning.CPUTime {
		return pinning.CPUTime{User: user, System: system, Idle: idle, SoftIRQ: soft}
	}
	a := pinning.Stat{CPUs: map[int]pinning.CPUTime{0: cpu(0, 0, 0, 0), 1: cpu(0, 0, 0, 0)}, All: cpu(0, 0, 0, 0)}
	// In 1 s: CPU 0 busy 90 ticks (10 of them softirq apart), CPU 1 busy 30.
	b := pinning.Stat{CPUs: map[int]pinning.CPUTime{0: cpu(70, 20, 0, 10), 1: cpu(20, 10, 70, 0)}, All: cpu(90, 30, 70, 10)}
	here, host := &machine.Local{}, &machine.SSHHost{}
	// target, tool, fairbench, a service here; a process on another host
	groups := []cpuGroup{{here, "0", 0.3}, {here, "1", 0.2}, {here, "", 0.05}, {here, "", 0.1}, {host, "", 0.5}}
	for _, tc := range []struct {
		list                                string
		capacity, busy, ours, foreign, soft float64
	}{
		{"0", 1, 0.9, 0.45, 0.45, 0.1},
		{"1", 1, 0.3, 0.35, 0, 0}, // more of ours than busy: foreign is 0, not negative
		{"", 2, 1.2, 0.65, 0.55, 0.1},
		{"0-1", 2, 1.2, 0.65, 0.55, 0.1},
	} {
		l := setLoad(a, b, here, tc.list, groups)
		if l == nil || l.CPUs != tc.list || l.CapacityS != tc.capacity || l.BusyS != tc.busy || l.OursS != tc.ours || l.ForeignS != tc.foreign || l.SoftIRQS != tc.soft {
			t.Errorf("set %q: %+v, want capacity %v busy %v ours %v foreign %v softirq %v", tc.list, l, tc.capacity, tc.busy, tc.ours, tc.foreign, tc.soft)
		}
	}
	if l := setLoad(a, b, here, "0-x", groups); l != nil {
		t.Errorf("a bad list: %+v", l)
	}
}
