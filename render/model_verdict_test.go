package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/parse/runjson"
	"github.com/fairbench/fairbench/parse/verdict"

	"github.com/fairbench/fairbench/parse"
)

// twoRuns is a set of two runs of one scenario: run r1 holds a (slow), b
// and c (fast, within 1% of each other); run r2 holds d and e, e twice d.
// Every cell has 6 repetitions with a fixed, small spread.
func twoRuns() *parse.Set {
	set := &parse.Set{Runs: []*parse.Run{
		{Manifest: runjson.Manifest{ID: "r1", Suite: "go", Start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}},
		{Manifest: runjson.Manifest{ID: "r2", Suite: "js", Start: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)}},
	}}
	wiggle := []float64{1, 1.01, 0.99, 1.005, 0.995, 1.002}
	for _, c := range []struct {
		run, target string
		rps         float64
	}{{"r1", "a", 1000}, {"r1", "b", 2000}, {"r1", "c", 2010}, {"r2", "d", 1500}, {"r2", "e", 3000}} {
		for i, w := range wiggle {
			set.Measurements = append(set.Measurements, &parse.Measurement{Run: c.run, Target: c.target, Scenario: "ping",
				Rep: i + 1, Order: i + 1, RPS: c.rps * w, Source: parse.Source{File: fmt.Sprintf("%s-%s-%d.txt", c.run, c.target, i+1)}})
		}
	}
	return set
}

const twoRunsSite = `
title = "t"
[[card]]
subject = "b"
baseline = "a"
escapes = ["c", "e"]

[[comparison]]
title = "pairs"
pairs = [["a", "b"], ["b", "c"], ["a", "d"]]
`

