package render

import (
	"fmt"
	"math"
	"strings"

	"github.com/fairbench/fairbench/parse"
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
	runs    []*parse.Run
	index   []int // each run's place in Input.runs
	changes [][]string
}

func (m *model) history() history {
	var h history
	if m.runInfo == nil {
		return h
	}
	for _, i := range m.in.runOrder() {
		if r := m.in.runs[i]; r.Suite == m.runInfo.Suite {
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

// envChanges says what differs between two runs' environments.
func envChanges(a, b *parse.Run) []string {
	var out []string
	diff := func(what, x, y string) {
		if x != y {
			out = append(out, fmt.Sprintf("%s: %s → %s", what, orNone(x), orNone(y)))
		}
	}
	ha, hb := a.Host, b.Host
	diff("CPU", ha.CPUModel, hb.CPUModel)
	diff("cores/threads", fmt.Sprintf("%d/%d", ha.Cores, ha.Threads), fmt.Sprintf("%d/%d", hb.Cores, hb.Threads))
	diff("memory", Bytes(ha.MemoryBytes), Bytes(hb.MemoryBytes))
	diff("OS", ha.OS, hb.OS)
	diff("kernel", ha.Kernel, hb.Kernel)
	diff("governor", ha.Governor, hb.Governor)
	diff("suite", shortHash(a.SuiteSHA256), shortHash(b.SuiteSHA256))
	diff("server CPUs", a.Isolation.ServerCPUs, b.Isolation.ServerCPUs)
	diff("client CPUs", a.Isolation.ClientCPUs, b.Isolation.ClientCPUs)
	tools := map[string]bool{}
	for k := range a.Tools {
		tools[k] = true
	}
	for k := range b.Tools {
		tools[k] = true
	}
	for _, k := range sortedKeys(tools) {
		diff(k, a.Tools[k].Version, b.Tools[k].Version)
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
	if m.runInfo != nil {
		p.Suite = m.runInfo.Suite
	}
	for i, r := range h.runs {
		p.Runs = append(p.Runs, HistoryRun{
			ID: r.ID, Start: r.Start.UTC().Format("2006-01-02 15:04"),
			Host:    strings.TrimSpace(fmt.Sprintf("%s, %d threads, %s", r.Host.CPUModel, r.Host.Threads, r.Host.Kernel)),
			Changes: h.changes[i], Primary: m.primary[r.ID],
		})
	}
	if !p.Single {
		for _, s := range m.scenarios {
			p.Scenarios = append(p.Scenarios, Link{Href: "history/" + m.links.scenario[s] + ".html", Text: s})
		}
	}
	return p
}

func (m *model) historyScenarioPage(h history, s string) *HistoryScenarioPage {
	p := &HistoryScenarioPage{Name: s, Metric: m.metric.String()}
	p.Page = m.newPage("history-scenario", "history/"+m.links.scenario[s]+".html", s+" across runs")
	for i, r := range h.runs {
		col := HistoryColumn{ID: r.ID, Short: r.Start.UTC().Format("01-02"), Title: r.ID, Changed: len(h.changes[i]) > 0}
		if col.Changed {
			col.Title += ": " + strings.Join(h.changes[i], "; ")
		}
		p.Runs = append(p.Runs, col)
	}
	for _, name := range m.names {
		row := HistoryRow{Target: Link{Href: p.href(m.links.Target(name)), Text: name}}
		var stats []parse.Stat
		target, runtime := m.targetOf(name), m.runtimeOf(name)
		for _, i := range h.index {
			st, ok := m.in.histOf(i, s, target, runtime)
			if !ok {
				row.Cells = append(row.Cells, Num{Text: "–"})
				stats = append(stats, parse.Stat{})
				continue
			}
			n := statNum(st, "")
			row.Cells = append(row.Cells, n)
			stats = append(stats, st)
		}
		row.Spark = sparkline(stats)
		p.Rows = append(p.Rows, row)
	}
	return p
}

// sparkline draws medians across runs from zero, with interval ticks.
func sparkline(stats []parse.Stat) Sparkline {
	const w, h = 120.0, 24.0
	sp := Sparkline{Width: w, Height: h}
	top := 0.0
	for _, s := range stats {
		lo, hi, _ := interval(s)
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
		if lo, hi, label := interval(s); label != "" && s.N > 1 {
			sp.Bars = append(sp.Bars, SparkBar{X: x, Y1: y(hi), Y2: y(lo)})
		}
	}
	sp.Line = strings.Join(pts, " ")
	return sp
}
