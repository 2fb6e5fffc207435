package render

import (
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse/runjson"
)

// TestResolvingSentenceSaysBudgetCutRounds: a run whose budget ended its
// rounds before the suite's repetitions says how many it took of how
// many; one that took them all does not.
func TestResolvingSentenceSaysBudgetCutRounds(t *testing.T) {
	base := RunResolving{Median: 0.21, Largest: 0.3, Scenarios: 3, Aim: 0.1, MeasuredS: 7200, Stop: runjson.StopBudget}
	short := base
	short.ShortRounds, short.MinRounds = 5, 8
	if s := resolvingSentence(short); !strings.Contains(s, "too slow for the suite's 8 rounds: the budget ended them after 5") {
		t.Errorf("budget before the repetitions: %q", s)
	}
	if s := resolvingSentence(base); strings.Contains(s, "ended them") || !strings.Contains(s, "its whole budget") {
		t.Errorf("budget after the repetitions: %q", s)
	}
}

// TestResolvingSentenceNamesTwinFloor: a run whose twins set its floor
// says how much of what it tells apart that floor is; one at the
// threshold says nothing of it.
func TestResolvingSentenceNamesTwinFloor(t *testing.T) {
	r := RunResolving{Median: 0.7, Largest: 0.75, Scenarios: 3, Aim: 0.1, MeasuredS: 2700, Stop: runjson.StopBudget}
	if s := resolvingSentence(r); strings.Contains(s, "floor") {
		t.Errorf("no twin floor: %q", s)
	}
	r.TwinFloor = 0.177
	if s := resolvingSentence(r); !strings.Contains(s, "That includes a floor of 17.7%: this run's A/A twins") {
		t.Errorf("twin floor 17.7%%: %q", s)
	}
}
