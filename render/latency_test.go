package render

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/audit"
)

// pointsSet is the fixed run (stdlib, chi, gin; ping, query, body; five
// closed-loop repetitions each) with latency and sweep points added on
// ping, built here until a collected phase run exists: each point's dump is
// a file written into a copy of the run dir. gin and stdlib are offered
// 25, 50, 75 and 90% of their capacity, two repetitions each; gin's second
// repetition at 90% fell behind its schedule (sent 20% short), and
// stdlib's second at 90% went out late because a stall of stdlib held
// every worker (its p99 from the schedule three times the printed). The sweep
// measures gin at 1, 8, 64 and 256 connections (it saturates at 64) and
// chi at 1, 8 and 64 (still growing).
func pointsSet(t *testing.T) (*parse.Set, []*parse.Measurement) {
	t.Helper()
	set, _ := fixture(t)
	dir := filepath.Join(t.TempDir(), filepath.Base(set.Runs[0].Path))
	if err := os.CopyFS(dir, os.DirFS(set.Runs[0].Path)); err != nil {
		t.Fatal(err)
	}
	set, errs := parse.ReadAll([]string{dir})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	run := set.Runs[0].ID
	// Beside the run dir, not in it: a dump in a run dir that run.json
	// does not list is a finding of its own (dump-extra).
	points := filepath.Join(filepath.Dir(dir), "points")
	dump := func(m *parse.Measurement, name string) {
		f := filepath.Join(points, m.Target, m.Scenario, name)
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(fmt.Sprintf("a %s point of %s at %g req/s, %d connections\n", m.Phase, m.Target, m.Rate, m.Connections)), 0o644); err != nil {
			t.Fatal(err)
		}
		m.Source = parse.Source{File: f, LineStart: 1, LineEnd: 1}
	}
	var out []*parse.Measurement
	capacity := map[string]float64{"gin": 20000, "stdlib": 16000}
	for _, target := range []string{"gin", "stdlib"} {
		for _, frac := range []float64{0.25, 0.5, 0.75, 0.9} {
			for rep := 1; rep <= 2; rep++ {
				rate := frac * capacity[target]
				p50 := time.Duration(200+1000*frac*frac) * time.Microsecond
				if target == "stdlib" {
					p50 = p50 * 7 / 5
				}
				m := &parse.Measurement{Tool: parse.ToolVegeta, Run: run, Target: target, Runtime: "go", Scenario: "ping", Rep: rep,
					Phase: parse.PhaseLatency, Rate: rate, Connections: 64, Window: 4 * time.Second, Duration: 4 * time.Second,
					Requests: int64(rate * 4), RPS: rate, RPSBasis: parse.RPSPerDuration,
					Open:    parse.OpenModel{Fraction: frac, Capacity: capacity[target], SendRate: rate, Success: 1, SuccessKnown: true},
					Latency: parse.Latency{Max: 20 * p50, Percentiles: []parse.Percentile{{P: 50, Value: p50}, {P: 90, Value: 3 * p50}, {P: 99, Value: 10 * p50}}}}
				if target == "gin" && frac == 0.9 && rep == 2 {
					m.Open.SendRate = rate * 0.8
					for i := range m.Latency.Percentiles {
						m.Latency.Percentiles[i].Value = m.Latency.Percentiles[i].Value * 3 / 2
					}
				}
				if target == "stdlib" && frac == 0.9 && rep == 2 { // a stall of the target held every worker
					m.Open.Behind = 40 * time.Millisecond
					m.Open.FromSchedule = parse.Latency{Max: 40 * p50, Percentiles: []parse.Percentile{{P: 99, Value: 30 * p50}}, Corrected: true}
					m.Open.Late = parse.LateSending{Late: 50, Held: 48, Workers: 64, Wait: 2 * time.Second, HeldWait: 1900 * time.Millisecond}
				}
				if target == "stdlib" && frac == 0.75 && rep == 1 { // read from the results: the tail as due
					m.Open.FromSchedule = parse.Latency{Max: 25 * p50, Percentiles: []parse.Percentile{{P: 99, Value: 10*p50 + 300*time.Microsecond}}, Corrected: true} // within the floor: not behind
				}
				dump(m, fmt.Sprintf("latency-%g-%d.txt", frac, rep))
				out = append(out, m)
			}
		}
	}
	sweep := map[string]map[int]float64{"gin": {1: 3000, 8: 15000, 64: 20000, 256: 20300}, "chi": {1: 2000, 8: 9000, 64: 17000}}
	for _, target := range []string{"gin", "chi"} {
		for conns, rps := range sweep[target] {
			for rep := 1; rep <= 2; rep++ {
				m := &parse.Measurement{Tool: parse.ToolBombardier, Run: run, Target: target, Runtime: "go", Scenario: "ping", Rep: rep,
					Phase: parse.PhaseSweep, Connections: conns, Window: 2 * time.Second, Duration: 2 * time.Second,
					Requests: int64(rps * 2), RPS: rps * (1 + 0.01*float64(rep)), RPSBasis: parse.RPSPerDuration,
					Latency: parse.Latency{Mean: time.Duration(float64(conns) / rps * float64(time.Second))}}
				dump(m, fmt.Sprintf("sweep-%d-%d.txt", conns, rep))
				out = append(out, m)
			}
		}
	}
	// A warm-up of the phase, which no page counts.
	warm := *out[0]
	warm.Warmup, warm.Rep = true, 1
	dump(&warm, "latency-w1.txt")
	set.Measurements = append(set.Measurements, &warm)
	set.Measurements = append(set.Measurements, out...)
	return set, out
}

