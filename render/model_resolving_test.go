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
