package render

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// ResultsMD configures results.md, a Markdown table for a README. Each
// column has a heading and a value:
//
//	target, name, runtime        the target, the target with its runtime when it has several, the runtime
//	scenario:NAME                the median of scenario NAME
//	interval:NAME                its interval ("lo–hi (label)", min–max below 6 repetitions)
//	rank:NAME (or tier:NAME)     its rank range from the verdicts: "1", "2–4"
//	average, geomean             the plain mean / geometric mean of the scenario columns' medians
//	artifact, startup, memory    bundle size, startup time, "before / after MB"
//	build, rss_before, rss_after build time, memory before, memory after
//
// Numbers are whole by default (decimals = 0): a throughput's noise is
// percents, so fraction digits claim a precision no run has. A note under
// the table says what an average or interval column is.
//
// bun-http-framework-benchmark's table is:
//
//	[results_md]
//	sort = "average"
//	columns = [
//	  { title = "Framework", value = "target" }, { title = "Runtime", value = "runtime" },
//	  { title = "Average", value = "average" },
//	  { title = "Ping", value = "scenario:ping" }, { title = "Query", value = "scenario:query" },
//	  { title = "Body", value = "scenario:body" },
//	  { title = "Bundle Size", value = "artifact" }, { title = "Startup", value = "startup" },
//	  { title = "Memory Before/After", value = "memory" },
//	]
type ResultsMD struct {
	Columns []Column `toml:"columns"`
	// Sort is the value of the column rows are sorted by, highest first;
	// "" sorts by the first average or geomean column, else by the only
	// scenario column, else by the plain average.
	Sort string `toml:"sort"`
	// Decimals is the most fraction digits a number shows (en-US grouping,
	// trailing zeros dropped); 0, the default, shows whole numbers. Set 3
	// to reproduce a JavaScript harness's toLocaleString table.
	Decimals int `toml:"decimals"`
}

// Column is one column of results.md.
type Column struct {
	Title string `toml:"title"`
	Value string `toml:"value"`
}

// check reports columns whose value is not one ResultsMD knows.
func (r ResultsMD) check(s *Site) []error {
	var errs []error
	for i, c := range r.Columns {
		kind, _, _ := strings.Cut(c.Value, ":")
		switch kind {
		case "target", "name", "runtime", "average", "geomean", "artifact", "startup", "memory", "build", "rss_before", "rss_after":
		case "scenario", "interval", "tier", "rank":
			if !strings.Contains(c.Value, ":") {
				errs = append(errs, s.errorf("results_md.columns", "results_md column %d: %q needs a scenario, as in %q", i+1, c.Value, kind+":ping"))
			}
		default:
			errs = append(errs, s.errorf("results_md.columns", "results_md column %d: unknown value %q (see `go doc github.com/fairbench/fairbench/render.ResultsMD`)", i+1, c.Value))
		}
	}
	if r.Decimals < 0 || r.Decimals > 9 {
		errs = append(errs, s.errorf("results_md.decimals", "results_md decimals %d: want 0 to 9", r.Decimals))
	}
	return errs
}

// columns are the configured columns, or the default: target, runtime
// (when any), the geometric mean (with two or more scenarios), and one per
// scenario.
func (m *model) mdColumns() []Column {
	if len(m.site.ResultsMD.Columns) > 0 {
		return m.site.ResultsMD.Columns
	}
	cols := []Column{{Title: "Target", Value: "target"}}
	for _, c := range m.cells {
		if c.Runtime != "" {
			cols = append(cols, Column{Title: "Runtime", Value: "runtime"})
			break
		}
	}
	if len(m.scenarios) > 1 {
		cols = append(cols, Column{Title: "Geometric mean", Value: "geomean"})
	}
	for _, s := range m.scenarios {
		cols = append(cols, Column{Title: scenarioTitle(s), Value: "scenario:" + s})
	}
	return cols
}

