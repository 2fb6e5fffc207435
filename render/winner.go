package render

import (
	"fmt"
	"strings"

	"github.com/fairbench/fairbench/parse"
)

// fastestLine says, for scenario s, which targets the decision layer judged
// faster than every other target of their own run (rank range 1–1), each
// scoped to that run: the pairs it speaks for are that run's, so a target
// that wins the nest run (among its 6) is never read as the winner of the
// js-frameworks run it is only measured beside. runs are the runs on show
// with cells in s; "" when no run has such a target.
func (m *model) fastestLine(s string, runs []string) string {
	var parts []string
	none := 0
	for _, run := range runs {
		sv := m.dec.Find(run, s)
		if sv == nil {
			continue
		}
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
		if len(runs) == 1 {
			return fmt.Sprintf("Judged faster than each of the %s measured here: %s.", others, joinComma(top))
		}
		parts = append(parts, fmt.Sprintf("in the %s run (%s), %s judged faster than each of the run's %s", m.suiteName(run), run, joinComma(top), others))
	}
	if len(parts) == 0 {
		return ""
	}
	line := "Each run is judged within itself: " + strings.Join(parts, "; ") + "."
	switch {
	case none == 1:
		line += " In the other run no target was judged faster than all the others of its run."
	case none > 1:
		line += fmt.Sprintf(" In the other %d runs no target was judged faster than all the others of its run.", none)
	}
	return line
}
