package render

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// ComparisonKind is what a kind of [[comparison]] table answers: the word
// of its change column and how it reads.
type ComparisonKind struct {
	Change string // the change column's word when the table names none
	Read   string // how to read a row of the table
}

// ComparisonKinds are the kinds of [[comparison]] a site.toml may declare,
// by the question each table answers. "" is "pairs".
var ComparisonKinds = map[string]ComparisonKind{
	"pairs": {Change: "change",
		Read: "Each row is a pair of targets, from and to; each cell is to ÷ from − 1 in that scenario."},
	"runtime": {Change: "gain",
		Read: "Each row is one program on two runtimes: the same files (the same compiled output) started by the first runtime and by the second. A positive change is what moving to the second runtime gains; nothing but the runtime differs."},
	"adapter": {Change: "change",
		Read: "Each row is one app whose code is identical but for the server adapter it imports: from one adapter to the other on the same runtime. The change is what the adapter alone costs or gains."},
	"orm": {Change: "cost",
		Read: "Each row is one framework doing the same database operations, returning the same bytes, through the raw driver (from) and through a data layer (to). A negative change is what the data layer costs in requests per second."},
	"static": {Change: "change",
		Read: "Each row is one server sending the same file through a hand-written handler (from) and through the framework's official static middleware (to). The change is what the middleware costs or gains over the handler."},
	"aa": {Change: "change",
		Read: "Each row is one program measured under two names. Anything but ~ is noise the host made, and a bound on every other difference of the run."},
}

// ComparisonView is a site.toml comparison: pairs with their change in
// each scenario, every change a verdict of the decision layer.
type ComparisonView struct {
	ID                  string // the table's anchor on the page
	Title, Note, Change string
	Kind                string
	Read                string // how the table reads, from its kind
	Scenarios           []Link
	Rows                []ComparisonRow
	Missing             string // targets and scenarios the table names that the run lacks
	Apart               string // the pairs measured in different runs, which no verdict compares
}

// ComparisonRow is one pair.
type ComparisonRow struct {
	From, To Link
	Cells    []ComparisonCell
}

// ComparisonCell is the pair in one scenario: to ÷ from as the decision
// layer judged it.
type ComparisonCell struct {
	From, To, Change string
	Class, Title     string
	J                Judgement
	Measured         bool
}

// comparisons are the site's comparison tables, in site.toml's order.
func (m *model) comparisons() []ComparisonView {
	var vs []ComparisonView
	for i, spec := range m.site.Comparisons {
		v := m.comparison(spec)
		v.ID = fmt.Sprintf("comparison-%d", i+1)
		vs = append(vs, v)
	}
	return vs
}

// comparison judges every pair of spec in every scenario it names. A
// target or scenario the run lacks is named in Missing, never an error:
// a site declares tables before their targets have a run.
func (m *model) comparison(spec ComparisonSpec) ComparisonView {
	kind := spec.Kind
	if kind == "" {
		kind = "pairs"
	}
	k := ComparisonKinds[kind]
	v := ComparisonView{Title: spec.Title, Note: spec.Note, Change: spec.Change, Kind: kind, Read: k.Read}
	if v.Change == "" {
		v.Change = k.Change
	}
	var missing []string
	scenarios := m.scenarios
	if len(spec.Scenarios) > 0 {
		scenarios = nil
		for _, s := range spec.Scenarios {
			if slices.Contains(m.scenarios, s) {
				scenarios = append(scenarios, s)
			} else {
				missing = append(missing, "scenario "+s)
			}
		}
	}
	for _, s := range scenarios {
		v.Scenarios = append(v.Scenarios, Link{Href: m.links.Scenario(s), Text: s})
	}
	for _, pair := range spec.Pairs {
		from, ok1 := m.resolve(pair[0])
		to, ok2 := m.resolve(pair[1])
		if !ok1 && !slices.Contains(missing, pair[0]) {
			missing = append(missing, pair[0])
		}
		if !ok2 && !slices.Contains(missing, pair[1]) {
			missing = append(missing, pair[1])
		}
		if !ok1 || !ok2 {
			continue
		}
		row := ComparisonRow{From: Link{Href: m.links.Target(from), Text: from}, To: Link{Href: m.links.Target(to), Text: to}}
		for _, s := range scenarios {
			row.Cells = append(row.Cells, m.comparisonCell(s, from, to))
		}
		v.Rows = append(v.Rows, row)
	}
	v.dropUnmeasured()
	var js []Judgement
	for _, r := range v.Rows {
		for _, c := range r.Cells {
			js = append(js, c.J)
		}
	}
	v.Apart = apartNote(js)
	switch {
	case len(missing) > 0 && len(v.Rows) == 0:
		v.Missing = "Not in this run: " + strings.Join(missing, ", ") + ". No pair of this table has been measured yet, so it shows nothing; it fills in when a run of their suite is published."
	case len(missing) > 0:
		v.Missing = "Not in this run: " + strings.Join(missing, ", ") + "; the rows and columns that need them are left out."
	}
	return v
}

