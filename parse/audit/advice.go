package audit

import (
	"fmt"
	"strings"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// advice is what a run already does, read from its run.json, so that a
// remedy never asks for it again.
type advice struct {
	governor    bool // the host reports a governor other than performance
	unpinned    bool // the run did not pin server and client CPUs
	sharedSrv   bool // some repetition did not get a fresh server
	interleaved bool // the run's repetitions were interleaved across targets
	warmup      string
}

func runAdvice(run *parse.Run) advice {
	if run == nil {
		return advice{governor: true, unpinned: true, sharedSrv: true}
	}
	a := advice{
		governor: run.Facts.Governor != "" && run.Facts.Governor != "performance",
		unpinned: run.Isolation.ServerCPUs == "" || run.Isolation.ClientCPUs == "",
	}
	type key struct {
		target, scenario string
		rep              int
	}
	started := map[key]bool{}
	var warm []float64
	orders := 0
	for _, m := range run.Measurements {
		if m.Phase == parse.PhaseThroughput { // a latency or sweep point is not a repetition
			k := key{m.Target, m.Scenario, m.Rep}
			started[k] = started[k] || m.StartupS > 0
		}
		if m.Warmup && m.Phase == parse.PhaseThroughput && !m.Start.IsZero() && m.End.After(m.Start) {
			warm = append(warm, m.End.Sub(m.Start).Seconds())
		}
		if m.Order > 0 {
			orders++
		}
	}
	for _, ok := range started {
		a.sharedSrv = a.sharedSrv || !ok
	}
	a.interleaved = orders == len(run.Measurements) && len(run.Measurements) > 0
	if len(warm) > 0 {
		a.warmup = fmt.Sprintf("%.1f s", verdict.MedianOf(warm))
	}
	return a
}

// hostRemedy is what to do about a host-wide effect, without what the run
// already does.
func (a advice) hostRemedy() string {
	var do []string
	if a.governor {
		do = append(do, "set the CPU governor to performance")
	}
	if a.unpinned {
		do = append(do, "pin server and client CPUs")
	}
	if a.sharedSrv {
		do = append(do, "give each repetition a fresh server")
	}
	if !a.interleaved {
		do = append(do, "interleave targets across repetitions")
	}
	do = append(do, "stop other load on the host (on a VM, neighbours share it: run more repetitions, or on dedicated hardware)")
	return strings.Join(do, "; ")
}
