package audit

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
)

// place is one cell (a target on a scenario, in one run and one phase) a
// rule looked at, with what it found there.
type place struct {
	run, target, scenario string
	// evidence is what the rule saw here ("97%"), "" where it did not fire;
	// a folded finding names each place with it ("a/ping 97%", or "ping
	// 97%" in a target's finding).
	evidence string
	dumps    []string
}

// foldSpec says how a rule's places fold into findings.
type foldSpec struct {
	rule  string
	level Level
	// byTarget folds a target's places into one finding when it has two or
	// more, and the run as a whole does not fold: a cause that follows the
	// target (a fast server that outruns the client) is said once for it,
	// with how many of its cells show it.
	byTarget bool
	// message is the finding's text: scope is "" for one cell (evidence is
	// then its own), else "in all 12 cells of the run", "in 9 of the 10
	// cells of a" (evidence is each place's, named and sorted).
	message func(scope string, evidence []string) string
}

// fold turns the places where a rule fired (hits) among those it could
// look at (seen, which holds the hits) into as few findings as say the
// same: one for a run where every cell it could look at (at least two)
// has it, else one per target with two or more (byTarget), else one per
// cell. The per-cell evidence stays in each finding's message.
func fold(spec foldSpec, seen, hits []place) []Finding {
	type tkey struct{ run, target string }
	perRun, perTarget := map[string]int{}, map[tkey]int{}
	for _, p := range seen {
		perRun[p.run]++
		perTarget[tkey{p.run, p.target}]++
	}
	hitRun, hitTarget := map[string][]place{}, map[tkey][]place{}
	for _, p := range hits {
		hitRun[p.run] = append(hitRun[p.run], p)
		hitTarget[tkey{p.run, p.target}] = append(hitTarget[tkey{p.run, p.target}], p)
	}
	finding := func(run, target, scenario, scope string, ps []place) Finding {
		var ev, dumps []string
		for _, p := range ps {
			e := p.evidence
			switch {
			case scope != "" && target == "":
				e = p.target + "/" + p.scenario + " " + e
			case scope != "":
				e = p.scenario + " " + e
			}
			ev = append(ev, e)
			dumps = append(dumps, p.dumps...)
		}
		sort.Strings(ev)
		return Finding{Rule: spec.rule, Level: spec.level, Run: run, Target: target, Scenario: scenario,
			Message: spec.message(scope, ev), Dumps: uniqueSorted(dumps)}
	}
	var fs []Finding
	for _, run := range slices.Sorted(maps.Keys(boolSet(hitRun))) {
		ps := hitRun[run]
		if len(ps) >= 2 && len(ps) == perRun[run] {
			fs = append(fs, finding(run, "", "", shareOf(len(ps), len(ps), "the run"), ps))
			continue
		}
		for _, p := range ps {
			k := tkey{p.run, p.target}
			tps := hitTarget[k]
			switch {
			case spec.byTarget && len(tps) >= 2:
				if tps[0].scenario == p.scenario { // once per target
					fs = append(fs, finding(run, p.target, "", shareOf(len(tps), perTarget[k], p.target), tps))
				}
			default:
				fs = append(fs, finding(run, p.target, p.scenario, "", []place{p}))
			}
		}
	}
	return fs
}

// shareOf is "in both cells of a", "in all 12 cells of the run", "in 9 of
// the 10 cells of a".
func shareOf(k, n int, of string) string {
	switch {
	case k == n && n == 2:
		return "in both cells of " + of
	case k == n:
		return fmt.Sprintf("in all %d cells of %s", n, of)
	}
	return fmt.Sprintf("in %d of the %d cells of %s", k, n, of)
}

// boolSet is the keys of m as a set.
func boolSet[V any](m map[string]V) map[string]bool {
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

// evidenceList is "a/ping 97%; b/ping 95%".
func evidenceList(ev []string) string { return strings.Join(ev, "; ") }
