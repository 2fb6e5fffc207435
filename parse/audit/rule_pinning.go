package audit

import (
	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"

	"fmt"
	"path/filepath"
)

// Rules about the machine a run ran on: its CPU pinning and the CPU state
// that moves numbers. collect audits the pinning and the CPU state before
// anything starts and records the findings in run.json's host.pinning;
// this audit reports them again, and judges the load at the start itself.
const (
	RulePinning     = "pinning"      // server and client share a physical core, the server spans L3 domains or sits on E-cores, an offline CPU, no pinning
	RuleCPUGovernor = "cpu-governor" // a cpufreq governor other than performance
	RuleCPUBoost    = "cpu-boost"    // boost (turbo) on
	RuleLoadAverage = "load-average" // other work running when the run started
)

// StartLoad says when the load average at a run's start is a finding (rule
// load-average): the 1-minute load must reach both Min (a CPU's worth of
// runnable tasks) and PerCPU times the host's logical CPUs.
var StartLoad = struct{ Min, PerCPU float64 }{Min: 1, PerCPU: 0.1}

// pinningFindings are the machine findings of every run: those collect
// recorded in host.pinning, cpu-governor from the governor alone for runs
// written before it, and load-average, for the run's machine and each of
// its SSH hosts. Where the run measured foreign load on a machine's CPUs
// in its windows (rule cpu-interference), the load at the start is not
// reported for that machine: one finding per cause.
func pinningFindings(set *parse.Set) []Finding {
	var fs []Finding
	for _, r := range set.Runs {
		runJSON := []string{filepath.Join(r.Path, "run.json")}
		add := func(rule string, level Level, format string, args ...any) {
			fs = append(fs, Finding{Rule: rule, Level: level, Run: r.ID, Message: fmt.Sprintf(format, args...), Dumps: runJSON})
		}
		machineFindings(startLoad(r, "", r.Facts), "", add)
		for _, h := range r.Hosts {
			machineFindings(startLoad(r, h.Name, h.Facts), "host "+h.Name+": ", add)
		}
	}
	return fs
}

// startLoad is a machine's facts without the load at the start where the
// run measured its windows' interference there (rule cpu-interference):
// cpu-interference measured what the load at the start could only suggest.
func startLoad(r *parse.Run, host string, f runjson.Facts) runjson.Facts {
	if interferenceMeasured(r, host) {
		f.LoadAvg = nil
	}
	return f
}

type addFinding func(rule string, level Level, format string, args ...any)

// machineFindings are what one machine's facts say; where names it (""
// for the run's own machine).
func machineFindings(h runjson.Facts, where string, add addFinding) {
	if p := h.Pinning; p != nil {
		for _, f := range p.Findings {
			var level Level
			if err := level.UnmarshalText([]byte(f.Level)); err != nil {
				level = LevelWarning
			}
			msg := f.Message
			if p.Forced && f.Rule == RulePinning && level == LevelError {
				msg += " (collect ran with -force-pinning)"
			}
			add(f.Rule, level, "%s%s", where, msg)
		}
	} else if h.Governor != "" && h.Governor != "performance" {
		add(RuleCPUGovernor, LevelWarning, "%sCPU 0 ran the %s governor, not performance: the clock follows load, so a window's first seconds and a lightly loaded target run slower; set performance for the run: sudo cpupower frequency-set -g performance", where, h.Governor)
	}
	if len(h.LoadAvg) == 0 || h.Threads <= 0 {
		return
	}
	load, limit := h.LoadAvg[0], max(StartLoad.Min, StartLoad.PerCPU*float64(h.Threads))
	if load >= limit {
		add(RuleLoadAverage, LevelWarning, "%sthe 1-minute load average was %.2f when the run started, on %d CPUs: other work was running and may have run on the server's or the load tool's CPUs; find it (top -o %%CPU), stop it, and start when the load is under %.2f (cat /proc/loadavg)", where, load, h.Threads, limit)
	}
}
