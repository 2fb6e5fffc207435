package render

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// tablesSite is the fixed run (stdlib, chi, gin over ping, query, body)
// with cards and tables that name targets and scenarios it lacks, as
// site/site.toml names targets before their suite has a run.
const tablesSite = `
[[card]]
title = "degraded"
subject = "stdlib"
baseline = "nest-express-node"
escapes = ["chi", "nest-express-bun"]

[[card]]
title = "no subject"
subject = "elysia-bun"
baseline = "gin"

[[card]]
title = "whole"
subject = "stdlib"
baseline = "gin"
escapes = ["chi"]
note = "The site's own sentence."

[[comparison]]
title = "ORM"
kind = "orm"
scenarios = ["db", "db-list", "db-insert"]
pairs = [["hono-pg-node", "hono-typeorm-node"]]

[[comparison]]
title = "runtime"
kind = "runtime"
scenarios = ["query", "static-256k", "ping"]
pairs = [["stdlib", "chi"], ["nest-express-node", "nest-express-bun"]]
`

func tablesModel(t *testing.T, set *parse.Set, src string) *model {
	t.Helper()
	site, err := ParseSite([]byte(src), "site.toml")
	if err != nil {
		t.Fatal(err)
	}
	return newModel(fromSet(set, Options{Site: site, Thresholds: verdict.DefaultThresholds}), site)
}

func TestCardDegrades(t *testing.T) {
	set, _ := fixture(t)
	m := tablesModel(t, set, tablesSite)
	cards := m.indexPage().Cards
	if len(cards) != 3 {
		t.Fatalf("got %d cards, want 3", len(cards))
	}
	deg := cards[0]
	if len(deg.Rows) != 0 || deg.Baseline.Text != "" {
		t.Errorf("degraded card: %d rows against a baseline the run lacks (%q)", len(deg.Rows), deg.Baseline.Text)
	}
	if !strings.Contains(deg.NoBaseline, "nest-express-node, the baseline of this card, is not in this run") {
		t.Errorf("degraded card does not say its baseline is missing: %q", deg.NoBaseline)
	}
	if !strings.Contains(deg.Missing, "nest-express-node, nest-express-bun") {
		t.Errorf("Missing = %q, want both absent names", deg.Missing)
	}
	if len(deg.EscapeRows) != len(m.scenarios) {
		t.Fatalf("degraded card: %d escape rows, want one per scenario (%d)", len(deg.EscapeRows), len(m.scenarios))
	}
	whole := cards[2]
	for i, r := range deg.EscapeRows {
		if len(r.Escapes) != 1 || r.Escapes[0].Name != "chi" {
			t.Fatalf("row %s: escapes %+v, want chi alone", r.Scenario.Text, r.Escapes)
		}
		// The escape is the same verdict the whole card shows for it.
		if got, want := r.Escapes[0].J.Verdict, whole.Rows[i].Escapes[0].J.Verdict; got != want {
			t.Errorf("row %s: stdlib ÷ chi judged %+v on the degraded card, %+v on the whole one", r.Scenario.Text, got, want)
		}
	}
	if s := cards[1]; len(s.Rows)+len(s.EscapeRows) != 0 || !strings.Contains(s.NoBaseline, "elysia-bun, the subject of this card, is not in this run") {
		t.Errorf("card without its subject: %d rows, %q", len(s.Rows)+len(s.EscapeRows), s.NoBaseline)
	}
	if len(whole.Rows) != len(m.scenarios) || whole.Note != "The site's own sentence." || !strings.Contains(whole.Read, "stdlib's requests per second ÷ gin's") {
		t.Errorf("whole card: %d rows, note %q, read %q", len(whole.Rows), whole.Note, whole.Read)
	}
}

