package render

import (
	"cmp"
	"fmt"
	"html/template"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/fairbench/fairbench/parse/verdict"
)

// ConfigTable sets one target's numbers for a request measured under one load
// configuration beside the same target's under another: what the
// configuration (pipelining, another tool, more connections) does to the
// comparison. The two come from different runs or scenarios, so the ratio is
// a description, never a verdict.
type ConfigTable struct {
	Request string // "GET /plaintext"
	// Ref and Other say what each column was measured under: the scenario,
	// its run's suite and the load.
	Ref, Other ConfigColumn
	Rows       []ConfigRow
	// Prose is site/content/pipelining.md, where either side pipelines.
	Prose template.HTML
	// Spread is the range of the ratios over the targets both measured.
	Spread string
	// Changed says what else differed between the two runs: a runtime's
	// version ("node v20.20.2 → v26.10.0"), so that a ratio is not read as
	// the load's alone.
	Changed []string
}

// ConfigColumn is one side of a ConfigTable.
type ConfigColumn struct {
	Scenario Link
	Suite    string
	Load     string // "autocannon, 100 connections, pipelining 10"
}

// ConfigRow is one target under both configurations.
type ConfigRow struct {
	Target       Link
	Ref, Other   Num // medians, each linking to its cell
	Ratio        Num // Other ÷ Ref
	RefN, OtherN int
}

// loadConfig is what makes two measurements of one request comparable: the
// tool and how hard and how it loads (connections, pipelining). The window
// and the repetitions are said, but do not make a configuration.
type loadConfig struct {
	tool        string
	connections int
	pipelining  int
}

func (l loadConfig) String() string {
	s := l.tool
	if l.connections > 0 {
		s += fmt.Sprintf(", %d connections", l.connections)
	}
	if l.pipelining > 1 {
		s += fmt.Sprintf(", pipelining %d", l.pipelining)
	}
	return s
}

// configOf is the load configuration of a cell's repetitions; ok is false
// where they differ among themselves (a mixed cell is not one side of a
// comparison).
func configOf(c *verdict.Cell) (loadConfig, bool) {
	var l loadConfig
	for i, rep := range c.Reps {
		r := loadConfig{tool: rep.Tool, connections: rep.Connections, pipelining: max(rep.Pipelining, 1)}
		if i > 0 && r != l {
			return loadConfig{}, false
		}
		l = r
	}
	return l, len(c.Reps) > 0
}

// loadGroup is the cells of one scenario in one run under one configuration.
type loadGroup struct {
	scenario, run string
	config        loadConfig
	cells         []*verdict.Cell
}

