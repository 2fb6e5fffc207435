package render

import (
	"fmt"
	"html/template"
	"maps"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/audit"
	"github.com/fairbench/fairbench/parse/verdict"
)

// ScenarioPage is one scenario: chart, table, latency percentiles.
type ScenarioPage struct {
	Page
	Name    string
	Request string // "GET /id/1?name=bun"
	Load    string // "bombardier, 32 connections, 10 s window, 5 repetitions"
	Metric  string
	// Charts are one per run on the page (no chart mixes runs), bars in
	// the order of the medians they draw, coloured by runtime.
	Charts []BarChart
	Notes  []Badge // findings about the scenario as a whole
	Rows   []ScenarioRow
	PCols  []LatencyCol // latency table headings after the target
	PRows  []PercentileRow
	Closed bool // some latency is closed-loop (coordinated omission)
	Writes bool // some bytes/s shown counts bytes written too (marked "*")
	// Fastest says, per run, the target judged faster than every other
	// target of that run in this scenario, "" when none is (winner.go).
	Fastest  string
	RankNote string
	RunNote  string // said when cells of several runs are on the page
	Matrices []VerdictMatrix
	// HostNotes say, for each run measured on several host pairs, which
	// targets ran on which pair: each pair is ranked and judged apart.
	HostNotes []string
	// Loads set this scenario's request measured under one load
	// configuration beside another (page_scenario_loads.go).
	Loads []ConfigTable
	// Open is the latency and sweep points (latency_scenario.go), nil if none.
	Open *OpenSection
	// RepNote says which repetition the latency table shows, from the
	// cells' counts (latency_pick.go).
	RepNote string
	// About is site/content/<scenario>.md, "" without one (scenario_content.go).
	About template.HTML
}

// VerdictMatrix is the pairwise verdicts of one family (this scenario in
// one run): row target against column target.
type VerdictMatrix struct {
	Run    string // the run in words (its suite and start), "" when the page has one run
	Hosts  string // the family's host pair, when its run has several
	Heads  []string
	Rows   []MatrixRow
	Method string
	// Summary replaces Heads and Rows for a family of more than maxMatrix
	// targets: per target, how many it is judged faster and slower than
	// and how many it cannot be told from, as k×k cells would not read.
	Summary []MatrixSummaryRow
}

// MatrixSummaryRow is one target's verdicts in counts.
type MatrixSummaryRow struct {
	Name, Rank           string
	Faster, Slower, Tied int
	TiedWith             string // the names it cannot be told from, up to maxTiedNames
}

// maxTiedNames bounds the names a summary row lists.
const maxTiedNames = 5

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
	verdict.ReasonNotSignificant: "ns", verdict.ReasonWithinFloor: "nf", verdict.ReasonClientBound: "cb",
	verdict.ReasonTooFewReps: "fr", verdict.ReasonNoData: "nd", verdict.ReasonEquivalent: "eq", verdict.ReasonErrors: "er",
	verdict.ReasonUngated: "ng",
}

// maxMatrix bounds the targets of a verdict matrix, so that a 100-target
// scenario page stays readable and light: past it the page shows a
// summary of counts per target (k rows, not k² cells).
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
	// Geo is the geometric mean of the repetitions: the statistic the
	// verdicts test, so "vs leader" is this ÷ the leader's, checkable
	// in the same table.
	Geo      Num
	Good     Num
	Delta    Num
	Why      string // why the delta reads "~", or what this run cannot tell apart
	P50, P99 Num
	Errors   Num
	CPU      Num // the server's CPU time per request (cpuPerRequest)
	N        Num
	Badges   []Badge
}

// PercentileRow is one target's latency table row: each percentile, then
// avg, stdev and max latency and bytes/s, as the lower-median repetition
// printed them, "—" where it printed none.
type PercentileRow struct {
	Target Link
	// Dump links the lower-median repetition's dump, which printed every
	// figure of the row: one link a row, not one a cell, keeps a
	// 100-target page light.
	Dump   Link
	Values []Num
}

