package audit

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
	"github.com/fairbench/fairbench/parse/verdict"
)

// RuleHostSlow: the host speed probe ran slow around a target's turn.
const RuleHostSlow = "host-slow" // the same fixed CPU work took longer around a turn than the run's fastest: the machine, not the target, was slower

// hostTurn is one target's turn in a round and its probe's slowdown;
// beside: it was taken again for other load on its CPUs, not slowdown.
type hostTurn struct {
	target   string
	rep      int
	slowdown float64
	dump     string
	beside   bool
}

// hostSpeedFindings read run.json's host_speed: per run, one warning
// naming the counted turns around which the probe took HostSlow times as
// long as its fastest in the run (or the run's retake_slow), and one note
// naming the turns the collector took again for it.
func hostSpeedFindings(set *parse.Set, th verdict.Thresholds) []Finding {
	var fs []Finding
	for _, r := range set.Runs {
		limit := th.HostSlow
		if r.Isolation.RetakeSlow > 0 {
			limit = r.Isolation.RetakeSlow
		}
		best := runjson.Fastest(r.Measurements)
		var slow, dropped []hostTurn
		seen := map[string]bool{}
		for i := range r.Measurements {
			mr := &r.Measurements[i]
			h := mr.HostSpeed
			if h == nil || mr.Warmup || mr.Phase != "" {
				continue
			}
			key := fmt.Sprintf("%s/%d/%v/%v", mr.Target, mr.Rep, h.Dropped, h.Retake)
			switch s := mr.Slowdown(best); {
			case seen[key]:
			case h.Dropped:
				dropped = append(dropped, hostTurn{mr.Target, mr.Rep, s, mr.Dump, s < limit})
			case mr.Error == "" && s >= limit:
				slow = append(slow, hostTurn{mr.Target, mr.Rep, s, mr.Dump, false})
			default:
				continue
			}
			seen[key] = true
		}
		runJSON := filepath.Join(r.Path, "run.json")
		if len(slow) > 0 {
			what := "collect again, with retake_slow in the suite's [isolation] to have such turns taken again"
			if r.Isolation.RetakeSlow > 0 {
				what = "the collector takes a turn again where the probe ran slow against the run's typical turn (once, at once, in its own round, while few have been), so these ran slow with much of the run or after that; collect again when the host is quiet"
			}
			fs = append(fs, Finding{Rule: RuleHostSlow, Level: LevelWarning, Run: r.ID, Dumps: turnDumps(r.Path, runJSON, slow), Message: fmt.Sprintf(
				"the host ran slow around %s: the host speed probe (the same fixed CPU work timed on the server's and the client's CPUs before and after each target's turn) took at least %.2f times as long as its fastest in the run, though nothing else showed on these CPUs: a neighbour on the physical core or the hypervisor slowed the machine, and these cells' numbers come from a slower machine than the others'; %s",
				turnList(slow), limit, what)})
		}
		if len(dropped) > 0 {
			fs = append(fs, Finding{Rule: RuleHostSlow, Level: LevelInfo, Run: r.ID, Dumps: turnDumps(r.Path, runJSON, dropped), Message: fmt.Sprintf(
				"the collector took again %s: the host speed probe took at least %.2f times as long as the run's typical turn so far around them, or other processes used their CPUs; their first dumps are kept and not counted",
				turnList(dropped), limit)})
		}
	}
	return fs
}

// turnsNamed is the most turns a message names; the finding's dumps list
// them all.
const turnsNamed = 6

// turnList names turns: "nest-express-node rep 1 (1.62×), …", the first
// turnsNamed and how many more.
func turnList(ts []hostTurn) string {
	var parts []string
	for i, t := range ts {
		if i == turnsNamed {
			parts = append(parts, fmt.Sprintf("and %d more (each a dump below)", len(ts)-turnsNamed))
			break
		}
		why := fmt.Sprintf("%.2f×", t.slowdown)
		if t.beside {
			why = "other processes on its CPUs"
		}
		parts = append(parts, fmt.Sprintf("%s rep %d (%s)", t.target, t.rep, why))
	}
	return strings.Join(parts, ", ")
}

// turnDumps is run.json, then a dump of each turn.
func turnDumps(path, runJSON string, ts []hostTurn) []string {
	out := []string{runJSON}
	for _, t := range ts {
		out = append(out, filepath.Join(path, filepath.FromSlash(t.dump)))
	}
	return out
}
