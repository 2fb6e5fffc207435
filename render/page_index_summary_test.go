package render

import (
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// family builds the verdicts of one scenario from a table of claims: each
// pair of names is "a" (the first faster), "b" or "~". Ranks are derived
// as the decision layer derives them: 1 + judged faster, k − judged slower.
func family(scenario string, names []string, claims map[[2]string]string) *verdict.ScenarioVerdicts {
	sv := &verdict.ScenarioVerdicts{Scenario: scenario}
	cells := map[string]*verdict.Cell{}
	for _, n := range names {
		c := &verdict.Cell{Name: n, Scenario: scenario}
		cells[n] = c
		sv.Cells = append(sv.Cells, c)
	}
	faster, slower := map[string]int{}, map[string]int{}
	for i, a := range names {
		for _, b := range names[i+1:] {
			v := verdict.Verdict{A: a, B: b, CellA: cells[a], CellB: cells[b], Method: verdict.MethodWelchLog, Verdict: verdict.VerdictTie}
			switch claims[[2]string{a, b}] {
			case "a":
				v.Verdict = verdict.VerdictA
				faster[b]++
				slower[a]++
			case "b":
				v.Verdict = verdict.VerdictB
				faster[a]++
				slower[b]++
			}
			sv.Pairs = append(sv.Pairs, v)
		}
	}
	for _, n := range names {
		sv.Ranks = append(sv.Ranks, verdict.Rank{Cell: cells[n], Lo: 1 + faster[n], Hi: len(names) - slower[n], Ranked: true})
	}
	return sv
}

// TestTopSentence: the index's sentence counts, per target, the scenarios
// where it is in a top group told apart from the rest, names the tied
// pairs inside top groups, and the scenarios where nothing is told apart.
func TestTopSentence(t *testing.T) {
	abc := []string{"a", "b", "c"}
	alone := family("ping", abc, map[[2]string]string{{"a", "b"}: "a", {"a", "c"}: "a", {"b", "c"}: "a"})
	pair := family("json", abc, map[[2]string]string{{"a", "c"}: "a", {"b", "c"}: "a"}) // a ~ b, both beat c
	blur := family("echo", abc, map[[2]string]string{{"a", "c"}: "a"})                  // b ~ both: nothing apart
	for _, tc := range []struct {
		name      string
		svs       []*verdict.ScenarioVerdicts
		want      []string
		wantTies  string
		forbidden []string
	}{
		{"alone", []*verdict.ScenarioVerdicts{alone}, []string{"a is faster than the rest on 1 of 1 scenarios."}, "", []string{"top group"}},
		{"pair", []*verdict.ScenarioVerdicts{alone, pair}, []string{"a is faster than the rest on 2 of 2 scenarios, b on 1", "top group"}, "a ~ b (json)", nil},
		{"blur", []*verdict.ScenarioVerdicts{alone, blur}, []string{"a is faster than the rest on 1 of 2 scenarios", "In echo no target is told apart at the top."}, "a ~ b (echo)", nil},
		{"many blurred", []*verdict.ScenarioVerdicts{alone, blur, family("e2", abc, nil), family("e3", abc, nil), family("e4", abc, nil)},
			[]string{"In 4 of 5 scenarios no target is told apart at the top."}, "a ~ b (4 of 5 scenarios)", nil},
		{"nothing", []*verdict.ScenarioVerdicts{blur}, []string{"no target is told apart from the rest at the top in any of the 1 scenarios"}, "a ~ b (echo)", nil},
	} {
		got, ties := topSentence(tc.svs)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: sentence %q does not say %q", tc.name, got, w)
			}
		}
		for _, f := range tc.forbidden {
			if strings.Contains(got, f) {
				t.Errorf("%s: sentence %q says %q", tc.name, got, f)
			}
		}
		if !strings.Contains(ties, tc.wantTies) || (tc.wantTies == "") != (ties == "") {
			t.Errorf("%s: ties %q, want %q", tc.name, ties, tc.wantTies)
		}
	}
}

// TestRunSummaryOfRealRun: on a generated run whose targets are 20% apart
// (4,000 req/s steps at 3% noise), the index sentence names the fastest,
// the heat map has every target, the fastest as each column's reference,
// and a coloured claimed ratio in every other cell.
func TestRunSummaryOfRealRun(t *testing.T) {
	set, errs := parse.ReadAll(benchRuns(t, t.TempDir(), 1, 5, 3, 5))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	m := tablesModel(t, set, "")
	runs := m.indexPage().Runs
	if len(runs) != 1 {
		t.Fatalf("%d run summaries, want 1", len(runs))
	}
	r := runs[0]
	if want := "framework-04 is faster than the rest on 3 of 3 scenarios"; !strings.Contains(r.Sentence, want) {
		t.Errorf("sentence %q, want it to say %q", r.Sentence, want)
	}
	if len(r.Heat.Rows) != 5 || len(r.Heat.Cols) != 3 {
		t.Fatalf("heat map %d×%d, want 5 targets × 3 scenarios", len(r.Heat.Rows), len(r.Heat.Cols))
	}
	for _, c := range r.Heat.Cols {
		if c.Ref != "framework-04" {
			t.Errorf("%s: reference %s, want framework-04", c.Scenario.Text, c.Ref)
		}
	}
	for i, row := range r.Heat.Rows {
		for j, cell := range row.Cells {
			switch {
			case i == 0 && cell.Class != "h-ref":
				t.Errorf("%s in %s: %q, want the reference", row.Target.Text, r.Heat.Cols[j].Scenario.Text, cell.Class)
			case i > 0 && !strings.HasPrefix(cell.Class, "h-") || i > 0 && (cell.Class == "h-same" || cell.Class == "h-ref" || cell.Class == "h-none"):
				t.Errorf("%s in %s: %q %q, want a claimed ratio", row.Target.Text, r.Heat.Cols[j].Scenario.Text, cell.Class, cell.Text)
			}
		}
	}
	if r.Chart == nil || len(r.Chart.Bars) != 5 || r.Chart.Bars[0].Label != "framework-04" {
		t.Errorf("the run's chart does not draw its 5 targets highest first: %+v", r.Chart)
	}
}
