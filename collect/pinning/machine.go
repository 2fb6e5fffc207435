package pinning

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/fairbench/fairbench/parse/runjson"
)

// Machine finds the CPU state that moves numbers on the CPUs a run uses
// (the server's and client's sets; every online CPU when both are empty):
// a cpufreq governor other than performance (rule cpu-governor, only where
// the kernel exposes one) and boost on (cpu-boost). Each finding carries
// the fix for this machine's driver and knob.
func Machine(t runjson.Topology, server, client string) []runjson.PinFinding {
	l := newLayout(t)
	srv, _ := runjson.ParseCPUList(server)
	cli, _ := runjson.ParseCPUList(client)
	used := slices.Compact(slices.Sorted(slices.Values(append(srv, cli...))))
	if len(srv) == 0 || len(cli) == 0 {
		used = l.onlineCPUs() // an unpinned side runs anywhere
	}
	var fs []runjson.PinFinding
	if f, ok := l.governorFinding(used); ok {
		fs = append(fs, f)
	}
	if t.Boost == "on" {
		value := map[string]string{knobBoost: "0", knobNoTurbo: "1"}[t.BoostKnob]
		fs = append(fs, runjson.PinFinding{Rule: RuleCPUBoost, Level: LevelWarning, Message: fmt.Sprintf(
			"boost is on (/sys/%s): the clock follows temperature and how many cores are busy, so it drifts during a run and differs from target to target; turn it off for the run: echo %s | sudo tee /sys/%s",
			t.BoostKnob, value, t.BoostKnob)})
	}
	return fs
}

// governorFinding is a cpu-governor finding when a CPU of used runs a
// governor other than performance. CPUs without cpufreq say nothing.
func (l *layout) governorFinding(used []int) (runjson.PinFinding, bool) {
	byGov := map[string][]int{}
	drivers := map[string]bool{}
	for _, c := range used {
		cpu := l.cpus[c]
		if cpu.Governor != "" && cpu.Governor != "performance" {
			byGov[cpu.Governor] = append(byGov[cpu.Governor], c)
			if cpu.Driver != "" {
				drivers[cpu.Driver] = true
			}
		}
	}
	if len(byGov) == 0 {
		return runjson.PinFinding{}, false
	}
	var parts []string
	var all []int
	for _, g := range slices.Sorted(maps.Keys(byGov)) {
		parts = append(parts, fmt.Sprintf("CPUs %s run %s", runjson.FormatCPUList(byGov[g]), g))
		all = append(all, byGov[g]...)
	}
	driver := ""
	if len(drivers) > 0 {
		driver = " (" + strings.Join(slices.Sorted(maps.Keys(drivers)), ", ") + ")"
	}
	return runjson.PinFinding{Rule: RuleCPUGovernor, Level: LevelWarning, Message: fmt.Sprintf(
		"%s%s, not performance: the clock follows load, so a window's first seconds and a lightly loaded target run slower; set performance for the run: sudo cpupower -c %s frequency-set -g performance (apt-get install linux-cpupower), or write performance into /sys/devices/system/cpu/cpuN/cpufreq/scaling_governor of each",
		strings.Join(parts, ", "), driver, runjson.FormatCPUList(all))}, true
}
