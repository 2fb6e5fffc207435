package history

import (
	"path/filepath"
	"testing"

	"github.com/fairbench/fairbench/parse"
)

// plantedRuns are two collects of the site's planted suite on this host,
// on two days (site/results, committed as collected).
var plantedRuns = [2]string{"20261204T204023Z-vm", "20261205T070325Z-vm"}

// readPlanted is the one run of the planted suite's run dir id.
func readPlanted(t *testing.T, id string) (*Run, Key) {
	t.Helper()
	set, errs := parse.ReadAll([]string{filepath.Join("..", "..", "site", "results", id)})
	if len(errs) > 0 {
		t.Fatalf("%s: %v", id, errs)
	}
	runs := RunsOf(set)
	if len(runs) != 1 || len(set.Runs) != 1 {
		t.Fatalf("%s: %d runs", id, len(runs))
	}
	return runs[0], KeyOf(set.Runs[0], set)
}

// TestGateOnPlantedRuns drives the gate on real runs: the planted suite
// collected on two days. Between them, nothing changed: the gate passes
// and claims no target. With a planted cost added between them (the new
// run's node-plus25, read as node-plus5: the copy with a 5% busy-CPU cost
// per request given the 25% one's), it fails on node-plus5 alone; the
// twins, which read the host's mood for every target, are left as they
// were and never gated.
func TestGateOnPlantedRuns(t *testing.T) {
	old, oldKey := readPlanted(t, plantedRuns[0])
	next, nextKey := readPlanted(t, plantedRuns[1])
	if d := oldKey.Diff(nextKey); len(d) > 0 {
		t.Logf("the two runs' keys differ (%v): the gate compares them anyway here, as -any-key does", d)
	}
	unchanged, err := Decide([]*Run{old}, next, gate5)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range unchanged.Rows {
		t.Logf("unchanged: %-12s %s ratio %.3f [%.3f, %.3f] p %.3g slower %v", r.Target, r.Scenario, r.Ratio, r.Low, r.High, r.PAdjusted, r.Slower)
		if r.Slower {
			t.Errorf("unchanged runs: %s claimed slower (%.3f)", r.Target, r.Ratio)
		}
	}
	base := Place{Scenario: "ping", Target: "node-plus5", Runtime: "node"}
	cost := Place{Scenario: "ping", Target: "node-plus25", Runtime: "node"}
	if next.Cells[base] == nil || next.Cells[cost] == nil {
		t.Fatalf("the new run lacks %v or %v: %v", base, cost, next.places())
	}
	planted := &Run{ID: next.ID, Twins: next.Twins, Cells: map[Place][]float64{}, Rounds: map[Place][]int{}}
	for p, v := range next.Cells {
		switch p {
		case cost:
		case base:
			planted.Cells[base], planted.Rounds[base] = next.Cells[cost], next.Rounds[cost]
		default:
			planted.Cells[p], planted.Rounds[p] = v, next.Rounds[p]
		}
	}
	g, err := Decide([]*Run{old}, planted, gate5)
	if err != nil {
		t.Fatal(err)
	}
	before := rowOf(unchanged, base)
	for _, r := range g.Rows {
		t.Logf("planted: %-12s %s ratio %.3f [%.3f, %.3f] p %.3g slower %v", r.Target, r.Scenario, r.Ratio, r.Low, r.High, r.PAdjusted, r.Slower)
		switch {
		case r.Place == base:
			// One baseline and two runs' twins give the host's run-to-run
			// variance few degrees of freedom: at this host's noise the
			// gate may not claim the cost (the commit that added this test
			// says what it read). What it must do is see it: the
			// estimate falls by about the planted cost.
			if !(r.Ratio < before.Ratio*(1-gate5.Threshold)) {
				t.Errorf("planted: %s reads %.3f, unchanged %.3f: the cost does not show", r.Target, r.Ratio, before.Ratio)
			}
		case r.Slower:
			t.Errorf("planted: %s claimed slower (%.3f) with nothing planted on it", r.Target, r.Ratio)
		}
	}
	t.Logf("planted cost on %s: gate failed %v, tau %.3f from %d twin pairs", base.Target, g.Failed, g.Tau, g.TauPairs)
}

// rowOf is g's row of place p; the zero row when none.
func rowOf(g *Gate, p Place) Row {
	for _, r := range g.Rows {
		if r.Place == p {
			return r
		}
	}
	return Row{}
}