func (m *model) scenarioPage(s string) (*ScenarioPage, error) {
	p := &ScenarioPage{Name: s, Metric: m.metric.String()}
	p.Page = m.newPage("scenario", m.links.Scenario(s), s)
	p.Script = true
	cs := m.scenarioCells(s)
	p.Request, p.Load = describeLoad(cs)
	p.Notes = m.scenarioNotes(p.Page, s, cs)
	runs := m.runsIn(s)
	for _, run := range runs {
		svs := m.dec.Families(run, s)
		hosts := verdict.HostPairs(svs)
		if len(hosts) > 1 {
			p.HostNotes = append(p.HostNotes, m.scenarioHostsNote(run, svs, len(runs) > 1))
		}
		var cells []*verdict.Cell
		for _, sv := range svs {
			mx := m.verdictMatrix(sv)
			if len(runs) > 1 {
				mx.Run = m.runWords(run)
			}
			if len(hosts) > 1 {
				mx.Hosts = sv.Hosts
			}
			p.Matrices = append(p.Matrices, mx)
			cells = append(cells, sv.Cells...)
		}
		// One chart a run: its bars are medians, which claim nothing; the
		// note above says which host pair each target ran on.
		if len(cells) > 0 {
			p.Charts = append(p.Charts, m.runBarChart(p.Page, s, run, cells, len(runs) > 1))
		}
	}
	p.Fastest = m.fastestLine(s, runs)
	p.RankNote = rankNote(m.th)
	if len(runs) > 1 {
		p.Load = m.loadPerRun(s, runs)
		words := make([]string, len(runs))
		for i, run := range runs {
			words[i] = m.runWords(run)
		}
		p.RunNote = fmt.Sprintf("These cells come from %d runs (%s). Each run is ranked and compared only within itself: a run is one family of verdicts, and the runs ran at different times and loads, so no verdict crosses runs.", len(runs), strings.Join(words, "; "))
	}
	for _, c := range cs {
		p.Rows = append(p.Rows, m.scenarioRow(p.Page, c))
	}
	p.PCols, p.PRows, p.Closed, p.Writes = m.latencyTable(p.Page, cs)
	p.RepNote = medianRepNote(cs)
	p.Open = m.openSection(p.Page, s)
	var err error
	if p.About, err = m.scenarioProse(s); err != nil {
		return nil, err
	}
	p.Loads, err = m.loadTables(p.Page, s)
	return p, err
}

// scenarioHostsNote says which targets of run ran on which host pair in
// one scenario (svs, its families), and that each pair is judged apart.
func (m *model) scenarioHostsNote(run string, svs []*verdict.ScenarioVerdicts, named bool) string {
	var parts []string
	for _, sv := range svs {
		names := make([]string, len(sv.Cells))
		for i, c := range sv.Cells {
			names[i] = c.Name
		}
		parts = append(parts, joinAnd(names)+" on "+sv.Hosts)
	}
	where := "These targets were"
	if named {
		where = fmt.Sprintf("In run %s (%s), the targets were", run, m.suiteName(run))
	}
	return fmt.Sprintf("%s measured on different server→client host pairs: %s. Each host pair is ranked and judged only within itself (its own leader, ranks and verdicts): no verdict crosses machines, as a ratio between them compares the machines as well as the frameworks.",
		where, strings.Join(parts, "; "))
}

// runBarChart is one run's chart of scenario s: a bar per cell, sorted by
// the median it draws (highest first), coloured by runtime.
func (m *model) runBarChart(p Page, s, run string, cells []*verdict.Cell, named bool) BarChart {
	cs := slices.Clone(cells)
	med := func(c *verdict.Cell) float64 {
		if v := c.Stat(m.metric).Median; !math.IsNaN(v) {
			return v
		}
		return -1
	}
	slices.SortStableFunc(cs, func(a, b *verdict.Cell) int { return cmpFloatDesc(med(a), med(b)) })
	var bars []BarInput
	for _, c := range cs {
		b := m.barInput(p, c)
		b.Group = c.Runtime
		bars = append(bars, b)
	}
	id, title := "chart-"+m.links.scenario[s], fmt.Sprintf("%s: %s, median of repetitions, highest first", s, m.metric)
	if named {
		id += "-" + anchorOf(nonEmptyOr(run, "loose"))
		title = fmt.Sprintf("%s in %s (run %s): %s, median of repetitions, highest first", s, m.suiteName(run), run, m.metric)
	}
	return NewBarChart(id, title, bars)
}

// cmpFloatDesc orders a before b when a is larger.
func cmpFloatDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