// comparisonCell is to ÷ from in scenario s, as the decision layer judged it.
func (m *model) comparisonCell(s, from, to string) ComparisonCell {
	a, b := m.closedPair(s, from, to)
	if a == nil || b == nil {
		return ComparisonCell{Change: "–", Title: "not measured in both"}
	}
	j, ok := m.judge(a, b)
	if !ok {
		return ComparisonCell{Change: "–", Title: "no verdict"}
	}
	cell := ComparisonCell{From: Count(a.Stat(m.metric).Median), To: Count(b.Stat(m.metric).Median), Measured: true,
		Change: j.Change, Class: j.Dir, Title: j.Title, J: j}
	if j.Mark != "" {
		cell.Change = j.Mark + " " + j.Change
	}
	return cell
}

// closedCell is the cell of name in scenario s when every repetition in it
// is closed-loop (Phase ""), nil otherwise: cards and tables compare
// closed-loop throughput only, never a latency or sweep point.
func (m *model) closedCell(s, name string) *verdict.Cell {
	return ifClosed(m.cell(s, name))
}

// ifClosed is c when every repetition in it is closed-loop, else nil.
func ifClosed(c *verdict.Cell) *verdict.Cell {
	if c == nil {
		return nil
	}
	for _, r := range c.Reps {
		if r.Phase != parse.PhaseThroughput {
			return nil
		}
	}
	return c
}

// closedPair is the closed-loop cells of a and b in scenario s, from the
// newest run that measured both when there is one (nil for a name not
// measured closed-loop there).
func (m *model) closedPair(s, a, b string) (*verdict.Cell, *verdict.Cell) {
	run, ok := m.sharedRun(s, a, b)
	if !ok {
		return m.closedCell(s, a), m.closedCell(s, b)
	}
	return m.closedIn(run, s, a), m.closedIn(run, s, b)
}

// closedIn is run's cell of name in scenario s when it is closed-loop, nil
// otherwise.
func (m *model) closedIn(run, s, name string) *verdict.Cell {
	return ifClosed(m.byRun[[3]string{run, s, name}])
}

// dropUnmeasured leaves out the scenario columns where no pair of the
// table was measured (a table without scenarios spans every scenario of
// the runs on show, some of which its targets never ran).
func (v *ComparisonView) dropUnmeasured() {
	var keep []int
	for i := range v.Scenarios {
		for _, r := range v.Rows {
			if r.Cells[i].Measured {
				keep = append(keep, i)
				break
			}
		}
	}
	if len(keep) == len(v.Scenarios) {
		return
	}
	pick := func(i int) bool { return slices.Contains(keep, i) }
	var cols []Link
	for i, s := range v.Scenarios {
		if pick(i) {
			cols = append(cols, s)
		}
	}
	v.Scenarios = cols
	for j, r := range v.Rows {
		var cells []ComparisonCell
		for i, c := range r.Cells {
			if pick(i) {
				cells = append(cells, c)
			}
		}
		v.Rows[j].Cells = cells
	}
}
