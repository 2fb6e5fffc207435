package render

import (
	"fmt"
	"math"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/fairbench/fairbench/parse/audit"
)

// ScenarioPage is one scenario: chart, table, latency percentiles.
type ScenarioPage struct {
	Page
	Name     string
	Request  string // "GET /id/1?name=bun"
	Load     string // "bombardier, 32 connections, 10 s window, 5 repetitions"
	Metric   string
	Chart    BarChart
	Notes    []Badge // findings about the scenario as a whole
	Rows     []ScenarioRow
	PCols    []string // latency percentile headings
	PRows    []PercentileRow
	Closed   bool // some latency is closed-loop (coordinated omission)
	Fastest  string
	TierNote string
}

// ScenarioRow is one target in the scenario table.
type ScenarioRow struct {
	Target   Link
	Runtime  string
	Tier     Num
	Median   Num
	Interval string
	Good     Num
	Delta    Num
	P50, P99 Num
	Errors   Num
	N        Num
	Badges   []Badge
}

// PercentileRow is one target's latency percentiles: the median across
// repetitions of each percentile the tool printed.
type PercentileRow struct {
	Target Link
	Values []Num
}

func (m *model) scenarioPage(s string) *ScenarioPage {
	p := &ScenarioPage{Name: s, Metric: m.metric.String()}
	p.Page = m.newPage("scenario", m.links.Scenario(s), s)
	p.Script = true
	cs := m.scenarioCells(s)
	p.Request, p.Load = describeLoad(cs)
	p.Notes = m.scenarioNotes(p.Page, s, cs)
	st := m.tiers[s]
	if f := st.Fastest(); f != nil {
		p.Fastest = f.Name
	}
	p.TierNote = tierNote(st, m.th)
	var bars []BarInput
	for _, c := range cs {
		p.Rows = append(p.Rows, m.scenarioRow(p.Page, c))
		bars = append(bars, m.barInput(p.Page, c))
	}
	p.Chart = NewBarChart("chart-"+m.links.scenario[s], fmt.Sprintf("%s: %s, median of repetitions", s, m.metric), bars)
	p.Chart.Desc = "Bars are medians; whiskers the interval of the median (or min–max with too few repetitions); dots single repetitions, each linking to its dump; shading groups tiers."
	p.PCols, p.PRows, p.Closed = m.percentiles(p.Page, cs)
	return p
}

// scenarioNotes are the findings about the scenario as a whole, and the
// notes (info findings) about its targets, one badge per rule with a count.
func (m *model) scenarioNotes(p Page, s string, cs []*audit.Cell) []Badge {
	notes := badges(p, m.scenarioFindings(s))
	count := map[string]int{}
	var rules []string
	for _, c := range cs {
		for _, f := range m.cellFindings(c) {
			if f.Level >= audit.LevelWarning {
				continue
			}
			if count[f.Rule] == 0 {
				rules = append(rules, f.Rule)
			}
			count[f.Rule]++
		}
	}
	for _, r := range rules {
		notes = append(notes, Badge{Class: "badge info", Text: fmt.Sprintf("%s (%d of %d targets)", r, count[r], len(cs)), Title: "info", Href: p.href("soft.html#" + ruleAnchor(r))})
	}
	return notes
}

// tierNote says how tiers were made, in one sentence.
func tierNote(st audit.ScenarioTiers, th audit.Thresholds) string {
	if len(st.Tiers) == 0 {
		return fmt.Sprintf("No target has the %d repetitions needed to rank; nothing is claimed.", th.MinReps)
	}
	return fmt.Sprintf("Targets in one tier are not told apart: each is within noise (%.0f%%) of, or not significantly different from (α=%.2f), the tier's first.", th.Noise*100, th.Alpha)
}

func (m *model) scenarioRow(p Page, c *audit.Cell) ScenarioRow {
	st := c.Stat(m.metric)
	anchor := p.href(m.links.Target(c.Name)) + "#" + m.links.scenario[c.Scenario]
	r := ScenarioRow{
		Target:  Link{Href: p.href(m.links.Target(c.Name)), Text: c.Name},
		Runtime: c.Runtime,
		Median:  statNum(st, anchor),
		Good:    Num{Text: Count(c.GoodRPS.Median)},
		N:       Num{Text: strconv.Itoa(st.N)},
		Badges:  badges(p, notable(m.cellFindings(c))),
	}
	if lo, hi, label := interval(st); label != "" {
		r.Interval = Count(lo) + "–" + Count(hi)
	}
	r.Median.Title = ""
	if rank := m.rank[c]; rank > 0 {
		r.Tier = Num{Text: strconv.Itoa(rank)}
	} else {
		r.Tier = Num{Text: "–", Sort: "999", Title: fmt.Sprintf("unranked: fewer than %d repetitions or no positive number", m.th.MinReps)}
	}
	switch cmp, ok := m.vsLeader[c]; {
	case m.leader[c.Scenario] == c:
		r.Delta = Num{Text: "leader", Sort: "1"}
	case ok:
		r.Delta = Num{Text: cmp.Delta(), Sort: strconv.FormatFloat(cmp.Ratio, 'g', 4, 64), Title: cmp.Reason}
		if cmp.Differs {
			r.Delta.Text = Percent(cmp.Ratio - 1)
		}
	}
	r.P50 = m.latencyNum(p, c, 50)
	r.P99 = m.latencyNum(p, c, 99)
	var errs int64
	for _, rep := range c.Reps {
		errs += rep.Errors.Total() + rep.Status.C4xx + rep.Status.C5xx + rep.Errors.Mismatches
		if !rep.Status.Known {
			errs += rep.Status.Non2xx
		}
	}
	r.Errors = Num{Text: group(errs)}
	return r
}