// TestPointsKeptApart checks that latency and sweep points change no
// closed-loop number: every page and export but the scenario page of ping,
// gin's, chi's and stdlib's target pages, the exports and the pages of
// findings is the same byte for byte with and without them, and the ping
// page is the same up to its open-model section but for the lines that
// show findings. The site's audit reads the points too (its open-model rules),
// so index.html and soft.html carry their findings; that the closed-loop
// findings stay the same is parse/audit's TestPhasesLeftOutOfThroughputRules.
func TestPointsKeptApart(t *testing.T) {
	base, site := fixture(t)
	set, _ := pointsSet(t)
	without := build(t, base, site)
	with := build(t, set, site)
	for _, page := range []string{"results.html", "history.html", "scenario/query.html", "scenario/body.html", "verdicts.csv"} {
		a, b := readFile(t, filepath.Join(without, page)), readFile(t, filepath.Join(with, page))
		if a != stripRunPath(b, set, base) {
			t.Errorf("%s changed when latency and sweep points were added", page)
		}
	}
	a := readFile(t, filepath.Join(without, "scenario/ping.html"))
	b := readFile(t, filepath.Join(with, "scenario/ping.html"))
	cut := strings.Index(b, `<h2 id="open-model">`)
	if cut < 0 {
		t.Fatal("scenario/ping.html has no open-model section")
	}
	if foot := strings.Index(a, "</main>"); foot < 0 || withoutNotes(strings.TrimSuffix(a[:foot], "\n")) != withoutNotes(b[:cut]) {
		t.Error("scenario/ping.html changed above its open-model section")
	}
}

// findingMarks are a finding's badge and its chart mark.
var findingMarks = regexp.MustCompile(`<a class="badge [^"]*" href="[^"]*soft\.html#rule-[^"]*"[^>]*>[^<]*</a> ?|<a href="[^"]*soft\.html#rule-[^"]*"><circle [^\n]*</a>`)

