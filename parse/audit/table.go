package audit

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// Rules of the published-table audit.
const (
	// RuleTableMismatch: a number in the table is not what the dumps say.
	RuleTableMismatch = "table-mismatch"
	// RuleTableRowWithoutDump: a row's target has no dump at all.
	RuleTableRowWithoutDump = "table-row-without-dump"
	// RuleTableNumberWithoutDump: a number whose target and scenario have no dump.
	RuleTableNumberWithoutDump = "table-number-without-dump"
	// RuleTableDumpWithoutRow: a measured target is missing from the table.
	RuleTableDumpWithoutRow = "table-dump-without-row"
	// RuleTableUnchecked: a column no dump could check.
	RuleTableUnchecked = "table-unchecked"
)

// mdTable is a markdown table: its header and rows of cells, with lines.
type mdTable struct {
	header []string
	rows   [][]string
	lines  []int
}

// maxTableLine bounds one line of a Markdown table, as parse bounds a dump's.
const maxTableLine = 64 << 20

// readMarkdownTable reads the first pipe table in r.
func readMarkdownTable(r io.Reader, name string) (*mdTable, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, maxTableLine)
	var t *mdTable
	var prev []string
	for n := 1; sc.Scan(); n++ {
		text := strings.TrimSpace(sc.Text())
		isRow := strings.HasPrefix(text, "|")
		switch {
		case t != nil && !isRow:
			return t, nil
		case t != nil:
			t.rows, t.lines = append(t.rows, splitRow(text)), append(t.lines, n)
		case isRow && prev != nil && isSeparator(text):
			t = &mdTable{header: prev}
		case isRow:
			prev = splitRow(text)
		default:
			prev = nil
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if t == nil {
		return nil, &parse.SyntaxError{File: name, Msg: "no markdown table (a | header |, then a | --- | line)"}
	}
	return t, nil
}

func splitRow(line string) []string {
	line = strings.TrimSuffix(strings.TrimPrefix(line, "|"), "|")
	cells := strings.Split(line, "|")
	for i, c := range cells {
		cells[i] = strings.TrimSpace(c)
	}
	return cells
}

var separatorCell = regexp.MustCompile(`^:?-{3,}:?$`)

func isSeparator(line string) bool {
	for _, c := range splitRow(line) {
		if !separatorCell.MatchString(c) {
			return false
		}
	}
	return true
}

// Column roles of a results table, by lower-case header.
const (
	colTarget      = "target"
	colRuntime     = "runtime"
	colAverage     = "average"
	colGeomean     = "geomean" // the geometric mean of the row's scenario columns
	colBundle      = "bundle"
	colStartup     = "startup"
	colMemory      = "memory"
	colScenario    = "scenario"
	colRowScenario = "row-scenario" // a "Scenario" column naming each row's scenario
	colPercentile  = "percentile"   // a latency percentile column (percentileColumn)
	colOther       = ""
)

func columnRole(header string, scenarios map[string]string) string {
	h := strings.ToLower(header)
	switch {
	case h == "framework" || h == "target" || h == "name":
		return colTarget
	case h == "runtime":
		return colRuntime
	case h == "average" || h == "mean":
		return colAverage
	case h == "geomean" || h == "geo mean" || h == "geometric mean":
		return colGeomean
	case strings.HasPrefix(h, "bundle"):
		return colBundle
	case strings.HasPrefix(h, "startup"):
		return colStartup
	case strings.HasPrefix(h, "memory"):
		return colMemory
	case scenarios[h] != "":
		return colScenario
	case h == "scenario":
		return colRowScenario
	}
	return colOther
}

// tableAudit is the state of one AuditTable call.
type tableAudit struct {
	name     string
	table    *mdTable
	roles    []string
	cells    map[tableKey]*verdict.Cell // target, runtime, scenario (runtime "" when the table has none)
	targets  map[tableKey]*parse.Target
	scenario map[string]string        // lower-case → the set's spelling
	pcols    map[int]percentileColumn // the latency percentile columns
	checked  map[int]bool             // columns at least one number was checked in
	findings []Finding
}

type tableKey struct{ target, runtime, scenario string }

// AuditTable checks a published markdown results table (the first table in
// markdown, read from the file called name) against the dumps in set:
// every number must be what the dumps say, every row must have dumps, and
// every measured target must have a row.
//
// Columns are found by header: Framework (or Target, Name), Runtime, one
// column per scenario of the set (by name, any case), Average or Mean (the
// arithmetic mean of the row's scenario columns), Geometric mean (or
// Geomean: their geometric mean), Bundle Size, Startup, Memory Before/After
// (checked against the Target records where the dumps carried them), and
// latency percentiles ("p99 (ms)", "ping p99", "99th percentile"; see
// percentileNumber) of the scenario the header names, or the row's Scenario
// column names, or the set's only scenario. A req/s number matches when the
// median of the cell's repetitions rounds to it at the precision printed; so
// does a percentile, which is also flagged when it is the mean of the
// repetitions' percentiles (RuleTableAveragedPercentile). Numbers use en-US
// grouping ("418,004.94").
// It returns an error only when markdown holds no table or cannot be read.
func AuditTable(markdown io.Reader, name string, set *parse.Set) ([]Finding, error) {
	t, err := readMarkdownTable(markdown, name)
	if err != nil {
		return nil, err
	}
	a := &tableAudit{name: name, table: t, cells: map[tableKey]*verdict.Cell{}, targets: map[tableKey]*parse.Target{},
		scenario: map[string]string{}, pcols: map[int]percentileColumn{}, checked: map[int]bool{}}
	for _, m := range set.Measurements {
		a.scenario[strings.ToLower(m.Scenario)] = m.Scenario
	}
	hasRuntime := false
	for j, h := range t.header {
		role := columnRole(h, a.scenario)
		if pc, ok := readPercentileColumn(h, a.scenario); ok && role == colOther {
			role, a.pcols[j] = colPercentile, pc
		}
		a.roles = append(a.roles, role)
		hasRuntime = hasRuntime || role == colRuntime
	}
	for _, c := range verdict.Cells(set, verdict.DefaultThresholds) {
		a.cells[a.key(c.Target, c.Runtime, c.Scenario, hasRuntime)] = c
	}
	for _, tg := range set.Targets {
		a.targets[a.key(tg.Name, tg.Runtime, "", hasRuntime)] = tg
	}
	seen := map[tableKey]bool{}
	for i, row := range t.rows {
		seen[a.row(row, t.lines[i], hasRuntime)] = true
	}
	a.unlisted(seen)
	a.rowOrder() // table_order.go
	a.unchecked()
	SortFindings(a.findings)
	return a.findings, nil
}

func (a *tableAudit) key(target, runtime, scenario string, hasRuntime bool) tableKey {
	if !hasRuntime {
		runtime = ""
	}
	return tableKey{target, runtime, strings.ToLower(scenario)}
}

// row checks one table row and returns its target key.
func (a *tableAudit) row(row []string, line int, hasRuntime bool) tableKey {
	var target, runtime, scenario string
	for j, role := range a.roles {
		switch {
		case j >= len(row):
		case role == colTarget:
			target = row[j]
		case role == colRuntime:
			runtime = row[j]
		case role == colRowScenario:
			scenario = row[j]
		}
	}
	k := a.key(target, runtime, "", hasRuntime)
	label := target
	if runtime != "" {
		label = fmt.Sprintf("%s (%s)", target, runtime)
	}
	if !a.hasCells(k) {
		a.add(Finding{Rule: RuleTableRowWithoutDump, Level: LevelError, Target: label,
			Message: fmt.Sprintf("%s:%d: the row for %s has no dump behind it: its numbers cannot be checked; publish the raw dumps with the table, or drop the row", a.name, line, label)})
		return k
	}
	var sum, logs float64
	var n int
	complete := true
	for j, role := range a.roles {
		if j >= len(row) {
			break
		}
		switch role {
		case colScenario:
			v, ok := a.scenarioNumber(k, label, j, row[j], line)
			sum, logs, n, complete = sum+v, logs+math.Log(v), n+1, complete && ok
		case colBundle, colStartup, colMemory:
			a.targetFact(k, label, j, row[j], line)
		case colPercentile:
			a.percentileNumber(k, label, scenario, j, row[j], line)
		}
	}
	for j, role := range a.roles {
		if j >= len(row) || !complete || n == 0 {
			continue
		}
		switch role {
		case colAverage:
			a.checked[j] = true
			a.compare(label, "", j, row[j], line, sum/float64(n), nil, fmt.Sprintf("the mean of the row's %d scenarios", n))
		case colGeomean:
			a.checked[j] = true
			a.compare(label, "", j, row[j], line, math.Exp(logs/float64(n)), nil, fmt.Sprintf("the geometric mean of the row's %d scenarios", n))
		}
	}
	return k
}

func (a *tableAudit) hasCells(k tableKey) bool {
	for ck := range a.cells {
		if ck.target == k.target && ck.runtime == k.runtime {
			return true
		}
	}
	return false
}

// scenarioNumber checks one req/s number; it returns the dumps' value and
// whether there was one.
func (a *tableAudit) scenarioNumber(k tableKey, label string, col int, text string, line int) (float64, bool) {
	scenario := a.scenario[strings.ToLower(a.table.header[col])]
	c := a.cells[tableKey{k.target, k.runtime, strings.ToLower(scenario)}]
	if c == nil || !c.RPS.Valid() {
		if _, _, ok := parseGrouped(text); ok {
			a.add(Finding{Rule: RuleTableNumberWithoutDump, Level: LevelError, Target: label, Scenario: scenario,
				Message: fmt.Sprintf("%s:%d: %s %s is %s but no dump holds that measurement; publish its dump, or drop the number", a.name, line, label, scenario, text)})
		}
		return 0, false
	}
	a.checked[col] = true
	what := fmt.Sprintf("req/s (%s)", parse.Plural(c.RPS.N, "repetition"))
	if c.RPS.N > 1 {
		what = fmt.Sprintf("req/s, the median of %s", parse.Plural(c.RPS.N, "repetition"))
	}
	if got, decimals, ok := parseGrouped(text); ok && c.RPS.N > 2 && roundsTo(meanOf(c.RPS.Values), got, decimals, 1) {
		what += fmt.Sprintf("; %s is their mean", text) // said only when the median does not match
	}
	want := c.RPS.Median
	if got, decimals, ok := parseGrouped(text); ok && !roundsTo(want, got, decimals, 1) {
		// A table made from the tools' printouts shows their own figure
		// (bombardier's mean of sampled rates), not requests ÷ window: a
		// number that matches neither is held against the tool's figure,
		// as its publisher most likely read it.
		if tool := c.ToolMedian(); tool > 0 {
			want, what = tool, strings.Replace(what, "req/s", "req/s as the tool printed it", 1)
		}
	}
	a.compare(label, scenario, col, text, line, want, c.Dumps(), what)
	return want, true
}

// compare reports a mismatch when text, at its printed precision, is not want.
func (a *tableAudit) compare(label, scenario string, col int, text string, line int, want float64, dumps []string, what string) {
	got, decimals, ok := parseGrouped(text)
	if !ok {
		a.add(Finding{Rule: RuleTableMismatch, Level: LevelError, Target: label, Scenario: scenario, Dumps: dumps,
			Message: fmt.Sprintf("%s:%d: %s %q is not a number; the dumps say %s", a.name, line, a.table.header[col], text, formatExact(want))})
		return
	}
	if roundsTo(want, got, decimals, 1) {
		return
	}
	a.add(Finding{Rule: RuleTableMismatch, Level: LevelError, Target: label, Scenario: scenario, Dumps: dumps,
		Message: fmt.Sprintf("%s:%d: %s %s says %s but the dumps say %s (%s), %+.2f%% off; regenerate the table from the dumps",
			a.name, line, label, a.table.header[col], text, formatExact(want), what, (got/want-1)*100)})
}

// roundsTo reports whether want, in units of unit, rounds to got printed
// with decimals digits (allowing for binary floating point).
func roundsTo(want, got float64, decimals int, unit float64) bool {
	half := 0.5 * math.Pow(10, -float64(decimals)) * unit
	return math.Abs(want-got*unit) <= half*(1+1e-9)+1e-9*math.Abs(want)
}

var groupedNumber = regexp.MustCompile(`^-?(\d{1,3}(,\d{3})*|\d+)(\.(\d+))?$`)

// parseGrouped reads an en-US number ("418,004.94") and how many decimals it has.
func parseGrouped(s string) (float64, int, bool) {
	m := groupedNumber.FindStringSubmatch(s)
	if m == nil {
		return 0, 0, false
	}
	v, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
	return v, len(m[4]), err == nil
}

// formatExact writes v with en-US grouping and up to three decimals
// ("418,004.94", "117,526").
func formatExact(v float64) string {
	s := strings.TrimRight(strconv.FormatFloat(math.Abs(v), 'f', 3, 64), "0")
	whole, frac, _ := strings.Cut(strings.TrimSuffix(s, "."), ".")
	out := parse.GroupDigits(whole)
	if v < 0 {
		out = "-" + out
	}
	if frac != "" {
		out += "." + frac
	}
	return out
}

// Units a table may print target facts in, with their size in base units.
var timeUnits = map[string]float64{"ns": 1, "us": 1e3, "µs": 1e3, "μs": 1e3, "ms": 1e6, "s": 1e9}
var decimalSizes = map[string]float64{"b": 1, "kb": 1e3, "mb": 1e6, "gb": 1e9}
var binarySizes = map[string]float64{"b": 1, "kb": 1 << 10, "mb": 1 << 20, "gb": 1 << 30, "kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30}

// targetFact checks a Bundle Size, Startup or Memory Before/After cell
// against the row's Target record, where the dumps gave one.
func (a *tableAudit) targetFact(k tableKey, label string, col int, text string, line int) {
	tg := a.targets[k]
	if tg == nil {
		return
	}
	var values []float64
	var parts []string
	switch a.roles[col] {
	case colBundle:
		values, parts = []float64{float64(tg.ArtifactBytes)}, []string{text}
	case colStartup:
		values, parts = []float64{float64(tg.Startup)}, []string{text}
	case colMemory:
		values, parts = []float64{float64(tg.RSSBefore), float64(tg.RSSAfter)}, strings.Split(text, "/")
		if len(parts) != 2 {
			return
		}
	}
	_, unit := splitQuantity(parts[len(parts)-1])
	for i, p := range parts {
		num, u := splitQuantity(p)
		if u == "" {
			u = unit
		}
		got, decimals, ok := parseGrouped(num)
		if !ok || values[i] <= 0 {
			continue // "n/a", or the dumps did not say
		}
		var match, known bool
		if a.roles[col] == colStartup {
			f := timeUnits[u]
			match, known = roundsTo(values[i], got, decimals, f), f > 0
		} else {
			d, b := decimalSizes[strings.ToLower(u)], binarySizes[strings.ToLower(u)]
			match, known = roundsTo(values[i], got, decimals, d) || roundsTo(values[i], got, decimals, b), d > 0
		}
		if !known {
			continue // a unit this audit does not know
		}
		a.checked[col] = true
		if match {
			continue
		}
		want := formatExact(values[i]) + " bytes"
		if a.roles[col] == colStartup {
			want = time.Duration(values[i]).String()
		}
		a.add(Finding{Rule: RuleTableMismatch, Level: LevelError, Target: label, Dumps: []string{tg.Source.File},
			Message: fmt.Sprintf("%s:%d: %s %s says %s but the dumps say %s; regenerate the table from the dumps",
				a.name, line, label, a.table.header[col], strings.TrimSpace(p), want)})
	}
}

// splitQuantity splits "51.2 ms" into "51.2" and "ms".
func splitQuantity(s string) (num, unit string) {
	s = strings.TrimSpace(s)
	i := strings.LastIndexAny(s, "0123456789")
	return strings.TrimSpace(s[:i+1]), strings.TrimSpace(s[i+1:])
}

// unlisted reports measured targets that have no row.
func (a *tableAudit) unlisted(seen map[tableKey]bool) {
	done := map[tableKey]bool{}
	for ck, c := range a.cells {
		k := tableKey{ck.target, ck.runtime, ""}
		if seen[k] || done[k] {
			continue
		}
		done[k] = true
		var dumps []string
		for ck2, c2 := range a.cells {
			if ck2.target == k.target && ck2.runtime == k.runtime {
				dumps = append(dumps, c2.Dumps()...)
			}
		}
		label := c.Target
		if k.runtime != "" {
			label = fmt.Sprintf("%s (%s)", c.Target, c.Runtime)
		}
		a.add(Finding{Rule: RuleTableDumpWithoutRow, Level: LevelWarning, Target: label, Dumps: uniqueSorted(dumps),
			Message: fmt.Sprintf("%s was measured but %s has no row for it: a result was left out; add the row, or say why it was dropped", label, a.name)})
	}
}

// unchecked reports columns that held values no dump could check.
func (a *tableAudit) unchecked() {
	for j, role := range a.roles {
		if role == colTarget || role == colRuntime || role == colRowScenario || a.checked[j] {
			continue
		}
		if role == colPercentile {
			a.add(Finding{Rule: RuleTableUnchecked, Level: LevelInfo,
				Message: fmt.Sprintf("%s: column %q was not checked: no dump printed that percentile for its rows, no unit or scenario was given, or every value lies within its repetitions' range yet is neither their median nor their mean (a percentile of the merged latencies, which the tools' summaries do not hold, would); check it by hand", a.name, a.table.header[j])})
			continue
		}
		a.add(Finding{Rule: RuleTableUnchecked, Level: LevelInfo,
			Message: fmt.Sprintf("%s: column %q was not checked: no dump carries it (or it is not a scenario of the dumps); check it by hand", a.name, a.table.header[j])})
	}
}

func (a *tableAudit) add(f Finding) { a.findings = append(a.findings, f) }
