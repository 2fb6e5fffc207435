package audit

import (
	"fmt"
	"math"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// Rules about who was the bottleneck: the load generator or the server.
const (
	RuleClientSaturated    = "client-saturated"     // the load generator near the CPUs it could use
	RuleServerNotSaturated = "server-not-saturated" // the server well below its CPUs
)

// saturationFindings compares each cell's client and server CPU use with
// the CPUs they had, where the collector recorded CPU seconds. A saturated
// client is one cause for every cell it shows in: one finding for the run
// where every cell with CPU seconds has it, one per target where all that
// target's cells have it, one per cell otherwise (fold); each names the
// cells and their shares.
func saturationFindings(set *parse.Set, cells []*verdict.Cell, th verdict.Thresholds) []Finding {
	ix := verdict.NewRunIndex(set.Runs)
	var fs []Finding
	var seen, hits []place
	for _, c := range cells {
		cu, su := ix.CellLoad(c)
		clientBusy := cu >= th.ClientSaturation
		if !math.IsNaN(cu) {
			p := place{run: c.Run, target: c.Name, scenario: c.Scenario, dumps: c.Dumps()}
			seen = append(seen, p)
			if clientBusy {
				p.evidence = fmt.Sprintf("%.0f%%", cu*100)
				hits = append(hits, p)
			}
		}
		if su < th.ServerSaturation {
			level := LevelInfo
			if clientBusy {
				level = LevelWarning
			}
			fs = append(fs, cellFinding(c, RuleServerNotSaturated, level, fmt.Sprintf(
				"the server kept only %.0f%% of its CPUs busy: it was waiting, not working, so the number describes the load generator or the network more than the framework (a single-threaded runtime on several CPUs also shows this); add connections or client CPUs, or give the server one CPU per thread it runs",
				su*100), nil))
		}
	}
	return append(fs, fold(clientSaturatedSpec("", th), seen, hits)...)
}

// clientSaturatedSpec folds client-saturated findings; phase is "" for
// the closed-loop pass, else what the message calls the points' pass.
func clientSaturatedSpec(phase string, th verdict.Thresholds) foldSpec {
	return foldSpec{rule: RuleClientSaturated, level: LevelWarning, byTarget: true,
		message: func(scope string, ev []string) string {
			if phase != "" {
				return fmt.Sprintf("the load generator kept at least %.0f%% of the CPUs it could use busy in the %s %s(%s): the client, not the server, may have set those points' pace and latency; give the client more CPUs or keep the rates below what it sustains",
					th.ClientSaturation*100, phase, scopeSpace(scope), evidenceList(ev))
			}
			if scope == "" {
				return fmt.Sprintf("the load generator kept %s of the CPUs it could use busy: the number measures the client as much as the server: it is a lower bound of the target's capacity, so a comparison it wins reads \"at least\" and one it loses reads \"~\" (client-bound); give the client more CPUs (or wrk more threads) or use a lighter load generator",
					ev[0])
			}
			return fmt.Sprintf("the load generator kept at least %.0f%% of the CPUs it could use busy %s (%s): the numbers measure the client as much as the servers: each is a lower bound of its target's capacity, so a comparison one wins reads \"at least\" and one it loses reads \"~\" (client-bound); give the client more CPUs (or wrk more threads) or use a lighter load generator",
				th.ClientSaturation*100, scope, evidenceList(ev))
		}}
}