// withoutNotes is a page without what shows findings (badges, chart marks,
// the line of findings about the scenario): its numbers.
func withoutNotes(page string) string {
	var keep []string
	for _, l := range strings.Split(page, "\n") {
		if l = findingMarks.ReplaceAllString(l, ""); l != "" && !strings.HasPrefix(l, `<p class="notes">`) {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// stripRunPath is b with the copied run's folder written as the fixture's,
// for pages that name it.
func stripRunPath(b string, set, base *parse.Set) string {
	return strings.ReplaceAll(b, set.Runs[0].Path, base.Runs[0].Path)
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var (
	svgRE    = regexp.MustCompile(`(?s)<svg class="chart linechart"[^>]*>(.*?)</svg>`)
	svgTitle = regexp.MustCompile(`<title id="[^"]*">([^<]*)</title>`)
	unitRE   = regexp.MustCompile(`<text class="axis-unit[^"]*"[^>]*>([^<]+)</text>`)
	dotRE    = regexp.MustCompile(`<circle class="(dot(?: behind)?|knee)" cx="([0-9.]+)" cy="([0-9.]+)" r="[0-9.]+"><title>([^<]*)</title>`)
)

// TestOpenSectionCharts checks the ping page's charts: p50 and p99 against
// offered load as a share of capacity and the sweep, each with units on
// both axes, a dot per repetition, the point that fell behind hollow, and
// the knee on gin's sweep at 64 connections but none on chi's.
func TestOpenSectionCharts(t *testing.T) {
	set, points := pointsSet(t)
	_, site := fixture(t)
	out := build(t, set, site)
	page := readFile(t, filepath.Join(out, "scenario/ping.html"))
	svgs := svgRE.FindAllStringSubmatch(page, -1)
	if len(svgs) != 3 {
		t.Fatalf("ping has %d line charts, want 3 (p50, p99, sweep)", len(svgs))
	}
	wantUnits := [][2]string{
		{"offered load, % of the target's own capacity (its median closed-loop req/s)", "p50 latency, ms"},
		{"offered load, % of the target's own capacity (its median closed-loop req/s)", "p99 latency, ms"},
		{"connections (log scale)", "req/s"},
	}
	var latency, sweep int
	for _, p := range points {
		if p.Phase == parse.PhaseSweep {
			sweep++
		} else {
			latency++
		}
	}
	for i, svg := range svgs {
		if svgTitle.FindStringSubmatch(svg[1]) == nil {
			t.Errorf("chart %d has no title", i)
		}
		units := unitRE.FindAllStringSubmatch(svg[1], -1)
		if len(units) != 2 || unescape(units[0][1]) != wantUnits[i][0] || unescape(units[1][1]) != wantUnits[i][1] {
			t.Errorf("chart %d: axis units %q, want %q", i, units, wantUnits[i])
		}
		var dots, behind, due int
		var knees []string
		for _, d := range dotRE.FindAllStringSubmatch(svg[1], -1) {
			if strings.Contains(unescape(d[4]), "timed from when each request was due (") {
				due++
			}
			switch d[1] {
			case "knee":
				knees = append(knees, unescape(d[4]))
			case "dot behind":
				behind++
				dots++
				if !strings.Contains(unescape(d[4]), "the load tool fell behind its schedule") {
					t.Errorf("chart %d: a hollow dot's title does not say the load tool fell behind: %q", i, d[4])
				}
			default:
				dots++
			}
		}
		want, wantBehind := latency, 1
		if i == 2 {
			want, wantBehind = sweep, 0
		}
		if dots != want || behind != wantBehind {
			t.Errorf("chart %d: %d dots (%d hollow), want %d (%d hollow)", i, dots, behind, want, wantBehind)
		}
		// the two points with a p99 timed from the schedule are plotted at it
		if wantDue := map[bool]int{true: 2}[i == 1]; due != wantDue {
			t.Errorf("chart %d: %d dots timed from the schedule, want %d", i, due, wantDue)
		}
		if i == 2 && (len(knees) != 1 || !strings.HasPrefix(knees[0], "gin: knee at 64;")) {
			t.Errorf("sweep chart knees %q, want gin's at 64 only", knees)
		}
		if i < 2 && len(knees) != 0 {
			t.Errorf("chart %d has knees %q", i, knees)
		}
	}
	for _, want := range []string{"gin: knee at 64 connections", "chi: no knee on 3 counts of connections", "1 latency point of 16 fell behind the schedule"} {
		if !strings.Contains(unescape(page), want) {
			t.Errorf("ping page does not say %q", want)
		}
	}
}

// TestOpenSectionMedianLine checks the line through the medians: at 90%
// of its capacity gin's p50 line goes through the repetition that kept to
// its schedule, not through a median with the one that fell behind.
func TestOpenSectionMedianLine(t *testing.T) {
	spec := LineSpec{ID: "t", XUnit: "x", YUnit: "y", XMax: 100}
	c := NewLineChart(spec, []LineInput{{Name: "a", Knee: math.NaN(), Points: []PointInput{
		{X: 50, Y: 1}, {X: 50, Y: 3}, {X: 90, Y: 2}, {X: 90, Y: 10, Behind: true},
	}}})
	s := c.Series[0]
	// At x=50 the line goes through 2, the median of 1 and 3, and at 90
	// through 2, leaving out the 10 that fell behind.
	want := fmt.Sprintf("M%g %g", s.Dots[0].X, c.Bottom-(c.Bottom-c.Top)*0.2) + fmt.Sprintf("L%g %g", s.Dots[2].X, s.Dots[2].Y)
	if s.D != want {
		t.Errorf("median line %q, want %q", s.D, want)
	}
}

func unescape(s string) string {
	return strings.NewReplacer("&#39;", "'", "&amp;", "&", "&lt;", "<", "&gt;", ">", "&#34;", `"`).Replace(s)
}

// TestTargetPagePoints checks that a target page lists every one of its
// points, each with its dump, that the point that fell behind says so, and
// that the one the target held says that.
func TestTargetPagePoints(t *testing.T) {
	set, points := pointsSet(t)
	_, site := fixture(t)
	out := build(t, set, site)
	for _, target := range []string{"gin", "chi", "stdlib"} {
		page := readFile(t, filepath.Join(out, "target", target+".html"))
		want := 0
		for _, p := range points {
			if p.Target == target {
				want++
				rel, _ := filepath.Rel(filepath.Dir(filepath.Dir(p.Source.File)), p.Source.File)
				if !strings.Contains(page, filepath.Base(p.Source.File)+":1</a>") || !strings.Contains(page, filepath.ToSlash(rel)) {
					t.Errorf("target/%s.html does not link the dump %s", target, rel)
				}
			}
		}
		tm := regexp.MustCompile(`(?s)<table class="sortable points">.*?<tbody>(.*?)</tbody>`).FindStringSubmatch(page)
		if tm == nil {
			t.Errorf("target/%s.html has no points table", target)
			continue
		}
		if got := strings.Count(tm[1], "<tr"); got != want {
			t.Errorf("target/%s.html lists %d points, want %d", target, got, want)
		}
		if behind := strings.Count(tm[1], "client fell behind"); target == "gin" && behind != 1 || target != "gin" && behind != 0 {
			t.Errorf("target/%s.html marks %d points behind", target, behind)
		}
		if held := strings.Count(tm[1], "target held the workers"); target == "stdlib" && held != 1 || target != "stdlib" && held != 0 {
			t.Errorf("target/%s.html marks %d points held by the target", target, held)
		}
	}
}

// TestPointExports checks that results.json and results.csv carry every
// point with its phase, offered rate, share of capacity, send rate,
// achieved req/s, success, percentiles and dump, and that the closed-loop
// rows and cells are those of the run without points.
func TestPointExports(t *testing.T) {
	set, points := pointsSet(t)
	_, site := fixture(t)
	out := build(t, set, site)
	var doc resultsDoc
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(out, "results.json"))), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Points) != len(points) {
		t.Fatalf("results.json has %d points, want %d", len(doc.Points), len(points))
	}
	for _, c := range doc.Cells {
		if c.N != 5 || len(c.Reps) != 5 {
			t.Errorf("cell %s/%s has %d repetitions, want the 5 closed-loop ones", c.Scenario, c.Name, len(c.Reps))
		}
	}
	type key struct {
		target, phase string
		rate          float64
		conns, rep    int
	}
	want := map[key]*parse.Measurement{}
	for _, p := range points {
		want[key{p.Target, p.Phase, p.Rate, p.Connections, p.Rep}] = p
	}
	for _, got := range doc.Points {
		rate := 0.0
		if got.OfferedRPS != nil {
			rate = *got.OfferedRPS
		}
		conns := 0
		if got.Connections != nil {
			conns = *got.Connections
		}
		p := want[key{got.Target, got.Phase, rate, conns, got.Rep}]
		if p == nil {
			t.Errorf("results.json has a point no measurement made: %+v", got)
			continue
		}
		p50, _ := percentileOf(p, 50)
		if got.RPS != p.Throughput() || (got.P50S == nil) != (p.Phase == parse.PhaseSweep) || got.P50S != nil && *got.P50S != p50.Seconds() {
			t.Errorf("point %+v: rps %g p50 %v, want %g %v", got, got.RPS, got.P50S, p.Throughput(), p50)
		}
		if p.Phase == parse.PhaseLatency && (got.Fraction == nil || *got.Fraction != p.Open.Fraction || *got.SendRPS != p.Open.SendRate || got.Success == nil) {
			t.Errorf("point %+v: fraction, send rate or success missing", got)
		}
		if due, ok := p.Open.FromSchedule.Percentile(99); ok != (got.P99DueS != nil) || ok && *got.P99DueS != due.Seconds() {
			t.Errorf("point %+v: p99 from the schedule %v, want %v", got, got.P99DueS, due)
		}
		if got.FellBehind != audit.ClientFellBehind(p) {
			t.Errorf("point %+v: fell_behind %q", got, got.FellBehind)
		}
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(got.Href))); got.Href == "" || err != nil {
			t.Errorf("point %+v: dump %q not in the site", got, got.Href)
		}
		delete(want, key{got.Target, got.Phase, rate, conns, got.Rep})
	}
	rows, err := csv.NewReader(strings.NewReader(readFile(t, filepath.Join(out, "results.csv")))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	phase := slices.Index(rows[0], "phase")
	byPhase := map[string]int{}
	for _, r := range rows[1:] {
		if len(r) != len(rows[0]) {
			t.Fatalf("results.csv row of %d fields under %d headings", len(r), len(rows[0]))
		}
		byPhase[r[phase]]++
	}
	if byPhase[""] != 45 || byPhase["latency"] != 16 || byPhase["sweep"] != 14 {
		t.Errorf("results.csv rows by phase %v, want 45 closed-loop, 16 latency, 14 sweep", byPhase)
	}
}