// resultsMarkdown is results.md: a table per run on show, each of the
// targets that run measured with that run's cells and facts, sorted within
// it, since runs ran at different times and loads and the site ranks none
// across them. One run on show is one table with no heading. A run that
// measured none of the table's scenarios is named under the tables
// instead.
func (m *model) resultsMarkdown() []byte {
	cols := m.mdColumns()
	var scenarioCols []string
	for _, c := range cols {
		if name, ok := strings.CutPrefix(c.Value, "scenario:"); ok {
			scenarioCols = append(scenarioCols, name)
		}
	}
	if len(scenarioCols) == 0 {
		scenarioCols = m.scenarios
	}
	runs := []string{""} // a site of bare dumps has one run without an id
	if len(m.runs) > 0 {
		runs = runs[:0]
		for _, r := range m.runs {
			runs = append(runs, r.ID)
		}
	}
	var out []byte
	var left []string
	for _, run := range runs {
		table, ok := m.mdRunTable(run, cols, scenarioCols)
		if !ok {
			left = append(left, fmt.Sprintf("%s (run %s)", m.suiteName(run), run))
			continue
		}
		if len(runs) > 1 {
			if len(out) == 0 {
				out = append(out, "One table per run: each run ranks its own targets, measured at its own time and load; no row compares with another table's.\n\n"...)
			}
			out = append(out, fmt.Sprintf("### %s (run %s)\n\n", escapeText(m.suiteName(run)), escapeText(run))...)
		}
		out = append(out, table...)
		out = append(out, '\n')
	}
	out = bytes.TrimSuffix(out, []byte("\n"))
	notes := m.mdNotes(cols, scenarioCols)
	for _, run := range runs {
		if note := m.setApartNote(run); note != "" {
			notes = append(notes, note+" Their rows come last.")
		}
	}
	if len(left) > 0 {
		notes = append(notes, fmt.Sprintf("Not in these tables, as they measured none of their scenarios: %s.", strings.Join(left, ", ")))
	}
	if len(notes) > 0 {
		out = append(out, '\n')
		for _, n := range notes {
			out = append(out, escapeText(n)+"\n"...)
		}
	}
	return out
}

// mdRunTable is results.md's table of one run; ok is false when no
// target of the run has a value in a scenario column.
func (m *model) mdRunTable(run string, cols []Column, scenarioCols []string) (table []byte, ok bool) {
	decimals := m.site.ResultsMD.Decimals
	sortBy := m.site.ResultsMD.Sort
	if sortBy == "" {
		sortBy = defaultSort(cols, scenarioCols)
	}
	type row struct {
		key    float64
		name   string
		values []string
		apart  bool // unranked for its errors or no gate record: listed after the rest
	}
	var rows []row
	for _, name := range m.names {
		if !slices.ContainsFunc(m.scenarios, func(s string) bool { return m.byRun[[3]string{run, s, name}] != nil }) {
			continue // not measured by this run
		}
		ok = ok || slices.ContainsFunc(scenarioCols, func(s string) bool { return m.byRun[[3]string{run, s, name}] != nil })
		r := row{name: name, key: m.mdNumber(run, name, sortBy, scenarioCols)}
		r.apart = slices.ContainsFunc(m.setApart(run), func(c *verdict.Cell) bool { return c.Name == name })
		for _, c := range cols {
			r.values = append(r.values, m.mdValue(run, name, c.Value, scenarioCols, decimals))
		}
		rows = append(rows, r)
	}
	if !ok {
		return nil, false
	}
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i].key, rows[j].key
		if rows[i].apart != rows[j].apart {
			return rows[j].apart
		}
		if math.IsNaN(a) != math.IsNaN(b) {
			return !math.IsNaN(a)
		}
		if a != b {
			return a > b
		}
		return rows[i].name < rows[j].name
	})
	head := make([]string, len(cols))
	right := make([]bool, len(cols))
	for i, c := range cols {
		head[i] = c.Title
		switch c.Value {
		case "target", "name", "runtime":
		default:
			right[i] = true
		}
	}
	lines := [][]string{head}
	for _, r := range rows {
		lines = append(lines, r.values)
	}
	return markdownTable(lines, right), true
}

