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
	RankNote string
	RunNote  string // said when cells of several runs are on the page
	Matrices []VerdictMatrix
}

// VerdictMatrix is the pairwise verdicts of one family (this scenario in
// one run): row target against column target.
type VerdictMatrix struct {
	Run     string // "" when the page has one run
	Heads   []string
	Rows    []MatrixRow
	Omitted int // targets beyond maxMatrix, left out
	Method  string
}

// MatrixRow is one target against every other.
type MatrixRow struct {
	Name  string
	Cells []MatrixCell
}

// MatrixCell is the row target against the column target: "faster",
// "slower" or "~", with the ratio of geometric means row ÷ column.
type MatrixCell struct {
	Self               bool
	Word, Ratio, Class string
	Note               string // why "~", as a code the legend under the matrix spells out
	Title              string
}

// reasonCode are the codes a verdict matrix writes beside "~"; the
// scenario template's legend spells each out.
var reasonCode = map[string]string{
	audit.ReasonNotSignificant: "ns", audit.ReasonWithinFloor: "nf", audit.ReasonClientBound: "cb",
	audit.ReasonTooFewReps: "fr", audit.ReasonNoData: "nd",
}

// maxMatrix bounds the targets of a verdict matrix, so that a 50-target
// scenario page stays readable; the table's rank ranges cover the rest.
const maxMatrix = 16

// ScenarioRow is one target in the scenario table.
type ScenarioRow struct {
	Target   Link
	Runtime  string
	Rank     Num
	Run      Num // the run's suite, titled with its ID, when the page has several runs
	Median   Num
	Interval string
	IvKind   string // "min–max, n=4" or "95% CI": what Interval is
	Good     Num
	Delta    Num
	Why      string // why the delta reads "~", or what this run cannot tell apart
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
	runs := m.runsIn(s)
	var fastest []string
	for _, run := range runs {
		sv := m.dec.Find(run, s)
		if sv == nil {
			continue
		}
		for _, r := range sv.Ranks {
			if r.Ranked && r.Hi == 1 && len(sv.Ranks) > 1 {
				fastest = append(fastest, r.Cell.Name)
			}
		}
		mx := m.verdictMatrix(sv)
		if len(runs) > 1 {
			mx.Run = run
		}
		p.Matrices = append(p.Matrices, mx)
	}
	p.Fastest = joinComma(fastest)
	p.RankNote = rankNote(m.th)
	if len(runs) > 1 {
		p.RunNote = fmt.Sprintf("These cells come from %d runs (%s). Each run is ranked and compared only within itself: a run is one family of verdicts, and the runs ran at different times and loads, so no verdict crosses runs.", len(runs), joinComma(runs))
	}
	var bars []BarInput
	for _, c := range cs {
		p.Rows = append(p.Rows, m.scenarioRow(p.Page, c))
		bars = append(bars, m.barInput(p.Page, c))
	}
	p.Chart = NewBarChart("chart-"+m.links.scenario[s], fmt.Sprintf("%s: %s, median of repetitions", s, m.metric), bars)
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

// rankNote says how the rank ranges are made, in two sentences.
func rankNote(th audit.Thresholds) string {
	return fmt.Sprintf("Rank is a range from the pairwise verdicts: 1 + the targets judged faster, to the number ranked − the targets judged slower. "+
		"A pair is judged only when Welch's t-test on log throughput rejects at α=%.2f after Holm's correction over every pair of this scenario in its run, and the interval of the ratio of geometric means clears the noise floor (%.0f%%, or the A/A pair's bound where larger).", th.Alpha, th.Noise*100)
}

// verdictMatrix lays out a family's verdicts, row against column.
func (m *model) verdictMatrix(sv *audit.ScenarioVerdicts) VerdictMatrix {
	cs := sv.Cells
	mx := VerdictMatrix{Method: fmt.Sprintf("%d of %d pairs tested, Holm-corrected over those; noise floor %s", sv.Family, len(sv.Pairs), pct(sv.Floor.Value))}
	if pw := m.powerText(sv); pw != "" {
		mx.Method += "; " + pw
	}
	if len(cs) > maxMatrix {
		mx.Omitted = len(cs) - maxMatrix
		cs = cs[:maxMatrix]
	}
	for _, c := range cs {
		mx.Heads = append(mx.Heads, c.Name)
	}
	for _, a := range cs {
		row := MatrixRow{Name: a.Name}
		for _, b := range cs {
			if a == b {
				row.Cells = append(row.Cells, MatrixCell{Self: true, Word: "—", Title: a.Name + " itself"})
				continue
			}
			j, _ := m.judge(b, a) // a ÷ b
			cell := MatrixCell{Ratio: j.Ratio, Title: j.Title}
			switch j.Dir {
			case "up":
				cell.Word, cell.Class = "faster", "v-faster"
			case "down":
				cell.Word, cell.Class = "slower", "v-slower"
			default:
				cell.Word, cell.Class = "~", "v-tie"
				cell.Title = "~ (" + j.Why + "): " + j.Title
				cell.Note = reasonCode[j.Verdict.Reason]
			}
			row.Cells = append(row.Cells, cell)
		}
		mx.Rows = append(mx.Rows, row)
	}
	return mx
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
		r.IvKind = shortIntervalLabel(st)
	}
	r.Median.Title = ""
	r.Rank = m.rankNum(c)
	if len(m.runsIn(c.Scenario)) > 1 {
		r.Run = Num{Text: c.Run, Title: "run " + c.Run}
		if info := m.runByID(c.Run); info != nil && info.Suite != "" {
			r.Run.Text = info.Suite
		}
	}
	switch cmp, ok := m.vsLeader[c]; {
	case m.leader[c] == c:
		r.Delta = Num{Text: "leader", Sort: "1", Title: "the highest geometric mean of its run"}
	case ok:
		j := judgementOf(cmp, c.Name, m.leader[c].Name)
		r.Delta = Num{Text: j.Mark + " " + j.Ratio, Sort: strconv.FormatFloat(cmp.Ratio, 'g', 4, 64), Title: j.Title}
		if j.Mark == "" {
			r.Delta.Text = j.Ratio
		}
		r.Why = j.Interval
		if j.Mark != "" {
			r.Why = j.Why
			if j.Power != "" {
				r.Why += "; " + j.Power
			}
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
	b := BarInput{Label: c.Name, Href: p.href(m.links.Target(c.Name)), Median: st.Median, Unit: m.metric.String(), Rank: m.ranks[c]}
	if math.IsNaN(b.Median) {
		b.Median = 0
	}
	if len(m.runsIn(c.Scenario)) > 1 {
		b.Note = "run " + c.Run + ", ranked within it"
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