// latencyNum is percentile q as the lower-median repetition by throughput
// printed it (an observed run, never a mean of two), linking to that
// repetition's dump; its title gives the range over every repetition.
func (m *model) latencyNum(p Page, c *audit.Cell, q float64) Num {
	pick := medianRep(c, m.metric)
	var vs []float64
	var shown *float64
	for _, rep := range c.Reps {
		for _, pc := range rep.Latency.Percentiles {
			if pc.P == q {
				v := pc.Value.Seconds()
				vs = append(vs, v)
				if rep == pick {
					shown = &v
				}
			}
		}
	}
	if len(vs) == 0 || shown == nil {
		return Num{Text: "–"}
	}
	n := Num{Text: Latency(seconds(*shown)), Sort: strconv.FormatFloat(*shown, 'g', -1, 64), Href: p.href(m.links.Raw(pick.Source.File))}
	lo, hi := slices.Min(vs), slices.Max(vs)
	n.Title = fmt.Sprintf("p%s printed by repetition %d, the lower-median by %s; %s–%s over %s",
		strconv.FormatFloat(q, 'f', -1, 64), pick.Rep, m.metric, Latency(seconds(lo)), Latency(seconds(hi)), plural(len(vs), "repetition"))
	return n
}

// barInput is a cell's bar: median, interval whisker, a dot per rep.
func (m *model) barInput(p Page, c *audit.Cell) BarInput {
	st := c.Stat(m.metric)
	b := BarInput{Label: c.Name, Href: p.href(m.links.Target(c.Name)), Median: st.Median, Unit: m.metric.String(), Tier: m.rank[c]}
	if math.IsNaN(b.Median) {
		b.Median = 0
	}
	if st.N > 1 {
		b.Lo, b.Hi, b.WhiskerLabel = interval(st)
	}
	for i, rep := range c.Reps {
		label := fmt.Sprintf("%d", rep.Rep)
		if rep.Rep == 0 {
			label = fmt.Sprintf("#%d", i+1)
		}
		b.Reps = append(b.Reps, RepInput{Value: st.Values[i], Label: label})
	}
	if fs := notable(m.cellFindings(c)); len(fs) > 0 {
		b.Badge = &ChartBadge{Class: "mark " + worst(fs).String(), Title: fmt.Sprintf("%d findings, first: %s", len(fs), shorten(fs[0].Rule, 40)), Href: p.href("soft.html#" + ruleAnchor(fs[0].Rule))}
	}
	return b
}

// percentiles is the table of latency percentiles the tool measured.
func (m *model) percentiles(p Page, cs []*audit.Cell) ([]string, []PercentileRow, bool) {
	ps := map[float64]bool{}
	closed := false
	for _, c := range cs {
		for _, rep := range c.Reps {
			for _, pc := range rep.Latency.Percentiles {
				ps[pc.P] = true
			}
			if !rep.Latency.Corrected {
				closed = true
			}
		}
	}
	if len(ps) == 0 {
		return nil, nil, closed
	}
	qs := make([]float64, 0, len(ps))
	for q := range ps {
		qs = append(qs, q)
	}
	sort.Float64s(qs)
	cols := make([]string, len(qs))
	for i, q := range qs {
		cols[i] = "p" + strconv.FormatFloat(q, 'f', -1, 64)
	}
	var rows []PercentileRow
	for _, c := range cs {
		r := PercentileRow{Target: Link{Href: p.href(m.links.Target(c.Name)), Text: c.Name}}
		for _, q := range qs {
			r.Values = append(r.Values, m.latencyNum(p, c, q))
		}
		rows = append(rows, r)
	}
	return cols, rows, closed
}

// describeLoad says what was asked and how, from the measurements.
func describeLoad(cs []*audit.Cell) (request, load string) {
	for _, c := range cs {
		for _, rep := range c.Reps {
			if request == "" && rep.URL != "" {
				method := rep.Method
				if method == "" {
					method = "GET"
				}
				path := rep.URL
				if u, err := url.Parse(rep.URL); err == nil {
					path = u.RequestURI()
				}
				request = method + " " + path
			}
			if load == "" && rep.Tool != "" {
				load = rep.Tool
				if rep.Connections > 0 {
					load += fmt.Sprintf(", %d connections", rep.Connections)
				}
				if rep.Threads > 0 {
					load += fmt.Sprintf(", %d threads", rep.Threads)
				}
				if rep.Pipelining > 1 {
					load += fmt.Sprintf(", pipelining %d", rep.Pipelining)
				}
				if rep.Window > 0 {
					load += ", " + rep.Window.Round(time.Millisecond).String() + " window"
				}
				load += fmt.Sprintf(", %d repetitions", len(c.Reps))
			}
		}
	}
	return request, load
}