// defaultSort is the value rows are sorted by when the site names none:
// the first mean column shown (so that rows are in the order of the mean
// the table prints), else the only scenario, else the plain average.
func defaultSort(cols []Column, scenarioCols []string) string {
	for _, c := range cols {
		if c.Value == "average" || c.Value == "geomean" {
			return c.Value
		}
	}
	if len(scenarioCols) == 1 {
		return "scenario:" + scenarioCols[0]
	}
	return "average"
}

// mdTarget is target name's facts in run: its build, startup and memory
// there, not another run's.
func (m *model) mdTarget(run, name string) *parse.Target {
	target, runtime := m.targetOf(name), m.runtimeOf(name)
	for _, t := range m.set.Targets {
		if t.Run == run && t.Name == target && (t.Runtime == runtime || t.Runtime == "" || runtime == "") {
			return t
		}
	}
	return m.facts[name]
}

// mdNotes say under the table what its derived columns are: which mean an
// average column takes of which columns, and what an interval spans.
func (m *model) mdNotes(cols []Column, scenarios []string) []string {
	var notes []string
	seen := map[string]bool{}
	shown := make([]string, len(scenarios))
	for i, s := range scenarios {
		shown[i] = scenarioTitle(s)
	}
	for _, c := range cols {
		kind, _, _ := strings.Cut(c.Value, ":")
		if seen[kind] {
			continue
		}
		seen[kind] = true
		switch kind {
		case "average":
			notes = append(notes, fmt.Sprintf("%s: the arithmetic mean of the medians of %s (%s), n/a where one is missing.",
				c.Title, strings.Join(shown, ", "), m.metric))
		case "geomean":
			notes = append(notes, fmt.Sprintf("%s: the geometric mean of the medians of %s (%s), n/a where one is missing.",
				c.Title, strings.Join(shown, ", "), m.metric))
		case "rank", "tier":
			notes = append(notes, fmt.Sprintf("%s: a range from the pairwise verdicts of that scenario in its run: 1 + the targets judged faster, to the number ranked − the targets judged slower.", c.Title))
		case "scenario":
			notes = append(notes, fmt.Sprintf("Scenario columns: the median %s over the repetitions of each target.", m.metric))
		case "interval":
			notes = append(notes, fmt.Sprintf("%s: the %s confidence interval of the median, or the min–max of the repetitions where there are too few for one; each cell says which.",
				c.Title, intervalLevelLabel(m.th.Confidence)))
		}
	}
	return notes
}

// mdNumber is a column value of name in run as a number for sorting, NaN
// for none.
func (m *model) mdNumber(run, name, value string, scenarios []string) float64 {
	kind, arg, _ := strings.Cut(value, ":")
	median := func(s string) float64 {
		if c := m.byRun[[3]string{run, s, name}]; c != nil && c.Stat(m.metric).Valid() {
			return c.Stat(m.metric).Median
		}
		return math.NaN()
	}
	switch kind {
	case "scenario":
		return median(arg)
	case "average", "geomean":
		sum, logs, n := 0.0, 0.0, 0
		for _, s := range scenarios {
			v := median(s)
			if math.IsNaN(v) {
				return math.NaN()
			}
			sum, logs, n = sum+v, logs+math.Log(v), n+1
		}
		if n == 0 {
			return math.NaN()
		}
		if kind == "geomean" {
			return math.Exp(logs / float64(n))
		}
		return sum / float64(n)
	}
	t := m.mdTarget(run, name)
	if t == nil {
		return math.NaN()
	}
	switch kind {
	case "artifact":
		return float64(t.ArtifactBytes)
	case "startup":
		return t.Startup.Seconds()
	case "build":
		return t.Build.Seconds()
	case "memory", "rss_after":
		return float64(t.RSSAfter)
	case "rss_before":
		return float64(t.RSSBefore)
	}
	return math.NaN()
}