// scenarioNotes are the findings about the scenario as a whole, and the
// notes (info findings) about its targets, one badge per rule with a count.
func (m *model) scenarioNotes(p Page, s string, cs []*verdict.Cell) []Badge {
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
		notes = append(notes, Badge{Class: "badge info", Text: fmt.Sprintf("%s (%d of %d targets)", ruleTitle(r), count[r], len(cs)), Title: "info (" + r + ")", Href: p.href("soft.html#" + ruleAnchor(r))})
	}
	return notes
}

// rankNote says how the rank ranges are made, in two sentences.
func rankNote(th verdict.Thresholds) string {
	return fmt.Sprintf("Rank is a range from the pairwise verdicts: 1 + the targets judged faster, to the number ranked − the targets judged slower. "+
		"A pair is judged only when its test on log throughput rejects at α=%.2f after Holm's correction over every pair of this scenario in its run, and the interval of the ratio of geometric means clears the noise floor (%.0f%%, or the A/A pair's bound where larger). "+
		"The test pairs the two targets' turns round by round where the run measured them in rounds (a paired t-test: the minutes a round's turns share leave the comparison; its variance moderated toward the scenario's other pairs where theirs agree), and is Welch's t-test where it did not.", th.Alpha, th.Noise*100)
}

// verdictMatrix lays out a family's verdicts, row against column.
func (m *model) verdictMatrix(sv *verdict.ScenarioVerdicts) VerdictMatrix {
	cs := sv.Cells
	mx := VerdictMatrix{Method: fmt.Sprintf("%d of %d pairs tested, Holm-corrected over those; noise floor %s", sv.Family, len(sv.Pairs), pct(sv.Floor.Value))}
	if pw := m.powerText(sv); pw != "" {
		mx.Method += "; " + pw
	}
	if len(cs) > maxMatrix {
		mx.Summary = m.matrixSummary(sv)
		return mx
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

// matrixSummary is sv's verdicts counted per target, in sv's order.
func (m *model) matrixSummary(sv *verdict.ScenarioVerdicts) []MatrixSummaryRow {
	rows := make([]MatrixSummaryRow, len(sv.Cells))
	at := map[*verdict.Cell]int{}
	var tied [][]string
	for i, c := range sv.Cells {
		at[c] = i
		rows[i] = MatrixSummaryRow{Name: c.Name, Rank: rankText(sv.Ranks[i])}
		tied = append(tied, nil)
	}
	for _, v := range sv.Pairs {
		a, b := at[v.CellA], at[v.CellB]
		switch f := v.Faster(); {
		case f == v.CellA:
			rows[a].Faster++
			rows[b].Slower++
		case f == v.CellB:
			rows[b].Faster++
			rows[a].Slower++
		default:
			rows[a].Tied++
			rows[b].Tied++
			tied[a] = append(tied[a], v.B)
			tied[b] = append(tied[b], v.A)
		}
	}
	for i, t := range tied {
		if len(t) > maxTiedNames {
			t = append(t[:maxTiedNames], fmt.Sprintf("%d more", len(t)-maxTiedNames))
		}
		rows[i].TiedWith = strings.Join(t, ", ")
	}
	return rows
}

func (m *model) scenarioRow(p Page, c *verdict.Cell) ScenarioRow {
	st := c.Stat(m.metric)
	anchor := p.href(m.links.Target(c.Name)) + "#" + m.links.scenario[c.Scenario]
	r := ScenarioRow{
		Target:  Link{Href: p.href(m.links.Target(c.Name)), Text: c.Name},
		Runtime: c.Runtime,
		Median:  statNum(st, anchor),
		Good:    Num{Text: Count(c.GoodRPS.Median)},
		Geo:     Num{Text: Count(st.GeoMean), Sort: strconv.FormatFloat(st.GeoMean, 'g', 8, 64)},
		CPU:     cpuPerRequest(c),
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
		r.Run = Num{Text: m.suiteName(c.Run), Title: "run " + c.Run}
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

// latencyNum is percentile q as the lower-median repetition printed it.
func (m *model) latencyNum(p Page, c *verdict.Cell, q float64) Num {
	return m.observedNum(p, c, percentileFigure(q))
}

// observedNum is figure f as the lower-median repetition by throughput
// printed it (an observed run, never a mean of two), linking to that
// repetition's dump; its title gives the range over every repetition. It
// is "—" where that repetition printed none.
func (m *model) observedNum(p Page, c *verdict.Cell, f figure) Num {
	pick := c.MedianRep(m.metric)
	var vs []float64
	var shown *float64
	for _, rep := range c.Reps {
		if v, ok := f.get(rep); ok {
			vs = append(vs, v)
			if rep == pick {
				shown = &v
			}
		}
	}
	if shown == nil {
		n := Num{Text: "—", Title: f.name + ": none printed"}
		if pick != nil && len(vs) > 0 {
			n.Title = fmt.Sprintf("%s: repetition %d, the lower-median by %s, printed none; %s of the others did", f.name, pick.Rep, m.metric, parse.Plural(len(vs), "repetition"))
		}
		return n
	}
	n := Num{Text: f.format(*shown), Sort: strconv.FormatFloat(*shown, 'f', -1, 64), Href: p.href(m.links.Raw(pick.Source.File))}
	name := f.name + " " + f.exact(*shown)
	if f.writes != nil && f.writes(pick) {
		n.Text += "*"
		name += " (bytes read and written)"
	}
	lo, hi := slices.Min(vs), slices.Max(vs)
	// Few words: a 100-target page has 900 of these titles, and the
	// table's note says once which repetition "rep" is.
	n.Title = fmt.Sprintf("%s, rep %d (the lower median by %s); %s–%s over %d reps",
		name, pick.Rep, m.metric, f.format(lo), f.format(hi), len(vs))
	return n
}

// barInput is a cell's bar: median, interval whisker, a dot per rep.
func (m *model) barInput(p Page, c *verdict.Cell) BarInput {
	st := c.Stat(m.metric)
	b := BarInput{Label: c.Name, Href: p.href(m.links.Target(c.Name)), Median: st.Median, Unit: m.metric.String(), Rank: m.ranks[c]}
	if math.IsNaN(b.Median) {
		b.Median = 0
	}
	if len(m.runsIn(c.Scenario)) > 1 {
		b.Note = "run " + m.suiteName(c.Run) + ", ranked within it"
	}
	if why := m.unrankedWhy(c); why != "" && len(c.Reps) > 0 {
		b.Note = strings.TrimPrefix(b.Note+"; "+why, "; ")
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
		b.Badge = &ChartBadge{Class: "mark " + worst(fs).String(), Title: fmt.Sprintf("%d findings, first: %s", len(fs), shorten(ruleTitle(fs[0].Rule), 60)), Href: p.href("soft.html#" + ruleAnchor(fs[0].Rule))}
	}
	return b
}

// LatencyCol is a heading of the latency table, titled with what it is.
type LatencyCol struct {
	Text, Title string
}

// figure is one number a load generator prints per run, as the latency
// table shows it.
type figure struct {
	col, title string // heading and what it is
	name       string // in a cell's title: "p99", "avg latency"
	// get is the figure as rep printed it; ok is false where it printed none.
	get    func(rep *parse.Measurement) (v float64, ok bool)
	format func(float64) string              // scaled for the cell
	exact  func(float64) string              // every digit, for the cell's title
	writes func(rep *parse.Measurement) bool // the figure counts bytes written too
}

// percentileFigure is latency percentile q, in seconds.
func percentileFigure(q float64) figure {
	name := "p" + strconv.FormatFloat(q, 'f', -1, 64)
	return figure{col: name, title: name + " latency", name: name, format: latencySeconds, exact: exactMillis,
		get: func(rep *parse.Measurement) (float64, bool) {
			v, ok := rep.Latency.Percentile(q)
			return v.Seconds(), ok
		}}
}

// summaryFigures follow the percentiles: the latency summary wrk,
// bombardier and autocannon print on one row (avg, stdev, max; a stdev
// counts as printed where the avg or max on its row is), and bytes/s.
var summaryFigures = []figure{
	{col: "avg", title: "mean latency, as the tool printed it", name: "avg latency", format: latencySeconds, exact: exactMillis,
		get: func(rep *parse.Measurement) (float64, bool) {
			return rep.Latency.Mean.Seconds(), rep.Latency.Mean > 0
		}},
	{col: "stdev", title: "standard deviation of latency, as the tool printed it", name: "latency stdev", format: latencySeconds, exact: exactMillis,
		get: func(rep *parse.Measurement) (float64, bool) {
			return rep.Latency.Stdev.Seconds(), rep.Latency.Mean > 0 || rep.Latency.Max > 0
		}},
	{col: "max", title: "slowest response, as the tool printed it", name: "max latency", format: latencySeconds, exact: exactMillis,
		get: func(rep *parse.Measurement) (float64, bool) {
			return rep.Latency.Max.Seconds(), rep.Latency.Max > 0
		}},
	{col: "bytes/s", title: "transfer rate, as the tool printed it: bytes read per second (wrk, autocannon), read and written (bombardier, marked *)", name: "bytes/s",
		format: func(v float64) string { return Bytes(int64(math.Round(v))) + "/s" },
		exact:  func(v float64) string { return Grouped(v, 2) + " B/s" },
		get: func(rep *parse.Measurement) (float64, bool) {
			return rep.BytesPerSec, rep.BytesPerSec > 0
		},
		writes: func(rep *parse.Measurement) bool { return rep.BytesPerSecCountsWrites }},
}

// latencySeconds is s seconds scaled for a cell; a printed 0 (autocannon's
// "0 ms") reads "0 ms", not Latency's "–" for unknown.
func latencySeconds(s float64) string {
	if s == 0 {
		return "0 ms"
	}
	return Latency(seconds(s))
}

// exactMillis is s seconds in milliseconds, every digit kept: "6.63 ms".
func exactMillis(s float64) string { return msCell(time.Duration(math.Round(s * 1e9))) }

// latencyTable is the table of latency the tools printed: the
// percentiles any printed, then avg, stdev and max latency and bytes/s
// where any printed them; closed says some latency is closed-loop, writes
// that some bytes/s shown counts bytes written too.
func (m *model) latencyTable(p Page, cs []*verdict.Cell) (cols []LatencyCol, rows []PercentileRow, closed, writes bool) {
	ps := map[float64]bool{}
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
	var figs []figure
	for _, q := range slices.Sorted(maps.Keys(ps)) {
		figs = append(figs, percentileFigure(q))
	}
	for _, f := range summaryFigures {
		if anyPrinted(cs, f) {
			figs = append(figs, f)
		}
	}
	if len(figs) == 0 {
		return nil, nil, closed, false
	}
	for _, f := range figs {
		cols = append(cols, LatencyCol{Text: f.col, Title: f.title})
	}
	for _, c := range cs {
		r := PercentileRow{Target: Link{Href: p.href(m.links.Target(c.Name)), Text: c.Name}}
		if pick := c.MedianRep(m.metric); pick != nil {
			r.Dump = Link{Href: p.href(m.links.Raw(pick.Source.File)), Text: fmt.Sprintf("rep %d", pick.Rep)}
		}
		for _, f := range figs {
			n := m.observedNum(p, c, f)
			// The row names the repetition and links its dump once.
			n.Href = ""
			if exact, _, ok := strings.Cut(n.Title, ", rep "); ok {
				if _, spread, ok := strings.Cut(n.Title, "; "); ok {
					n.Title = exact + "; " + spread
				}
			}
			r.Values = append(r.Values, n)
			if pick := c.MedianRep(m.metric); f.writes != nil && pick != nil {
				_, ok := f.get(pick)
				writes = writes || ok && f.writes(pick)
			}
		}
		rows = append(rows, r)
	}
	return cols, rows, closed, writes
}

// anyPrinted says whether some repetition of cs printed figure f.
func anyPrinted(cs []*verdict.Cell, f figure) bool {
	for _, c := range cs {
		for _, rep := range c.Reps {
			if _, ok := f.get(rep); ok {
				return true
			}
		}
	}
	return false
}

// describeLoad says what was asked and how, from the measurements.
// loadPerRun says the load of each run with cells in scenario s, its suite
// first: "js: bombardier, 64 connections, …; post: autocannon, …".
func (m *model) loadPerRun(s string, runs []string) string {
	var parts []string
	for _, run := range runs {
		var cells []*verdict.Cell
		for _, sv := range m.dec.Families(run, s) {
			cells = append(cells, sv.Cells...)
		}
		if len(cells) == 0 {
			continue
		}
		_, load := describeLoad(cells)
		parts = append(parts, m.suiteName(run)+": "+load)
	}
	return strings.Join(parts, "; ")
}

func describeLoad(cs []*verdict.Cell) (request, load string) {
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
