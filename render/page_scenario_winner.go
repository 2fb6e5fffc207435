package render

import (
	"fmt"
	"strings"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// fastestLine says, for scenario s, which targets the decision layer judged
// faster than every other target of their own run (rank range 1–1), each
// scoped to that run, and to its host pair where the run was measured on
// several (no verdict crosses machines): the pairs it speaks for are that run's, so a target
// that wins the nest run (among its 6) is never read as the winner of the
// js-frameworks run it is only measured beside. runs are the runs on show
// with cells in s; "" when no run has such a target.
func (m *model) fastestLine(s string, runs []string) string {
	var parts []string
	none := 0
	var svs []*verdict.ScenarioVerdicts
	for _, run := range runs {
		svs = append(svs, m.dec.Families(run, s)...)
	}
	for _, sv := range svs {
		run := sv.Run
		var top []string
		ranked := 0
		for _, r := range sv.Ranks {
			if r.Ranked {
				ranked++
			}
		}
		for _, r := range sv.Ranks {
			if r.Ranked && r.Hi == 1 && ranked > 1 {
				top = append(top, r.Cell.Name)
			}
		}
		if len(top) == 0 {
			none++
			continue
		}
		others := parse.Plural(ranked-1, "other target")
		if len(svs) == 1 {
			return fmt.Sprintf("Judged faster than each of the %s measured here: %s.", others, joinComma(top))
		}
		if len(runs) == 1 {
			parts = append(parts, fmt.Sprintf("on %s, %s judged faster than each of the %s measured there", sv.Hosts, joinComma(top), others))
			continue
		}
		where := fmt.Sprintf("in the %s run (collected %s)", m.suiteName(run), m.runStart(run))
		if len(m.dec.Families(run, s)) > 1 {
			where += " on " + sv.Hosts
		}
		parts = append(parts, fmt.Sprintf("%s, %s judged faster than each of the run's %s", where, joinComma(top), others))
	}
	if len(parts) == 0 {
		return ""
	}
	unit, what := "run", "its run"
	if len(runs) == 1 {
		unit, what = "host pair", "its host pair"
	}
	line := "Each " + unit + " is judged within itself: " + strings.Join(parts, "; ") + "."
	switch {
	case none == 1:
		line += fmt.Sprintf(" In the other %s no target was judged faster than all the others of %s.", unit, what)
	case none > 1:
		line += fmt.Sprintf(" In the other %d %ss no target was judged faster than all the others of %s.", none, unit, what)
	}
	return line
}
