package render

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	runhist "github.com/fairbench/fairbench/parse/history"
)

// HistoryPage lists the runs of every suite in the site, oldest first, with
// what changed in the environment from one run to the next; a suite of two
// runs or more links a page per scenario across its runs.
type HistoryPage struct {
	Page
	Suites []HistorySuite
	Single bool // no suite has two runs
}

// HistorySuite is one suite's runs, and its scenarios across them.
type HistorySuite struct {
	Suite, ID string // ID anchors the suite's section
	Runs      []HistoryRun
	Scenarios []Link // "" when the suite has one run
	// Steps are the changes found across the suite's runs (parse/history:
	// each target's level read against its run's twins, split where the
	// comparability key changes), Breaks where it changed, and Control
	// what the same search found on the twins' own series, which can
	// only be false alarms.
	Steps   []HistoryStep
	Breaks  []string
	Control string
	// Key is what makes the suite's latest run comparable with the runs
	// before it (parse/history's comparability key), field by field.
	Key []runhist.Field
}

// HistoryStep is one change: a target in a scenario, from the run named
// on, by a ratio with its interval.
type HistoryStep struct {
	Target, Scenario, Run string
	Ratio, Interval       string
	Why                   string // what else changed between the two runs
}

// HistoryRun is one run and the environment changes since the one before.
type HistoryRun struct {
	ID, Start, Host string
	Changes         []string
	Primary         bool
}

// HistoryScenarioPage is one scenario across runs: a row per target with
// the median and interval of each run and a small line of the medians.
type HistoryScenarioPage struct {
	Page
	Name   string
	Suite  string
	Metric string
	Runs   []HistoryColumn
	Rows   []HistoryRow
	// Older counts the runs before the columns shown: they are in each
	// row's trend line only. Steps are the changes found in this
	// scenario; their rows come first.
	Older int
	Steps []HistoryStep
}

// historyShown is the most runs a scenario page gives a column: a hundred
// runs would make a table no one reads, while the trend line shows them
// all.
const historyShown = 12

// HistoryColumn heads a run's column; Changed marks an environment change.
type HistoryColumn struct {
	ID, Short, Title string
	Changed          bool
}

// HistoryRow is one target across runs.
type HistoryRow struct {
	Target  Link
	Cells   []Num
	Spark   Sparkline
	Stepped bool // a step was found in this target's line
}

// Sparkline is a tiny SVG of medians across runs with the intervals.
type Sparkline struct {
	Width, Height float64
	Line          string // polyline points
	Bars          []SparkBar
}

// SparkBar is one run's interval in a sparkline.
type SparkBar struct{ X, Y1, Y2 float64 }

// history is the runs of one suite, oldest first.
type history struct {
	suite   string
	runs    []*runFacts
	index   []int // each run's place in Input.runs
	changes [][]string
}

// histories are the runs of every suite in the site, a history per suite
// in the order of the suites' names; nil without run.json facts.
func (m *model) histories() []history {
	if m.runInfo == nil {
		return nil
	}
	bySuite := map[string]*history{}
	for _, i := range m.in.runOrder() {
		r := &m.in.runs[i]
		h := bySuite[r.env.suite]
		if h == nil {
			h = &history{suite: r.env.suite}
			bySuite[r.env.suite] = h
		}
		h.runs = append(h.runs, r)
		h.index = append(h.index, i)
	}
	var out []history
	for _, suite := range slices.Sorted(maps.Keys(bySuite)) {
		h := *bySuite[suite]
		for i, r := range h.runs {
			if i == 0 {
				h.changes = append(h.changes, nil)
				continue
			}
			h.changes = append(h.changes, envChanges(h.runs[i-1], r))
		}
		out = append(out, h)
	}
	return out
}

// historyPath is the page of scenario s across the runs of suite.
func (m *model) historyPath(suite, s string) string {
	return "history/" + slug(nonEmpty(suite, "runs")[0]) + "/" + m.links.scenario[s] + ".html"
}