func TestComparisonDegrades(t *testing.T) {
	set, _ := fixture(t)
	m := tablesModel(t, set, tablesSite)
	vs := m.comparisons()
	orm, rt := vs[0], vs[1]
	if len(orm.Rows) != 0 || len(orm.Scenarios) != 0 || !strings.Contains(orm.Missing, "No pair of this table has been measured yet") {
		t.Errorf("ORM table with nothing measured: %d rows, %d columns, %q", len(orm.Rows), len(orm.Scenarios), orm.Missing)
	}
	if orm.Change != "cost" || !strings.Contains(orm.Read, "raw driver") {
		t.Errorf("ORM table: change %q, read %q: want the orm kind's", orm.Change, orm.Read)
	}
	var cols []string
	for _, s := range rt.Scenarios {
		cols = append(cols, s.Text)
	}
	if strings.Join(cols, " ") != "query ping" {
		t.Errorf("runtime table columns %q, want the named scenarios the run has, in the site's order", cols)
	}
	if len(rt.Rows) != 1 || !strings.Contains(rt.Missing, "scenario static-256k") || !strings.Contains(rt.Missing, "nest-express-node") {
		t.Errorf("runtime table: %d rows, missing %q", len(rt.Rows), rt.Missing)
	}
	for _, c := range rt.Rows[0].Cells {
		if !c.Measured || c.J.Verdict.Reason == "" && !c.J.Verdict.Claimed() {
			t.Errorf("stdlib → chi: a cell without a verdict: %+v", c)
		}
		if c.J.Mark == "~" && c.J.Why == "" {
			t.Errorf("stdlib → chi: a ~ without its reason: %+v", c.J)
		}
	}
}

// TestCardsClosedLoopOnly: a latency point of the subject, however high,
// is never a repetition of a card's or a table's throughput.
func TestCardsClosedLoopOnly(t *testing.T) {
	set, _ := fixture(t)
	var extra []*parse.Measurement
	for _, ms := range set.Measurements {
		if ms.Target == "stdlib" && ms.Scenario == "ping" && !ms.Warmup {
			lat := *ms
			lat.Phase, lat.Rep, lat.RPS = parse.PhaseLatency, lat.Rep+100, 9_999_999
			extra = append(extra, &lat)
		}
	}
	if len(extra) == 0 {
		t.Fatal("the fixture has no stdlib ping")
	}
	with := *set
	with.Measurements = append(append([]*parse.Measurement(nil), set.Measurements...), extra...)
	// What the cards and tables show of stdlib in ping, from closed-loop
	// repetitions alone.
	shown := func(m *model) []string {
		var out []string
		for _, c := range m.indexPage().Cards {
			for _, r := range append(c.Rows, c.EscapeRows...) {
				if r.Scenario.Text == "ping" {
					out = append(out, c.Title+": "+r.Subject+" "+r.J.Ratio)
				}
			}
		}
		for _, v := range m.comparisons() {
			for _, r := range v.Rows {
				for i, c := range r.Cells {
					if v.Scenarios[i].Text == "ping" {
						out = append(out, v.Title+": "+c.From+" "+c.Change)
					}
				}
			}
		}
		return out
	}
	want := shown(tablesModel(t, set, tablesSite))
	got := shown(tablesModel(t, &with, tablesSite))
	for _, g := range got {
		if !slices.Contains(want, g) && !strings.HasSuffix(g, " –") {
			t.Errorf("with latency points %q is shown; from closed-loop repetitions alone: %q", g, want)
		}
	}
	if len(want) == 0 {
		t.Fatal("nothing shows stdlib in ping")
	}
}