// loadTables finds every scenario on show whose request is scenario s's
// (method and path) and, where they were measured under more than one load
// configuration, sets each other configuration beside the reference one:
// the configuration without pipelining that measured the most targets.
func (m *model) loadTables(p Page, s string) ([]ConfigTable, error) {
	request, _ := describeLoad(m.scenarioCells(s))
	if request == "" {
		return nil, nil
	}
	var groups []*loadGroup
	for _, s2 := range m.scenarios {
		cs := m.scenarioCells(s2)
		if r, _ := describeLoad(cs); r != request {
			continue
		}
		for _, c := range cs {
			l, ok := configOf(c)
			if !ok {
				continue
			}
			i := slices.IndexFunc(groups, func(g *loadGroup) bool { return g.scenario == s2 && g.run == c.Run && g.config == l })
			if i < 0 {
				groups = append(groups, &loadGroup{scenario: s2, run: c.Run, config: l})
				i = len(groups) - 1
			}
			groups[i].cells = append(groups[i].cells, c)
		}
	}
	if len(groups) < 2 {
		return nil, nil
	}
	// The reference: unpipelined first, then the most targets, then the order
	// the scenarios ran in.
	slices.SortStableFunc(groups, func(a, b *loadGroup) int {
		return cmp.Or(cmp.Compare(a.config.pipelining, b.config.pipelining), cmp.Compare(len(b.cells), len(a.cells)))
	})
	ref := groups[0]
	var out []ConfigTable
	var prose *template.HTML // pipelining.md, read once where a table needs it
	for _, g := range groups[1:] {
		if g.config == ref.config {
			continue
		}
		t := ConfigTable{Request: request, Ref: m.loadColumn(p, ref), Other: m.loadColumn(p, g)}
		var ratios []float64
		for _, c := range g.cells {
			i := slices.IndexFunc(ref.cells, func(r *verdict.Cell) bool { return r.Target == c.Target && r.Runtime == c.Runtime })
			if i < 0 {
				continue
			}
			a, b := ref.cells[i].Stat(m.metric), c.Stat(m.metric)
			if !a.Valid() || !b.Valid() || a.Median <= 0 {
				continue
			}
			r := b.Median / a.Median
			ratios = append(ratios, r)
			t.Rows = append(t.Rows, ConfigRow{
				Target: Link{Href: p.href(m.links.Target(c.Name)), Text: c.Name},
				Ref:    m.medianLink(p, ref.cells[i]),
				Other:  m.medianLink(p, c),
				Ratio:  Num{Text: Ratio(r), Sort: strconv.FormatFloat(r, 'g', 4, 64), Title: fmt.Sprintf("median %s ÷ median %s", Count(b.Median), Count(a.Median))},
				RefN:   a.N, OtherN: b.N,
			})
		}
		if len(t.Rows) == 0 {
			continue
		}
		t.Changed = m.runtimeChanges(ref, g)
		slices.SortFunc(t.Rows, func(a, b ConfigRow) int { return strings.Compare(a.Target.Text, b.Target.Text) })
		t.Spread = Ratio(slices.Min(ratios)) + " to " + Ratio(slices.Max(ratios))
		if ref.config.pipelining > 1 || g.config.pipelining > 1 {
			if prose == nil {
				src, file, err := m.content("pipelining.md")
				if err != nil {
					return nil, err
				}
				html, err := Markdown([]byte(src))
				if err != nil {
					return nil, fmt.Errorf("%s: %w", file, err)
				}
				prose = &html
			}
			t.Prose = *prose
		}
		out = append(out, t)
	}
	return out, nil
}

// loadColumn describes one side of a ConfigTable.
func (m *model) loadColumn(p Page, g *loadGroup) ConfigColumn {
	return ConfigColumn{Scenario: Link{Href: p.href(m.links.Scenario(g.scenario)), Text: g.scenario}, Load: g.config.String(), Suite: m.suiteName(g.run)}
}

// medianLink is a cell's median, linking to the cell on its target's page.
func (m *model) medianLink(p Page, c *verdict.Cell) Num {
	st := c.Stat(m.metric)
	return Num{
		Text:  Count(st.Median),
		Sort:  strconv.FormatFloat(st.Median, 'f', -1, 64),
		Href:  p.href(m.links.Target(c.Name)) + "#" + m.links.scenario[c.Scenario],
		Title: fmt.Sprintf("median of %d repetitions, run %s", st.N, c.Run),
	}
}

// runtimeChanges lists the runtimes whose version differs between the runs
// of two groups, among the runtimes their targets run on.
func (m *model) runtimeChanges(a, b *loadGroup) []string {
	ra, rb := m.runByID(a.run), m.runByID(b.run)
	if ra == nil || rb == nil || ra == rb {
		return nil
	}
	runtimes := map[string]bool{}
	for _, c := range a.cells {
		runtimes[c.Runtime] = true
	}
	var out []string
	for _, rt := range slices.Sorted(maps.Keys(runtimes)) {
		va, vb := ra.Tools[rt].Version, rb.Tools[rt].Version
		if va != "" && vb != "" && va != vb {
			out = append(out, fmt.Sprintf("%s %s in %s, %s in %s", rt, va, a.run, vb, b.run))
		}
	}
	return out
}