// envChanges says what differs between two runs' environments.
func envChanges(ra, rb *runFacts) []string {
	a, b := ra.env, rb.env
	if a == b {
		return nil
	}
	var out []string
	diff := func(what, x, y string) {
		if x != y {
			out = append(out, fmt.Sprintf("%s: %s → %s", what, orNone(x), orNone(y)))
		}
	}
	ha, hb := a.host, b.host
	diff("CPU", ha.CPUModel, hb.CPUModel)
	diff("cores/threads", fmt.Sprintf("%d/%d", ha.Cores, ha.Threads), fmt.Sprintf("%d/%d", hb.Cores, hb.Threads))
	diff("memory", Bytes(ha.MemoryBytes), Bytes(hb.MemoryBytes))
	diff("OS", ha.OS, hb.OS)
	diff("kernel", ha.Kernel, hb.Kernel)
	diff("governor", ha.Governor, hb.Governor)
	diff("CPU topology", topologySummary(ha), topologySummary(hb))
	diff("suite", shortHash(a.suiteSHA256), shortHash(b.suiteSHA256))
	diff("server CPUs", a.serverCPUs, b.serverCPUs)
	diff("client CPUs", a.clientCPUs, b.clientCPUs)
	tools := map[string]bool{}
	for k := range a.tools {
		tools[k] = true
	}
	for k := range b.tools {
		tools[k] = true
	}
	for _, k := range slices.Sorted(maps.Keys(tools)) {
		diff(k, a.tools[k], b.tools[k])
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func shortHash(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

// historyPage lists every suite's runs; scenarios[i] are the scenarios
// hs[i] has across runs (nil for a suite of one run), found[i] what
// parse/history found across them and keys[i] its latest run's key.
func (m *model) historyPage(hs []history, scenarios [][]string, found []runhist.Steps, keys []runhist.Key) *HistoryPage {
	p := &HistoryPage{Single: true}
	p.Page = m.newPage("history", "history.html", "History")
	for k, h := range hs {
		hp := HistorySuite{Suite: h.suite, ID: "suite-" + slug(nonEmpty(h.suite, "runs")[0]), Key: keys[k]}
		for i, r := range h.runs {
			host := r.env.host
			hp.Runs = append(hp.Runs, HistoryRun{
				ID: r.id, Start: r.start.UTC().Format("2006-01-02 15:04"),
				Host:    strings.TrimSpace(fmt.Sprintf("%s, %d threads, %s", host.CPUModel, host.Threads, host.Kernel)),
				Changes: h.changes[i], Primary: m.primary[r.id],
			})
		}
		if len(h.runs) > 1 {
			p.Single = false
			for _, s := range scenarios[k] {
				hp.Scenarios = append(hp.Scenarios, Link{Href: m.historyPath(h.suite, s), Text: s})
			}
			historySteps(&hp, found[k])
		}
		p.Suites = append(p.Suites, hp)
	}
	// Suites that continue come first: they are what the page is for.
	slices.SortStableFunc(p.Suites, func(a, b HistorySuite) int { return cmp.Compare(min(len(b.Runs), 2), min(len(a.Runs), 2)) })
	return p
}

// historyScenarioPage reads each run's history statistics back from the
// spool once, for every row. The latest historyShown runs get a column,
// every run a point of the trend line; the targets st found a step for
// in s come first.
func (m *model) historyScenarioPage(h history, s string, st runhist.Steps) (*HistoryScenarioPage, error) {
	p := &HistoryScenarioPage{Name: s, Suite: h.suite, Metric: m.metric.String()}
	p.Page = m.newPage("history-scenario", m.historyPath(h.suite, s), s+" across runs of "+nonEmpty(h.suite, "one suite")[0])
	first := max(0, len(h.runs)-historyShown)
	p.Older = first
	for i, r := range h.runs[first:] {
		col := HistoryColumn{ID: r.id, Short: r.start.UTC().Format("01-02 15:04"), Title: r.id, Changed: len(h.changes[first+i]) > 0}
		if col.Changed {
			col.Title += ": " + strings.Join(h.changes[first+i], "; ")
		}
		p.Runs = append(p.Runs, col)
	}
	stepped := map[[2]string]bool{} // target, runtime
	for _, c := range st.Changes {
		if c.Scenario == s {
			stepped[[2]string{c.Target, c.Runtime}] = true
			p.Steps = append(p.Steps, historyStep(c))
		}
	}
	rowsOf := map[int32][]int{} // cell → the rows that show it
	stats := make([][]histStat, len(m.names))
	p.Rows = make([]HistoryRow, len(m.names))
	for k, name := range m.names {
		row := HistoryRow{Target: Link{Href: p.href(m.links.Target(name)), Text: name}, Cells: make([]Num, len(h.index)-first),
			Stepped: stepped[[2]string{m.targetOf(name), m.runtimeOf(name)}]}
		for j := range row.Cells {
			row.Cells[j] = Num{Text: "–"}
		}
		p.Rows[k], stats[k] = row, make([]histStat, len(h.index))
		if c, ok := m.in.cellOf(s, m.targetOf(name), m.runtimeOf(name)); ok {
			rowsOf[c] = append(rowsOf[c], k)
		}
	}
	var buf []histEntry
	for j, i := range h.index {
		var err error
		if buf, err = m.in.histOf(i, buf); err != nil {
			return nil, err
		}
		for _, e := range buf {
			for _, k := range rowsOf[e.cell] {
				stats[k][j] = e.stat
				if j >= first {
					p.Rows[k].Cells[j-first] = statNum(e.stat.stat(), "")
				}
			}
		}
	}
	for k := range p.Rows {
		p.Rows[k].Spark = sparkline(stats[k])
	}
	// A target none of the suite's runs measured here has no row.
	var rows []HistoryRow
	for k, row := range p.Rows {
		if slices.ContainsFunc(stats[k], func(st histStat) bool { return st.N > 0 }) {
			rows = append(rows, row)
		}
	}
	// Lines that stepped are what the page is for: they come first.
	slices.SortStableFunc(rows, func(a, b HistoryRow) int { return cmp.Compare(b2i(b.Stepped), b2i(a.Stepped)) })
	p.Rows = rows
	return p, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// historyScenarios are the scenarios of the site that some run of h
// measured, in the site's order.
func (m *model) historyScenarios(h history) ([]string, error) {
	measured := map[int32]bool{}
	var buf []histEntry
	for _, i := range h.index {
		var err error
		if buf, err = m.in.histOf(i, buf); err != nil {
			return nil, err
		}
		for _, e := range buf {
			if e.stat.N > 0 {
				measured[e.cell] = true
			}
		}
	}
	var out []string
	for _, s := range m.scenarios {
		if slices.ContainsFunc(m.names, func(name string) bool {
			c, ok := m.in.cellOf(s, m.targetOf(name), m.runtimeOf(name))
			return ok && measured[c]
		}) {
			out = append(out, s)
		}
	}
	return out, nil
}

// sparkline draws medians across runs from zero, with interval ticks.
func sparkline(stats []histStat) Sparkline {
	const w, h = 120.0, 24.0
	sp := Sparkline{Width: w, Height: h}
	top := 0.0
	for _, s := range stats {
		lo, hi, _ := interval(s.stat())
		_ = lo
		top = maxFinite(top, s.Median, hi)
	}
	if top <= 0 || len(stats) == 0 {
		return sp
	}
	step := w / float64(max(1, len(stats)-1))
	y := func(v float64) float64 { return round1(h - 2 - (h-4)*v/top) }
	var pts []string
	for i, s := range stats {
		if s.N == 0 || math.IsNaN(s.Median) {
			continue
		}
		x := round1(float64(i) * step)
		if len(stats) == 1 {
			x = w / 2
		}
		pts = append(pts, fmt.Sprintf("%g,%g", x, y(s.Median)))
		if lo, hi, label := interval(s.stat()); label != "" && s.N > 1 {
			sp.Bars = append(sp.Bars, SparkBar{X: x, Y1: y(hi), Y2: y(lo)})
		}
	}
	sp.Line = strings.Join(pts, " ")
	return sp
}

// writeHistory writes History and, for every suite of two runs or more,
// a page per scenario across its runs.
func (m *model) writeHistory(put func(interface{ page() Page }, error) error) error {
	hs := m.histories()
	entries := m.in.histories()
	steps := m.in.found()
	scenarios := make([][]string, len(hs))
	found := make([]runhist.Steps, len(hs))
	keys := make([]runhist.Key, len(hs))
	for k, h := range hs {
		found[k] = steps[h.suite]
		if e := entries[h.suite]; len(e) > 0 {
			keys[k] = e[len(e)-1].Key
		}
		if len(h.runs) < 2 {
			continue
		}
		var err error
		if scenarios[k], err = m.historyScenarios(h); err != nil {
			return err
		}
	}
	if err := put(m.historyPage(hs, scenarios, found, keys), nil); err != nil {
		return err
	}
	for k, h := range hs {
		for _, s := range scenarios[k] {
			if err := put(m.historyScenarioPage(h, s, found[k])); err != nil {
				return err
			}
		}
	}
	return nil
}

// historySteps puts on hp what parse/history found across its suite's
// runs: the steps, the breaks and the twins' control; nothing where the
// suite was not searched (st is the zero Steps).
func historySteps(hp *HistorySuite, st runhist.Steps) {
	if st.Changes == nil {
		return
	}
	for _, c := range st.Changes {
		hp.Steps = append(hp.Steps, historyStep(c))
	}
	for _, b := range st.Breaks {
		hp.Breaks = append(hp.Breaks, fmt.Sprintf("before run %s: %s", b.Run, strings.Join(b.Why, "; ")))
	}
	hp.Control = fmt.Sprintf("%d series searched; on the twins' own series, where any step is a false alarm, %d found.", st.Series, st.TwinAlarms)
}

// historyStep is c as History shows it.
func historyStep(c runhist.Change) HistoryStep {
	return HistoryStep{Target: c.Target, Scenario: c.Scenario, Run: c.Run,
		Ratio: Ratio(c.Ratio), Interval: trimX(Ratio(c.Low)) + "–" + Ratio(c.High), Why: strings.Join(c.Why, "; ")}
}
