package audit

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
	"github.com/fairbench/fairbench/parse/verdict"
)

// Rule about what else ran on the benchmark's CPUs during the windows.
const RuleCPUInterference = "cpu-interference" // foreign load or steal on the server's or the client's CPUs above a share of the window

// interferenceHit is the worst share one cell's repetitions saw on one set.
type interferenceHit struct {
	cell, side, cpus string
	share            float64
	reps             []int
	dumps            []string
}

// interferenceFindings read each measurement's recorded interference
// (run.json's measurements[].interference): one finding per run when
// foreign load on a set exceeded Thresholds.ForeignLoad of the set's
// capacity in the window, and one when the hypervisor's steal exceeded
// Thresholds.Steal. Warm-ups and failed measurements are not counted.
func interferenceFindings(set *parse.Set, th verdict.Thresholds) []Finding {
	var fs []Finding
	for _, r := range set.Runs {
		foreign, steal := map[string]*interferenceHit{}, map[string]*interferenceHit{}
		for i := range r.Measurements {
			mr := &r.Measurements[i]
			in := mr.Interference
			if in == nil || mr.Warmup || mr.Error != "" {
				continue
			}
			for _, side := range interferenceSides(mr) {
				l := side.load
				if l.CapacityS <= 0 {
					continue
				}
				note(foreign, mr, r.Path, side.name, l.CPUs, l.ForeignS/l.CapacityS, th.ForeignLoad)
				note(steal, mr, r.Path, side.name, l.CPUs, l.StealS/l.CapacityS, th.Steal)
			}
		}
		runJSON := filepath.Join(r.Path, "run.json")
		if len(foreign) > 0 {
			fs = append(fs, Finding{Rule: RuleCPUInterference, Level: LevelWarning, Run: r.ID, Dumps: hitDumps(runJSON, foreign), Message: fmt.Sprintf(
				"other processes used more than %.0f%% of the CPUs fairbench measured on, beside the target, the load tool and the services, in %s: the numbers of these cells describe a shared machine, not the target alone; find what ran (top -o %%CPU during a run), stop it or move it off these CPUs, and run the suite again",
				th.ForeignLoad*100, hitList(foreign))})
		}
		if len(steal) > 0 {
			fs = append(fs, Finding{Rule: RuleCPUInterference, Level: LevelWarning, Run: r.ID, Dumps: hitDumps(runJSON, steal), Message: fmt.Sprintf(
				"the hypervisor gave more than %.0f%% of the CPUs fairbench measured on to other guests (steal time) in %s: the virtual machine's neighbours, not the target, set part of these numbers; run on dedicated or bare-metal CPUs, or repeat the run and compare",
				th.Steal*100, hitList(steal))})
		}
	}
	return fs
}

// interferenceMeasured reports whether r recorded the interference of a
// window on host (Host.Name; "" the run's own machine).
func interferenceMeasured(r *parse.Run, host string) bool {
	for _, mr := range r.Measurements {
		if in := mr.Interference; in != nil && (in.Server != nil && mr.ServerHost == host || in.Client != nil && mr.ClientHost == host) {
			return true
		}
	}
	return false
}

// interferenceSide is one CPU set of a measurement's interference.
type interferenceSide struct {
	name string
	load *runjson.CPUSetLoad
}

// interferenceSides are the server's and the client's sets; the client's
// is left out when it is the server's set on the same machine (no
// pinning), so one cause is reported once.
func interferenceSides(mr *runjson.Measurement) []interferenceSide {
	in := mr.Interference
	var out []interferenceSide
	if in.Server != nil {
		out = append(out, interferenceSide{"server", in.Server})
	}
	switch c := in.Client; {
	case c == nil:
	case in.Server != nil && c.CPUs == in.Server.CPUs && mr.ClientHost == mr.ServerHost:
		if c.CPUs == "" {
			out[0].name = "machine"
		}
	default:
		out = append(out, interferenceSide{"client", c})
	}
	return out
}

// note keeps the worst share of a cell's repetitions on a set when it is
// above limit.
func note(hits map[string]*interferenceHit, mr *runjson.Measurement, dir, side, cpus string, share, limit float64) {
	if !(share > limit) {
		return
	}
	cell := mr.Target + "/" + mr.Scenario + phasePoint(mr) // a latency or sweep point is not a repetition of the cell
	key := cell + "\x00" + side
	h := hits[key]
	if h == nil {
		h = &interferenceHit{cell: cell, side: side, cpus: cpus}
		hits[key] = h
	}
	h.share = max(h.share, share)
	h.reps = append(h.reps, mr.Rep)
	if mr.Dump != "" {
		h.dumps = append(h.dumps, filepath.Join(dir, mr.Dump))
	}
}

// hitList names every cell and set, worst first: "gin/ping (up to 85% of
// the server's CPU set 0-1; reps 1, 3)".
func hitList(hits map[string]*interferenceHit) string {
	list := make([]*interferenceHit, 0, len(hits))
	for _, h := range hits {
		list = append(list, h)
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].share != list[j].share {
			return list[i].share > list[j].share
		}
		return list[i].cell+list[i].side < list[j].cell+list[j].side
	})
	parts := make([]string, len(list))
	for i, h := range list {
		where := "the " + h.side + "'s CPU set " + h.cpus
		if h.cpus == "" {
			where = "the " + h.side + "'s CPUs (all: no pinning)"
			if h.side == "machine" {
				where = "the machine's CPUs (no pinning)"
			}
		}
		sort.Ints(h.reps)
		reps := make([]string, len(h.reps))
		for k, n := range h.reps {
			reps[k] = fmt.Sprint(n)
		}
		word := "reps"
		if len(reps) == 1 {
			word = "rep"
		}
		parts[i] = fmt.Sprintf("%s (up to %.0f%% of %s; %s %s)", h.cell, h.share*100, where, word, strings.Join(reps, ", "))
	}
	return strings.Join(parts, "; ")
}

// hitDumps are run.json and the dumps of every measurement named.
func hitDumps(runJSON string, hits map[string]*interferenceHit) []string {
	d := []string{runJSON}
	for _, h := range hits {
		d = append(d, h.dumps...)
	}
	return uniqueSorted(d)
}