// TestOlderRunPoints checks that the points of a run not on show reach
// results.json and results.csv, read back from the spool, and no page: a
// newer run of the same suite, without points, is on show.
func TestOlderRunPoints(t *testing.T) {
	set, points := pointsSet(t)
	_, site := fixture(t)
	old := set.Runs[0]
	newer := *old
	newer.ID, newer.Start = old.ID+"-later", old.Start.Add(time.Hour)
	set.Runs = append(set.Runs, &newer)
	for _, m := range closedOnly(set.Measurements) {
		if m.Run == old.ID && !m.Warmup {
			c := *m
			c.Run = newer.ID
			set.Measurements = append(set.Measurements, &c)
		}
	}
	out := build(t, set, site)
	var doc resultsDoc
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(out, "results.json"))), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.PrimaryRun != newer.ID {
		t.Fatalf("run on show %s, want %s", doc.PrimaryRun, newer.ID)
	}
	if len(doc.Points) != len(points) {
		t.Errorf("results.json has %d points, want the older run's %d", len(doc.Points), len(points))
	}
	for _, p := range doc.Points {
		if p.Run != old.ID {
			t.Errorf("point of run %q, want %q", p.Run, old.ID)
		}
	}
	if strings.Contains(readFile(t, filepath.Join(out, "scenario/ping.html")), `id="open-model"`) {
		t.Error("the ping page shows the older run's points")
	}
}