// TestOneVerdictEverywhere checks that a card, a comparison table, "vs
// leader", the verdict matrix, the rank ranges and results.json show, for
// each pair, the one verdict the decision layer made, and that no verdict
// crosses runs.
func TestOneVerdictEverywhere(t *testing.T) {
	site, err := ParseSite([]byte(twoRunsSite), "site.toml")
	if err != nil {
		t.Fatal(err)
	}
	set := twoRuns()
	m := newModel(fromSet(set, Options{Site: site, Thresholds: verdict.DefaultThresholds}), site)
	byName := map[string]*verdict.Cell{}
	for _, c := range m.cells {
		byName[c.Name] = c
	}
	same := func(where string, got verdict.Verdict, a, b string) {
		t.Helper()
		want, ok := m.dec.Pair(byName[a], byName[b])
		if !ok {
			t.Fatalf("%s: no verdict on %s, %s", where, a, b)
		}
		if got.A != want.A || got.B != want.B || got.Verdict != want.Verdict || got.Reason != want.Reason || got.Ratio != want.Ratio {
			t.Errorf("%s shows %s/%s %q (%s), the decision layer says %q (%s)", where, got.A, got.B, got.Verdict, got.Reason, want.Verdict, want.Reason)
		}
	}
	card := m.card(Page{}, site.Cards[0])
	for _, row := range card.Rows {
		same("card", row.J.Verdict, "a", "b")
		if row.J.Mark != "" || row.J.Interval == "" || !strings.HasPrefix(row.J.Ratio, "2.00") {
			t.Errorf("card b ÷ a: mark %q ratio %q interval %q, want a claimed 2.00× with its interval", row.J.Mark, row.J.Ratio, row.J.Interval)
		}
		for _, e := range row.Escapes {
			switch e.Name {
			case "c":
				same("card escape", e.J.Verdict, "b", "c")
				if e.J.Mark == "" || e.J.Why == "" || (e.J.Mark == "=") != e.J.Verdict.Equivalent() {
					t.Errorf("b against c (0.5%% apart) reads %q with reason %q, want ~ (or = where equivalent) with a reason", e.J.Mark, e.J.Why)
				}
			case "e":
				if e.J.Verdict.Reason != verdict.ReasonOtherRun || e.J.Mark != "~" {
					t.Errorf("b against e (another run) reads %q %q, want ~ other-run", e.J.Mark, e.J.Verdict.Reason)
				}
			}
		}
	}
	cmp := m.comparison(site.Comparisons[0])
	for _, row := range cmp.Rows {
		for _, c := range row.Cells {
			if c.Measured {
				same("comparison "+row.From.Text+"→"+row.To.Text, c.J.Verdict, row.From.Text, row.To.Text)
			}
		}
	}
	for c, v := range m.vsLeader {
		same("vs leader of "+c.Name, v.Verdict, c.Name, m.leader[c].Name)
		if m.leader[c].Run != c.Run {
			t.Errorf("%s's leader %s is of another run", c.Name, m.leader[c].Name)
		}
	}
	p, err := m.scenarioPage("ping")
	if err != nil {
		t.Fatal(err)
	}
	if p.RunNote == "" || len(p.Matrices) != 2 {
		t.Fatalf("two runs on one page: note %q, %d matrices; want a note and one matrix per run", p.RunNote, len(p.Matrices))
	}
	for _, mx := range p.Matrices {
		for i, row := range mx.Rows {
			faster, slower := 0, 0
			for j, cell := range row.Cells {
				if i == j {
					continue
				}
				v, _ := m.dec.Pair(byName[row.Name], byName[mx.Heads[j]])
				want := "~"
				switch v.Faster() {
				case byName[row.Name]:
					want, slower = "faster", slower+1
				case byName[mx.Heads[j]]:
					want, faster = "slower", faster+1
				}
				if cell.Word != want {
					t.Errorf("matrix %s vs %s: %q, verdict says %q", row.Name, mx.Heads[j], cell.Word, want)
				}
			}
			r := m.ranks[byName[row.Name]]
			if r.Lo != 1+faster || r.Hi != len(mx.Rows)-slower {
				t.Errorf("%s: rank %d–%d, the matrix row gives %d–%d", row.Name, r.Lo, r.Hi, 1+faster, len(mx.Rows)-slower)
			}
		}
	}
	if r := m.ranks[byName["e"]]; r.Lo != 1 || r.Hi != 1 {
		t.Errorf("e, twice d in its own run, ranks %d–%d, want 1 (ranked within r2, not against r1)", r.Lo, r.Hi)
	}
	var jf, cf bytes.Buffer
	if err := m.exports(&jf, &cf); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Verdicts []struct{ Run, A, B, Verdict string }
		Cells    []struct {
			Name     string
			RankLo   *int `json:"rank_lo"`
			RankHi   *int `json:"rank_hi"`
			Interval struct {
				Kind  string
				Level *float64
			}
		}
		Cards []struct {
			Verdicts []struct{ A, B, Verdict string }
		}
	}
	if err := json.Unmarshal(jf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Verdicts) != 3+1 {
		t.Errorf("results.json has %d verdicts, want 4 (3 pairs in r1, 1 in r2)", len(doc.Verdicts))
	}
	for _, v := range doc.Verdicts {
		if !(v.A < v.B) {
			t.Errorf("verdict %s/%s: a must be < b bytewise", v.A, v.B)
		}
	}
	for _, c := range doc.Cells {
		if c.RankLo == nil || c.RankHi == nil || c.Interval.Kind != verdict.IntervalCI || c.Interval.Level == nil {
			t.Errorf("cell %s: rank %v–%v, interval %q level %v; want ranks and a ci with its level at n=6", c.Name, c.RankLo, c.RankHi, c.Interval.Kind, c.Interval.Level)
		}
	}
	if len(doc.Cards) != 1 || len(doc.Cards[0].Verdicts) != 3 {
		t.Errorf("results.json cards: %+v, want one card with its 3 verdicts", doc.Cards)
	}
}

