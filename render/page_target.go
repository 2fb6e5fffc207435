package render

import (
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/rundir"
	"github.com/fairbench/fairbench/parse/verdict"
)

// TargetPage is one target: its facts, every scenario with every
// repetition, and its conformance transcript.
type TargetPage struct {
	Page
	Name      string
	Facts     []Fact
	Notes     []Badge      // findings about the target as a whole (a process, the client)
	Packages  []PackageRow // the framework versions the run recorded
	Scenarios []TargetScenario
	// Gates are the target's conformance gates, one per run on show that
	// measured it, each with that run's own transcript.
	Gates       []GateView
	Unavailable string // why no gate is shown
	// Points are the target's latency and sweep points (latency.go), nil if none.
	Points *PointTable
}

// Fact is one labelled value in a facts table.
type Fact struct {
	Label, Value, Title, Href string
}

// PackageRow is one framework package of a target and its version, "—"
// where the collector could not read it.
type PackageRow struct {
	Name, Version, Source string
}

// TargetScenario is one scenario of one target.
type TargetScenario struct {
	ID string
	// Run names the suite and run when the target was measured by more
	// than one run on show; "" otherwise.
	Run      string
	Name     Link
	Median   string
	Interval string
	Tier     string
	CV       string
	Reps     []RepRow
	Badges   []Badge
	// Autocannon holds autocannon's three tables per repetition, as the
	// tool printed them; empty when no repetition is autocannon's.
	Autocannon []AutocannonTable
}

// RepRow is one repetition: its numbers, its dump and its command.
type RepRow struct {
	Rep, Value, Good, Mean, Errors string
	Dump                           Link
	Command                        string
}

func (m *model) targetPage(name string) *TargetPage {
	p := &TargetPage{Name: name}
	p.Page = m.newPage("target", m.links.Target(name), name)
	p.Facts = m.targetFacts(name)
	p.Notes = badges(p.Page, m.targetFindings(name))
	// A name two suites on show both measured has a section per run, each
	// saying its run: the cards take whichever run measured their pair.
	var runs []string
	for _, r := range m.runs {
		for _, s := range m.scenarios {
			if m.byRun[[3]string{r.ID, s, name}] != nil {
				runs = append(runs, r.ID)
				break
			}
		}
	}
	for _, s := range m.scenarios {
		c := m.cell(s, name)
		if c == nil {
			continue
		}
		for _, run := range runs {
			if rc := m.byRun[[3]string{run, s, name}]; rc != nil && len(runs) > 1 {
				ts := m.targetScenario(p.Page, rc)
				ts.Run = m.runWords(run)
				if rc != c { // the oldest keeps the scenario's anchor
					ts.ID += "-" + run
				}
				p.Scenarios = append(p.Scenarios, ts)
			}
		}
		if len(runs) <= 1 {
			p.Scenarios = append(p.Scenarios, m.targetScenario(p.Page, c))
		}
	}
	p.Points = m.targetPoints(p.Page, name)
	t := m.facts[name]
	if t == nil {
		p.Unavailable = "No conformance gate ran for this target (its dumps came from outside a fairbench run)."
		return p
	}
	for _, pkg := range t.Packages {
		row := PackageRow{Name: pkg.Name, Version: pkg.Version, Source: publicPath(pkg.Source)}
		if row.Version == "" {
			row.Version = "—"
		}
		p.Packages = append(p.Packages, row)
	}
	p.Gates = m.gates(p.Page, name)
	return p
}

// targetFacts are the rows of a target's facts table.
func (m *model) targetFacts(name string) []Fact {
	facts := []Fact{{Label: "target", Value: m.targetOf(name)}}
	if rt := m.runtimeOf(name); rt != "" {
		facts = append(facts, Fact{Label: "runtime", Value: m.runtimeVersion(name, rt)})
	}
	tools := map[string]bool{}
	for _, c := range m.cells {
		if c.Name != name {
			continue
		}
		for _, r := range c.Reps {
			tv := r.Tool
			if r.ToolVersion != "" {
				tv += " " + r.ToolVersion
			}
			tools[tv] = true
		}
	}
	for _, r := range m.points {
		if m.pointName(r) == name {
			tools[strings.TrimSpace(r.Tool+" "+r.ToolVersion)] = true
		}
	}
	for _, tv := range slices.Sorted(maps.Keys(tools)) {
		facts = append(facts, Fact{Label: "load generator", Value: tv})
	}
	t := m.facts[name]
	if t == nil {
		return facts
	}
	src := ""
	if t.Source.File != "" {
		src = "from " + m.links.sitePath(t.Source.File)
	}
	// A fact the run did not record (no build step, no artifact) is left
	// out rather than shown as "n/a".
	for _, f := range []Fact{
		buildFact(t, src),
		{Label: "startup (spawn to first correct response)", Value: Seconds(t.Startup), Title: src},
		{Label: "memory before / after load", Value: MemoryPair(t.RSSBefore, t.RSSAfter), Title: src},
		{Label: "peak memory", Value: Bytes(t.RSSPeak), Title: src},
		{Label: "artifact size", Value: Bytes(t.ArtifactBytes), Title: src},
	} {
		if f.Value != "n/a" {
			facts = append(facts, f)
		}
	}
	return facts
}