// mdValue is the cell of name in run in column value, as text.
func (m *model) mdValue(run, name, value string, scenarios []string, decimals int) string {
	kind, arg, _ := strings.Cut(value, ":")
	switch kind {
	case "target":
		return m.targetOf(name)
	case "name":
		return name
	case "runtime":
		return m.runtimeOf(name)
	case "interval":
		if c := m.byRun[[3]string{run, arg, name}]; c != nil {
			if lo, hi, label := interval(c.Stat(m.metric)); label != "" {
				return Grouped(lo, decimals) + "–" + Grouped(hi, decimals) + " (" + label + ")"
			}
		}
		return "n/a"
	case "tier", "rank":
		if c := m.byRun[[3]string{run, arg, name}]; c != nil && m.ranks[c].Ranked {
			return rankText(m.ranks[c])
		}
		return "n/a"
	case "scenario", "average", "geomean":
		v := m.mdNumber(run, name, value, scenarios)
		if math.IsNaN(v) {
			return "n/a"
		}
		return Grouped(v, decimals)
	}
	t := m.mdTarget(run, name)
	if t == nil {
		return "n/a"
	}
	switch kind {
	case "artifact":
		return readmeUnits(Bytes(t.ArtifactBytes))
	case "startup":
		return Millis(t.Startup)
	case "build":
		return Millis(t.Build)
	case "memory":
		return readmeUnits(MemoryPair(t.RSSBefore, t.RSSAfter))
	case "rss_before":
		return readmeUnits(Bytes(t.RSSBefore))
	case "rss_after":
		return readmeUnits(Bytes(t.RSSAfter))
	}
	return "n/a"
}

// readmeUnits names 1024-based sizes as the README tables results.md
// reproduces do (bun-http-framework-benchmark's "KB" and "MB"), so that a
// table pasted over one of them reads as it did; the pages say KiB, MiB.
var readmeUnits = strings.NewReplacer("KiB", "KB", "MiB", "MB", "GiB", "GB", "TiB", "TB").Replace

// markdownTable lays out rows (the first is the heading) with padded
// columns; right-aligned columns get "---:" and their values left padding,
// headings stay left, as bun-http-framework-benchmark's table has them.
func markdownTable(rows [][]string, right []bool) []byte {
	width := make([]int, len(right))
	for _, r := range rows {
		for i, v := range r {
			width[i] = max(width[i], utf8.RuneCountInString(escapeCell(v)), 3)
		}
	}
	var b bytes.Buffer
	line := func(cells []string, rule, head bool) {
		b.WriteString("|")
		for i := range width {
			v := ""
			if i < len(cells) {
				v = escapeCell(cells[i])
			}
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(v))
			switch {
			case rule && right[i]:
				v = strings.Repeat("-", width[i]-1) + ":"
			case rule:
				v = strings.Repeat("-", width[i])
			case right[i] && !head:
				v = pad + v
			default:
				v += pad
			}
			b.WriteString(" " + v + " |")
		}
		b.WriteString("\n")
	}
	line(rows[0], false, true)
	line(nil, true, false)
	for _, r := range rows[1:] {
		line(r, false, false)
	}
	return b.Bytes()
}

// escapeCell keeps a value inside its Markdown table cell, as text: a
// pipe cannot end the cell, a line break cannot end the row, and no
// character can start markup in any renderer (HTML, emphasis, code, links).
func escapeCell(s string) string {
	return strings.ReplaceAll(escapeText(s), "|", `\|`)
}

// mdEscaper writes HTML's three as entities (so "<!-- fairbench:end -->"
// in a name can never be the README's marker) and backslash-escapes the
// ASCII punctuation that starts Markdown inline markup.
var mdEscaper = strings.NewReplacer(
	"&", "&amp;", "<", "&lt;", ">", "&gt;",
	"\\", `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "~", `\~`, "!", `\!`,
	"\r\n", " ", "\n", " ", "\r", " ",
)

// escapeText is s as Markdown text on one line.
func escapeText(s string) string { return mdEscaper.Replace(s) }

// scenarioTitle is a scenario's column heading: its name with the first
// letter upper-cased, "(unnamed scenario)" for the empty name.
func scenarioTitle(s string) string {
	if s == "" {
		return "(unnamed scenario)"
	}
	return titleCase(s)
}

// titleCase upper-cases the first letter of s; s is returned as it is when
// it is empty or does not start with valid UTF-8, so no U+FFFD is written.
func titleCase(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