// TestWrk2Points checks that real wrk2 dumps read alone (one with its -R
// command line before it, in a post, and two without) are latency points,
// not closed-loop cells, and get pages: a page per target listing its
// point, and the scenario's charts where the offered rate is known.
func TestWrk2Points(t *testing.T) {
	paths := []string{
		filepath.Join("..", "parse", "testdata", "wrk2-4.0.0-giltene-44a94c1__latency_R1000.txt"),
		filepath.Join("..", "parse", "testdata", "wrk2-4.0.0-giltene-44a94c1__basic_R1000.txt"),
		filepath.Join("..", "parse", "testdata", "post-wrk2-4.0.0__fenced_prompt.md"),
	}
	set, errs := parse.ReadAll(paths)
	if len(errs) > 0 || len(set.Measurements) == 0 {
		t.Fatal(errs, set)
	}
	var rated int
	for _, m := range set.Measurements {
		if m.Phase != parse.PhaseLatency {
			t.Errorf("%s: phase %q, want latency", m.Source.File, m.Phase)
		}
		if m.Rate > 0 {
			rated++
		}
	}
	out := build(t, set, nil)
	var doc resultsDoc
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(out, "results.json"))), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Cells) != 0 || len(doc.Points) != len(set.Measurements) {
		t.Errorf("results.json has %d cells and %d points, want 0 and %d", len(doc.Cells), len(doc.Points), len(set.Measurements))
	}
	for _, p := range doc.Points {
		page := readFile(t, filepath.Join(out, "target", slug(p.Name)+".html"))
		// results.json names the published copy, which has ".txt" added
		// unless it ends .txt (inertName); the page names the dump.
		if !strings.Contains(page, `<table class="sortable points">`) || !strings.Contains(page, strings.TrimSuffix(filepath.Base(p.Source.File), ".txt")) {
			t.Errorf("target page of %s does not list its point", p.Name)
		}
	}
	scen, _ := filepath.Glob(filepath.Join(out, "scenario", "*.html"))
	charts := 0
	index := readFile(t, filepath.Join(out, "index.html"))
	for _, f := range scen {
		charts += len(svgRE.FindAllString(readFile(t, f), -1))
		if !strings.Contains(index, `href="scenario/`+filepath.Base(f)+`"`) {
			t.Errorf("index.html does not link %s", f)
		}
	}
	if len(scen) == 0 {
		t.Error("no scenario page for the wrk2 points")
	}
	if want := map[bool]int{true: 2, false: 0}[rated > 0]; charts != want {
		t.Errorf("%d line charts for wrk2 points of which %d said their rate, want %d", charts, rated, want)
	}
	t.Logf("%d wrk2 points, %d with their offered rate", len(set.Measurements), rated)
}