// runtimeVersion is runtime rt of target name as its run recorded it,
// named: "bun 1.4.4", "node v26.1.0", "go version go1.26.8 linux/amd64";
// rt alone where the run recorded no version. The run is the one the
// target's first cell on show is from, not the newest run on show.
func (m *model) runtimeVersion(name, rt string) string {
	for _, c := range m.cells {
		if c.Name != name {
			continue
		}
		if r := m.runByID(c.Run); r != nil {
			if tv, ok := r.Tools[rt]; ok && tv.Version != "" {
				if strings.Contains(strings.ToLower(tv.Version), strings.ToLower(rt)) {
					return tv.Version
				}
				return rt + " " + tv.Version
			}
		}
		break
	}
	return rt
}

func (m *model) targetScenario(p Page, c *verdict.Cell) TargetScenario {
	st := c.Stat(m.metric)
	ts := TargetScenario{
		ID:     m.links.scenario[c.Scenario],
		Name:   Link{Href: p.href(m.links.Scenario(c.Scenario)), Text: c.Scenario},
		Median: Count(st.Median) + " " + m.metric.String(),
		Tier:   "unranked",
		Badges: badges(p, m.cellFindings(c)),
	}
	if st.N > 1 {
		ts.CV = fmt.Sprintf("%.1f%%", st.CV*100)
	}
	if lo, hi, label := interval(st); label != "" && st.N > 1 {
		ts.Interval = fmt.Sprintf("%s %s–%s", label, Count(lo), Count(hi))
	}
	if r := m.ranks[c]; r.Ranked {
		ts.Tier = "rank " + rankText(r)
	}
	for i, rep := range c.Reps {
		row := RepRow{
			Rep:    strconv.Itoa(rep.Rep),
			Value:  Count(st.Values[i]),
			Good:   Count(c.GoodRPS.Values[i]),
			Mean:   Latency(rep.Latency.Mean),
			Errors: group(rep.Errors.Total()),
			Dump: Link{
				Href:  p.href(m.links.Dump(rep.Source)),
				Text:  dumpLabel(rep.Source),
				Title: "sha256 " + rep.Source.SHA256,
			},
			Command: argv(rep.Argv),
		}
		if rep.Rep == 0 {
			row.Rep = strconv.Itoa(i + 1)
		}
		ts.Reps = append(ts.Reps, row)
	}
	ts.Autocannon = autocannonTables(c.Reps, ts.Reps)
	return ts
}

// dumpLabel is a dump's file name and lines, "1.txt:5–15".
func dumpLabel(src parse.Source) string {
	s := filepath.Base(src.File)
	switch {
	case src.LineStart > 0 && src.LineEnd > src.LineStart:
		s += fmt.Sprintf(":%d–%d", src.LineStart, src.LineEnd)
	case src.LineStart > 0:
		s += fmt.Sprintf(":%d", src.LineStart)
	}
	return s
}

// transcriptRef finds a target's conformance transcript in its run dir:
// its text (read only when read is set), the link to its raw copy, or why
// there is none.
func (m *model) transcriptRef(p Page, t *parse.Target, read bool) (text, href, why string) {
	if t.Transcript == "" {
		return "", "", "The run recorded no conformance transcript for this target."
	}
	var run *parse.Run
	for _, r := range m.set.Runs {
		if r.ID == t.Run {
			run = r
		}
	}
	if run == nil || run.Path == "" || !filepath.IsLocal(filepath.FromSlash(t.Transcript)) {
		return "", "", "The transcript is not in the run dir."
	}
	b, err := rundir.ReadFile(run.Path, t.Transcript, rundir.KindTranscript)
	if err != nil {
		return "", "", "The transcript could not be read: " + err.Error()
	}
	if read {
		text = string(b)
	}
	return text, p.href("raw/" + inertName(safePath(run.ID)+"/"+safePath(t.Transcript))), ""
}

func joinComma(xs []string) string {
	s := ""
	for i, x := range xs {
		if i > 0 {
			s += ", "
		}
		s += x
	}
	return s
}

// AutocannonTable is one of autocannon's three tables on a target page
// (Latency, Req/Sec, Bytes/Sec), a row per repetition, each cell written as
// autocannon writes it: latency in milliseconds ("6.63 ms"), req/s with
// thousands separators ("11,149.61"), bytes/s in SI units ("14.7 MB").
type AutocannonTable struct {
	Stat    string   // "Latency", "Req/Sec" or "Bytes/Sec"
	Columns []string // "2.5%", …, "Avg", "Stdev", "Max"
	Rows    []AutocannonRow
}

// AutocannonRow is one repetition's cells; "–" where the dump has none.
type AutocannonRow struct {
	Rep   string
	Dump  Link
	Cells []string
}

