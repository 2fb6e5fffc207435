package collect

import (
	"testing"

	"github.com/fairbench/fairbench/collect/suite"
)

// TestInTurn: round 1 runs in suite order, and over as many rounds as
// there are targets each target takes each place of a round once.
func TestInTurn(t *testing.T) {
	targets := []suite.Target{{Name: "a"}, {Name: "b"}, {Name: "c"}}
	places := map[string]map[int]bool{}
	for rep := 1; rep <= len(targets); rep++ {
		round := inTurn(targets, rep)
		if len(round) != len(targets) {
			t.Fatalf("round %d: %d targets, want %d", rep, len(round), len(targets))
		}
		for i, tg := range round {
			if places[tg.Name] == nil {
				places[tg.Name] = map[int]bool{}
			}
			places[tg.Name][i] = true
		}
		if rep == 1 && (round[0].Name != "a" || round[2].Name != "c") {
			t.Errorf("round 1: %v, want suite order", round)
		}
	}
	for _, tg := range targets {
		if len(places[tg.Name]) != len(targets) {
			t.Errorf("%s took places %v, want each of %d once", tg.Name, places[tg.Name], len(targets))
		}
	}
	if inTurn(targets, 2)[0].Name != "b" || targets[0].Name != "a" {
		t.Errorf("round 2 starts with %s (or the suite was reordered): want b", inTurn(targets, 2)[0].Name)
	}
	if inTurn(nil, 3) != nil {
		t.Error("no targets: want none")
	}
}