// TestProjectIndexDegrades renders fairbench's own site from the committed
// runs. Tables may be declared before their suites have runs (the page then
// says so instead of failing: TestComparisonDegrades); here every suite a
// card or table takes pairs from has one, so the headline card and the ORM
// table are whole.
func TestProjectIndexDegrades(t *testing.T) {
	if testing.Short() {
		t.Skip("renders the project's site")
	}
	out := buildProjectSite(t, filepath.Join(t.TempDir(), "project"))
	b, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	// The nest suite has a run: the headline card is whole.
	if strings.Contains(page, "nest-express-node, the baseline of this card, is not in this run") {
		t.Error("the headline card says its baseline is missing, though the nest suite has a run")
	}
	if strings.Contains(page, "No pair of this table has been measured yet") {
		t.Error("a comparison table says nothing of it was measured, though every suite it takes pairs from has a run")
	}
	for _, want := range []string{
		"Elysia on Bun against NestJS on Express on Node",
		"How to read this card",
		`<h2 id="comparisons">Comparisons</h2>`,
		"What an ORM costs",
		"hono-typeorm-node", // the js-db suite has a run: the ORM table is whole
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the project's index lacks %q", want)
		}
	}
	// History follows a suite that continues: every suite has two runs
	// or more, the newest run is nest's third.
	hist, err := os.ReadFile(filepath.Join(out, "history.html"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(hist), "Only one run of suite") || !regexp.MustCompile(`[2-9] runs of suite`).Match(hist) {
		t.Error("History does not show a suite across its runs, though every suite has two or more")
	}
	// A finding about a target as a whole (soft.html places it at the
	// target's page, with no scenario anchor) is on that page too.
	soft, err := os.ReadFile(filepath.Join(out, "soft.html"))
	if err != nil {
		t.Fatal(err)
	}
	wholeTarget := map[string]bool{}
	for _, m := range regexp.MustCompile(`<a href="(target/[^"#]+\.html)">`).FindAllSubmatch(soft, -1) {
		wholeTarget[string(m[1])] = true
	}
	t.Logf("soft.html places %d findings at a target as a whole", len(wholeTarget))
	for page := range wholeTarget {
		b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(page)))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "Findings about this target") {
			t.Errorf("soft.html places a finding at %s as a whole, which does not show it", page)
		}
	}
}

// TestIndexChartsKeepCardTargets: with more targets than a run's index
// chart draws, the targets of every card are drawn whatever their place,
// and the rest are counted as left out.
func TestIndexChartsKeepCardTargets(t *testing.T) {
	const targets = runChartBars + 5
	set, errs := parse.ReadAll(benchRuns(t, t.TempDir(), 1, targets, 2, 3))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	// framework-00 is the slowest: the last bar, past the chart's bound.
	top := fmt.Sprintf("framework-%02d", targets-1)
	m := tablesModel(t, set, "[[card]]\nsubject = \""+top+"\"\nbaseline = \"framework-00\"\nescapes = [\"framework-01\"]\n")
	runs := m.indexPage().Runs
	if len(runs) != 1 || runs[0].Chart == nil {
		t.Fatalf("%d run summaries (want 1) or no chart", len(runs))
	}
	var labels []string
	for _, b := range runs[0].Chart.Bars {
		labels = append(labels, b.Label)
	}
	for _, want := range []string{top, "framework-00", "framework-01"} {
		if !slices.Contains(labels, want) {
			t.Errorf("the index chart leaves out %s, a card's target: %q", want, labels)
		}
	}
	if got := len(labels) + runs[0].More; got != targets || len(labels) != runChartBars+2 {
		t.Errorf("%d bars and %d left out, want %d bars and %d left out", len(labels), runs[0].More, runChartBars+2, targets-runChartBars-2)
	}
}

// siteNames are every target and scenario site/site.toml's cards and
// tables name, collected from it.
func siteNames(t *testing.T, site *Site) (targets, scenarios []string) {
	t.Helper()
	add := func(list *[]string, names ...string) {
		for _, n := range names {
			if !slices.Contains(*list, n) {
				*list = append(*list, n)
			}
		}
	}
	for _, c := range site.Cards {
		add(&targets, c.Subject, c.Baseline)
		add(&targets, c.Escapes...)
		add(&scenarios, c.Scenarios...)
	}
	for _, c := range site.Comparisons {
		for _, p := range c.Pairs {
			add(&targets, p...)
		}
		add(&scenarios, c.Scenarios...)
	}
	add(&scenarios, "ping")
	return targets, scenarios
}

// siteTablesRun is one generated run (bombardier dumps, 3 repetitions)
// whose targets and scenarios are every name site/site.toml's cards and
// tables use: the site as it reads once every suite has a run.
func siteTablesRun(t *testing.T) (*parse.Set, *Site) {
	t.Helper()
	site, err := LoadSite(filepath.Join("..", "site"))
	if err != nil {
		t.Fatal(err)
	}
	targets, scenarios := siteNames(t, site)
	set, errs := parse.ReadAll(benchRuns(t, t.TempDir(), 1, len(targets), len(scenarios), 3))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	name := func(n string) string {
		var i int
		if _, err := fmt.Sscanf(n, "framework-%d", &i); err == nil {
			return targets[i]
		}
		if _, err := fmt.Sscanf(n, "s%d", &i); err == nil {
			return scenarios[i]
		}
		t.Fatalf("benchRuns named %q", n)
		return ""
	}
	for _, m := range set.Measurements {
		m.Target, m.Scenario = name(m.Target), name(m.Scenario)
	}
	for _, tg := range set.Targets {
		tg.Name = name(tg.Name)
	}
	return set, site
}