// phaseRun is a real run with both phases, collected on this machine with
// the latency collector (h/latency-collect at 997b1bf, suite.toml in it):
// stdlib and gin on ping, two closed-loop repetitions, vegeta at 25, 50
// and 90% of each one's capacity and bombardier at 1, 8, 64 and 256
// connections, two repetitions each. The machine was shared with other
// builds: every latency point fell behind its schedule (behind_s 0.17 to
// 0.94 s), which the pages must say.
const phaseRun = "testdata/phaserun/20261201T130147Z-vm"

// TestRealPhaseRun renders the real phase run: the closed-loop cells hold
// their two repetitions only, each target's capacity in run.json is its
// cell's median as the site shows it, every point is in results.json with
// its dump in the site, and the ping page draws all twelve latency points
// hollow where the audit says the client fell behind (nine of them: the
// three that sent within 2% of the rate and went out later than their
// own p99 by less than it are the target's latency, by the audit's rule
// for a run without the schedule's tail), and a knee on each sweep.
func TestRealPhaseRun(t *testing.T) {
	set, errs := parse.ReadAll([]string{phaseRun})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	out := build(t, set, nil)
	var doc resultsDoc
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(out, "results.json"))), &doc); err != nil {
		t.Fatal(err)
	}
	median := map[string]float64{}
	for _, c := range doc.Cells {
		if c.N != 2 || c.Median == nil {
			t.Errorf("cell %s has %d repetitions, want its 2 closed-loop ones", c.Name, c.N)
			continue
		}
		median[c.Name] = *c.Median
	}
	phases := map[string]int{}
	for _, p := range doc.Points {
		phases[p.Phase]++
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(p.Href))); p.Href == "" || err != nil {
			t.Errorf("point %s %s rep %d: dump %q not in the site", p.Name, p.Phase, p.Rep, p.Href)
		}
		if p.Phase == parse.PhaseLatency && (p.CapacityRPS == nil || math.Abs(*p.CapacityRPS-median[p.Name]) > 1e-6*median[p.Name]) {
			t.Errorf("latency point %s rep %d at %v: capacity %v, the cell's median %g; fell behind %q", p.Name, p.Rep, p.Fraction, p.CapacityRPS, median[p.Name], p.FellBehind)
		}
	}
	behind := 0
	for _, m := range set.Measurements {
		if !m.Warmup && audit.ClientFellBehind(m) != "" {
			behind++
		}
	}
	if behind != 9 {
		t.Errorf("the audit calls %d of the 12 points the client's failure, want 9", behind)
	}
	if phases[parse.PhaseLatency] != 12 || phases[parse.PhaseSweep] != 16 || len(doc.Cells) != 2 {
		t.Errorf("results.json: %d cells, points by phase %v; want 2 cells, 12 latency and 16 sweep points", len(doc.Cells), phases)
	}
	page := readFile(t, filepath.Join(out, "scenario", "ping.html"))
	svgs := svgRE.FindAllStringSubmatch(page, -1)
	if len(svgs) != 3 {
		t.Fatalf("ping has %d line charts, want 3", len(svgs))
	}
	for i, svg := range svgs {
		var dots, hollow, knees int
		for _, d := range dotRE.FindAllStringSubmatch(svg[1], -1) {
			switch d[1] {
			case "knee":
				knees++
			case "dot behind":
				hollow++
				dots++
			default:
				dots++
			}
		}
		want := [3]int{12, behind, 0}
		if i == 2 {
			want = [3]int{16, 0, 2}
		}
		if got := [3]int{dots, hollow, knees}; got != want {
			t.Errorf("chart %d: dots, hollow, knees %v, want %v", i, got, want)
		}
	}
	if want := fmt.Sprintf("%d latency points of 12 fell behind the schedule", behind); !strings.Contains(page, want) {
		t.Errorf("the ping page does not say %q", want)
	}
}

// TestPointsPageSplit: on the project's site a scenario with more than
// maxInlinePoints latency and sweep points lists them on a page of their
// own, linked from the scenario page with their count, every row with its
// dump, and the scenario page stays under 400 KB.
func TestPointsPageSplit(t *testing.T) {
	page := projectPage(t, "scenario/plaintext.html")
	m := regexp.MustCompile(`The (\d+) points, each repetition with its dump, are on a page of their own: <a href="\.\./scenario/points/plaintext.html">`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("scenario/plaintext.html does not link its points page")
	}
	if len(page) > 400<<10 {
		t.Errorf("scenario/plaintext.html is %d KB, want under 400", len(page)>>10)
	}
	points := projectPage(t, "scenario/points/plaintext.html")
	rows := strings.Count(points, "<tr") - strings.Count(points, "<thead><tr")
	if want, _ := strconv.Atoi(m[1]); rows != want || want <= maxInlinePoints {
		t.Errorf("points page has %d rows, the scenario page says %s (more than %d expected)", rows, m[1], maxInlinePoints)
	}
	if n := strings.Count(points, `href="../../dump/`); n < rows {
		t.Errorf("%d dump links for %d rows", n, rows)
	}
}
