package verdict

import (
	"slices"

	"github.com/fairbench/fairbench/parse"
)

// ReasonUngated: a side is a cell of a run whose run.json gates its
// targets but holds no gate record passing this one on the scenario,
// so nothing shows that it answered the request its peers answered; it is
// neither tested nor ranked.
const ReasonUngated = "ungated"

// markUngated sets Ungated on the cells of set's collected runs that no
// gate record of their run passes: the run.json lists no such target, or
// lists it without a verdict, or with "fail" on that scenario (collect
// measures no failed scenario, so such a record was changed by hand).
// Only runs whose run.json gives some target a gate verdict are asked:
// dumps outside any run.json (a foreign harness's results) and runs that
// recorded no gate at all have no gate to ask, and are left as they are.
func markUngated(set *parse.Set, cells []*Cell) {
	collected := map[string]bool{}
	for _, t := range set.Targets {
		if t.Conformance != "" {
			collected[t.Run] = true
		}
	}
	for _, c := range cells {
		if c.Run == "" || !collected[c.Run] {
			continue
		}
		c.Ungated = !slices.ContainsFunc(set.Targets, func(t *parse.Target) bool {
			return t.Run == c.Run && t.Name == c.Target && (t.Runtime == c.Runtime || t.Runtime == "" || c.Runtime == "") &&
				(t.Conformance == "pass" || t.Conformance == "fail" && !slices.Contains(t.Failed, c.Scenario))
		})
	}
}