// TestSiteTablesFill: once every target site/site.toml names has a run,
// each card has its baseline in every scenario and each table every pair,
// with nothing said missing.
func TestSiteTablesFill(t *testing.T) {
	set, site := siteTablesRun(t)
	m := newModel(fromSet(set, Options{Site: site, Thresholds: verdict.DefaultThresholds}), site)
	for i, c := range m.indexPage().Cards {
		want := len(m.scenarios)
		if n := len(site.Cards[i].Scenarios); n > 0 {
			want = n
		}
		if c.Missing != "" || c.NoBaseline != "" || len(c.EscapeRows) != 0 || len(c.Rows) != want || c.Read == "" {
			t.Errorf("card %q: missing %q, %q; %d rows (want %d), %d without the baseline", c.Title, c.Missing, c.NoBaseline, len(c.Rows), want, len(c.EscapeRows))
		}
	}
	for i, v := range m.comparisons() {
		spec := site.Comparisons[i]
		if v.Missing != "" || len(v.Rows) != len(spec.Pairs) {
			t.Errorf("table %q: %d rows of %d, missing %q", v.Title, len(v.Rows), len(spec.Pairs), v.Missing)
		}
		for _, r := range v.Rows {
			for _, c := range r.Cells {
				if !c.Measured {
					t.Errorf("table %q, %s → %s: a cell without a verdict: %+v", v.Title, r.From.Text, r.To.Text, c)
				}
			}
		}
	}
}

// TestCardApart: a card whose subject and baseline come from runs of two
// suites says so; the decision layer has no verdict across runs.
func TestCardApart(t *testing.T) {
	both := twoSuites(t, false)
	m := tablesModel(t, both, `
[[card]]
subject = "stdlib"
baseline = "framework-01"

[[comparison]]
title = "apart"
pairs = [["framework-00", "chi"], ["stdlib", "chi"]]

[[comparison]]
title = "ping only"
pairs = [["framework-00", "framework-01"]]
`)
	c := m.indexPage().Cards[0]
	if len(c.Rows) != 1 || c.Rows[0].J.Mark != "~" || !strings.Contains(c.Apart, "Measured in different runs: stdlib (run ") || !strings.Contains(c.Apart, "framework-01 (run 20260101T000000Z-bench)") {
		t.Errorf("card across runs: %d rows, apart %q", len(c.Rows), c.Apart)
	}
	v := m.comparisons()[0]
	if !strings.Contains(v.Apart, "chi (run ") || !strings.Contains(v.Apart, "framework-00 (run 20260101T000000Z-bench)") || strings.Contains(v.Apart, "stdlib") {
		t.Errorf("table across runs: apart %q, want framework-00 and chi alone", v.Apart)
	}
	// The fixture's query and body, which the bench run never measured,
	// are no columns of a table of bench targets.
	if p := m.comparisons()[1]; len(p.Scenarios) != 1 || p.Scenarios[0].Text != "ping" || len(p.Rows) != 1 || len(p.Rows[0].Cells) != 1 || !p.Rows[0].Cells[0].Measured {
		t.Errorf("table measured in ping only: columns %+v, rows %+v", p.Scenarios, p.Rows)
	}
}