// The columns of autocannon's tables (lib/printResult.js).
var (
	autocannonLatencyPcts = []float64{2.5, 50, 97.5, 99}
	autocannonRatePcts    = []float64{1, 2.5, 50, 97.5}
)

// autocannonTables lays out the tables for the repetitions that are
// autocannon's; rows are the scenario's repetition rows, in order.
func autocannonTables(reps []*parse.Measurement, rows []RepRow) []AutocannonTable {
	lat := AutocannonTable{Stat: "Latency", Columns: append(pctColumns(autocannonLatencyPcts), "Avg", "Stdev", "Max")}
	req := AutocannonTable{Stat: "Req/Sec", Columns: append(pctColumns(autocannonRatePcts), "Avg", "Stdev", "Min")}
	byt := AutocannonTable{Stat: "Bytes/Sec", Columns: append(pctColumns(autocannonRatePcts), "Avg", "Stdev", "Min")}
	for i, m := range reps {
		if m.Tool != parse.ToolAutocannon {
			continue
		}
		row := func(cells []string) AutocannonRow {
			return AutocannonRow{Rep: rows[i].Rep, Dump: rows[i].Dump, Cells: cells}
		}
		var cells []string
		for _, p := range autocannonLatencyPcts {
			cells = append(cells, latencyCell(m.Latency.Percentiles, p))
		}
		l := m.Latency
		lat.Rows = append(lat.Rows, row(append(cells, msCell(l.Mean), msCell(l.Stdev), msCell(l.Max))))
		rps := parse.RateSamples{Mean: m.ToolRPS, Stdev: m.RPSStdev, Min: m.RPSMin, Percentiles: m.RPSPercentiles}
		req.Rows = append(req.Rows, row(rateCells(rps, countCell)))
		byt.Rows = append(byt.Rows, row(rateCells(m.BytesPerSecSamples, bytesCell)))
	}
	if len(lat.Rows) == 0 {
		return nil
	}
	return []AutocannonTable{lat, req, byt}
}

func pctColumns(ps []float64) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = strconv.FormatFloat(p, 'f', -1, 64) + "%"
	}
	return out
}

// latencyCell is the percentile p, or "–" when the dump has none.
func latencyCell(ps []parse.Percentile, p float64) string {
	for _, x := range ps {
		if x.P == p {
			return msCell(x.Value)
		}
	}
	return "–"
}

// rateCells are a Req/Sec or Bytes/Sec row: percentiles, Avg, Stdev, Min.
// A row the dump lacks altogether is all "–".
func rateCells(r parse.RateSamples, format func(float64) string) []string {
	empty := r.Mean == 0 && r.Stdev == 0 && r.Min == 0 && len(r.Percentiles) == 0
	var cells []string
	for _, p := range autocannonRatePcts {
		cell := "–"
		for _, x := range r.Percentiles {
			if x.P == p && !empty {
				cell = format(x.Value)
			}
		}
		cells = append(cells, cell)
	}
	for _, v := range []float64{r.Mean, r.Stdev, r.Min} {
		if empty {
			cells = append(cells, "–")
		} else {
			cells = append(cells, format(v))
		}
	}
	return cells
}

// msCell writes a duration as autocannon does, "6.63 ms": the printed
// milliseconds come back exactly, as parse kept them to the nanosecond.
func msCell(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', -1, 64) + " ms"
}

// countCell writes a number as Number.toLocaleString does in an English
// locale: "140,832", "11,149.61".
func countCell(v float64) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	whole, frac, _ := strings.Cut(s, ".")
	n, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return s // beyond int64: no separators
	}
	if frac != "" {
		return group(n) + "." + frac
	}
	return group(n)
}

// bytesCell writes bytes per second as autocannon's pretty-bytes does: SI
// units, three significant digits, "14.7 MB", "95 kB", "0 B".
func bytesCell(v float64) string {
	units := []string{"B", "kB", "MB", "GB", "TB", "PB"}
	if v < 1 {
		return strconv.FormatFloat(v, 'f', -1, 64) + " B"
	}
	e := min(int(math.Floor(math.Log10(v)/3)), len(units)-1)
	x := v / math.Pow(1000, float64(e))
	x, _ = strconv.ParseFloat(strconv.FormatFloat(x, 'g', 3, 64), 64)
	return strconv.FormatFloat(x, 'f', -1, 64) + " " + units[e]
}

// buildFact is the target's build time, said to be a warm build cache's
// (the build tool's up-to-date check and a copy, not a cold build) when
// run.json's build_cached says so.
func buildFact(t *parse.Target, src string) Fact {
	if !t.BuildCached {
		return Fact{Label: "build time", Value: Seconds(t.Build), Title: src}
	}
	return Fact{Label: "build time (warm build cache)", Value: Seconds(t.Build),
		Title: strings.TrimSpace("the build tool's up-to-date check and the copy of its output, not a cold build (collect -fresh-build measures one); " + src)}
}
