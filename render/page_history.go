package render

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
)

// HistoryPage lists the runs of the primary run's suite, oldest first, with
// what changed in the environment from one run to the next.
type HistoryPage struct {
	Page
	Suite     string
	Runs      []HistoryRun
	Scenarios []Link
	Single    bool
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
	Metric string
	Runs   []HistoryColumn
	Rows   []HistoryRow
}

// HistoryColumn heads a run's column; Changed marks an environment change.
type HistoryColumn struct {
	ID, Short, Title string
	Changed          bool
}

// HistoryRow is one target across runs.
type HistoryRow struct {
	Target Link
	Cells  []Num
	Spark  Sparkline
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

func (m *model) history() history {
	var h history
	if m.runInfo == nil {
		return h
	}
	h.suite = m.historySuite()
	for _, i := range m.in.runOrder() {
		if r := &m.in.runs[i]; r.env.suite == h.suite {
			h.runs = append(h.runs, r)
			h.index = append(h.index, i)
		}
	}
	for i, r := range h.runs {
		if i == 0 {
			h.changes = append(h.changes, nil)
			continue
		}
		h.changes = append(h.changes, envChanges(h.runs[i-1], r))
	}
	return h
}

// historySuite is the suite History follows: the newest run's where it has
// two runs or more; else the suite with the most runs in the site (the
// newest of them on a tie), so that a site of several suites, whose newest
// run is a suite's first, still shows the change of one that continues.
func (m *model) historySuite() string {
	primary := m.runInfo.Suite
	count, newest := map[string]int{}, map[string]int{} // suite → runs, the place of its newest
	for k, i := range m.in.runOrder() {
		s := m.in.runs[i].env.suite
		count[s]++
		newest[s] = k
	}
	if count[primary] >= 2 {
		return primary
	}
	best := primary
	for s, n := range count {
		if n > count[best] || n == count[best] && n > 1 && newest[s] > newest[best] {
			best = s
		}
	}
	return best
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

func (m *model) historyPage(h history) *HistoryPage {
	p := &HistoryPage{}
	p.Page = m.newPage("history", "history.html", "History")
	p.Single = len(h.runs) < 2
	p.Suite = h.suite
	for i, r := range h.runs {
		host := r.env.host
		p.Runs = append(p.Runs, HistoryRun{
			ID: r.id, Start: r.start.UTC().Format("2006-01-02 15:04"),
			Host:    strings.TrimSpace(fmt.Sprintf("%s, %d threads, %s", host.CPUModel, host.Threads, host.Kernel)),
			Changes: h.changes[i], Primary: m.primary[r.id],
		})
	}
	if !p.Single {
		for _, s := range m.scenarios {
			p.Scenarios = append(p.Scenarios, Link{Href: "history/" + m.links.scenario[s] + ".html", Text: s})
		}
	}
	return p
}

// historyScenarioPage reads each run's history statistics back from the
// spool once, for every row.
func (m *model) historyScenarioPage(h history, s string) (*HistoryScenarioPage, error) {
	p := &HistoryScenarioPage{Name: s, Metric: m.metric.String()}
	p.Page = m.newPage("history-scenario", "history/"+m.links.scenario[s]+".html", s+" across runs")
	for i, r := range h.runs {
		col := HistoryColumn{ID: r.id, Short: r.start.UTC().Format("01-02"), Title: r.id, Changed: len(h.changes[i]) > 0}
		if col.Changed {
			col.Title += ": " + strings.Join(h.changes[i], "; ")
		}
		p.Runs = append(p.Runs, col)
	}
	rowsOf := map[int32][]int{} // cell → the rows that show it
	stats := make([][]histStat, len(m.names))
	p.Rows = make([]HistoryRow, len(m.names))
	for k, name := range m.names {
		row := HistoryRow{Target: Link{Href: p.href(m.links.Target(name)), Text: name}, Cells: make([]Num, len(h.index))}
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
				p.Rows[k].Cells[j], stats[k][j] = statNum(e.stat.stat(), ""), e.stat
			}
		}
	}
	for k := range p.Rows {
		p.Rows[k].Spark = sparkline(stats[k])
	}
	return p, nil
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