// twoSuites is the fixture's run and a bench run measured in the fixture's
// scenario ping, as two suites' runs on show; with stdlib, the bench run's
// framework-00 is named stdlib (same runtime): one name published by two
// suites, measured again beside framework-01.
func twoSuites(t *testing.T, stdlib bool) *parse.Set {
	t.Helper()
	set, _ := fixture(t)
	other, errs := parse.ReadAll(benchRuns(t, t.TempDir(), 1, 2, 1, 3))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	runtime := ""
	for _, m := range set.Measurements {
		if m.Target == "stdlib" {
			runtime = m.Runtime
		}
	}
	for _, m := range other.Measurements {
		m.Scenario = "ping"
		if stdlib && m.Target == "framework-00" {
			m.Target, m.Runtime = "stdlib", runtime
		}
	}
	both := *set
	both.Runs = append(slices.Clone(set.Runs), other.Runs...)
	both.Targets = append(slices.Clone(set.Targets), other.Targets...)
	both.Measurements = append(slices.Clone(set.Measurements), other.Measurements...)
	return &both
}

// TestCardTakesTheSharedRun: a target published by two suites is compared
// where it was measured beside the other name, never across runs when one
// run has both.
func TestCardTakesTheSharedRun(t *testing.T) {
	both := twoSuites(t, true)
	m := tablesModel(t, both, `
[[card]]
subject = "stdlib"
baseline = "framework-01"
escapes = ["chi"]

[[card]]
subject = "stdlib"
baseline = "gin"

[[comparison]]
title = "shared"
pairs = [["stdlib", "framework-01"], ["stdlib", "chi"]]
`)
	const benchRun = "20260101T000000Z-bench"
	c := m.indexPage().Cards[0]
	if len(c.Rows) != 1 || c.Apart != "" {
		t.Fatalf("card: %d rows, apart %q; want one row from the run with both", len(c.Rows), c.Apart)
	}
	if v := c.Rows[0].J.Verdict; v.CellA == nil || v.CellA.Run != benchRun || v.CellB.Run != benchRun {
		t.Errorf("card row judged %+v, want both cells from %s", v, benchRun)
	}
	// chi is only in the fixture's run: judged against the stdlib measured there.
	if e := c.Rows[0].Escapes; len(e) != 1 || e[0].J.Verdict.CellA == nil || e[0].J.Verdict.CellB.Run == benchRun {
		t.Errorf("escapes %+v, want chi against the fixture run's stdlib", e)
	}
	// gin is only in the newer run: stdlib is taken from there too.
	g := m.indexPage().Cards[1]
	if len(g.Rows) != 3 || g.Apart != "" {
		t.Errorf("stdlib against gin: %d rows (want ping, query, body), apart %q", len(g.Rows), g.Apart)
	}
	for _, r := range g.Rows {
		if v := r.J.Verdict; v.CellA == nil || v.CellA.Run == benchRun || v.CellB.Run == benchRun {
			t.Errorf("stdlib against gin in %s: judged across runs", r.Scenario.Text)
		}
	}
	v := m.comparisons()[0]
	if strings.Contains(v.Apart, "framework-01") {
		t.Errorf("table: stdlib and framework-01 share a run but read apart: %q", v.Apart)
	}
	if len(v.Rows) != 2 || v.Rows[1].Cells[0].J.Verdict.CellA == nil || v.Rows[1].Cells[0].J.Verdict.CellA.Run == benchRun {
		t.Errorf("table: stdlib and chi should be judged in the fixture's run: %+v", v.Rows)
	}
}

// TestTargetPageShowsEveryRun: a target two suites on show measured has a
// section per run on its page, each naming its run.
func TestTargetPageShowsEveryRun(t *testing.T) {
	both := twoSuites(t, true)
	m := tablesModel(t, both, "")
	p := m.targetPage("stdlib")
	var ping []TargetScenario
	for _, s := range p.Scenarios {
		if s.Name.Text == "ping" {
			ping = append(ping, s)
		}
	}
	if len(ping) != 2 || ping[0].Run == "" || ping[1].Run == "" || ping[0].ID == ping[1].ID || ping[0].Median == ping[1].Median {
		t.Fatalf("ping on stdlib's page: %+v, want one section per run, each naming its run", ping)
	}
	if len(p.Scenarios) != 4 { // ping twice, query and body once
		t.Errorf("%d sections, want 4", len(p.Scenarios))
	}
	if one := m.targetPage("gin"); len(one.Scenarios) != 3 || one.Scenarios[0].Run != "" {
		t.Errorf("gin, measured by one run: %d sections, run %q", len(one.Scenarios), one.Scenarios[0].Run)
	}
}