// TestIntervalLabels checks a range below the size at which a confidence
// interval exists is labelled min–max with its count and no level, and a
// confidence interval with its level.
func TestIntervalLabels(t *testing.T) {
	four := verdict.NewStat([]float64{100, 110, 120, 130}, verdict.DefaultThresholds)
	if _, _, l := interval(four); l != "min–max of 4 repetitions" || strings.Contains(l, "%") {
		t.Errorf("n=4: label %q", l)
	}
	if got := intervalText(four); !strings.Contains(got, "min–max of 4 repetitions") || strings.Contains(got, "interval") {
		t.Errorf("n=4: %q", got)
	}
	ten := verdict.NewStat([]float64{100, 101, 102, 103, 104, 105, 106, 107, 108, 109}, verdict.DefaultThresholds)
	if _, _, l := interval(ten); !strings.HasSuffix(l, "confidence interval of the median") || !strings.Contains(l, "%") {
		t.Errorf("n=10: label %q", l)
	}
}

// TestChartReadable checks every chart names its axis's unit, has a legend
// for the marks it drew, and a bar without repetitions (the geometric
// mean) says no "n=0".
func TestChartReadable(t *testing.T) {
	c := NewBarChart("x", "t", []BarInput{
		{Label: "a", Median: 100, Lo: 90, Hi: 110, WhiskerLabel: "min–max of 4 repetitions", Unit: "req/s", Reps: []RepInput{{Value: 95}, {Value: 105}}},
		{Label: "b", Median: 50, Unit: "req/s", Reps: []RepInput{{Value: 50}}},
	})
	if c.Unit != "req/s" {
		t.Errorf("axis unit %q", c.Unit)
	}
	var legend []string
	for _, l := range c.Legend {
		legend = append(legend, l.Class)
	}
	for _, want := range []string{"sw-bar", "sw-whisker", "sw-dot", "sw-unranked"} {
		if !strings.Contains(strings.Join(legend, " "), want) {
			t.Errorf("legend %v lacks %s", legend, want)
		}
	}
	g := NewBarChart("g", "t", []BarInput{{Label: "a", Median: 100, Unit: "req/s", What: "geometric mean of medians"}})
	if strings.Contains(g.Bars[0].Title, "n=0") || !strings.Contains(g.Bars[0].Title, "geometric mean") {
		t.Errorf("geomean bar title %q", g.Bars[0].Title)
	}
}

// TestJudgementAtLeast: a claim whose faster side saturated its load
// generator shows the end of its interval nearer 1 as a bound, in the
// direction it was judged: that end is what the claim holds to.
func TestJudgementAtLeast(t *testing.T) {
	for _, tc := range []struct {
		ratio float64
		want  string
	}{{3.06, "≥ 2.45×"}, {1 / 3.06, "≤ 0.392×"}} {
		v := verdict.Verdict{Verdict: verdict.VerdictA, Reason: verdict.ReasonAtLeast, Ratio: tc.ratio, Lo: tc.ratio * 0.8, Hi: tc.ratio * 1.2, Level: 0.99}
		j := judgementOf(verdict.Comparison{Ratio: tc.ratio, Lo: tc.ratio * 0.8, Hi: tc.ratio * 1.2, Verdict: v}, "a", "b")
		if j.Ratio != tc.want || j.Mark != "" || j.Why != "" || j.Short != "at least" {
			t.Errorf("ratio %.3f: %q mark %q why %q short %q, want %q claimed, at least", tc.ratio, j.Ratio, j.Mark, j.Why, j.Short, tc.want)
		}
	}
	v := verdict.Verdict{Verdict: verdict.VerdictA, Reason: verdict.ReasonDiffers, Ratio: 2}
	if j := judgementOf(verdict.Comparison{Ratio: 2, Verdict: v}, "a", "b"); j.Ratio != Ratio(2) || j.Short != "" {
		t.Errorf("a plain claim reads %q (%q)", j.Ratio, j.Short)
	}
}
