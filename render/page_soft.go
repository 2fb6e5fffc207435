package render

import (
	"fmt"
	"html/template"
	"math"
	"strings"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/audit"
)

// SoftPage is "where these numbers are soft": the audit's findings in plain
// language, grouped by rule, and the publisher's caveats (content/caveats.md).
type SoftPage struct {
	Page
	Counts  string
	Groups  []FindingGroup
	Caveats template.HTML
	Floors  []FloorRow // the noise floor of every family, with its A/A pair
}

// FloorRow is one scenario of one run: the noise floor its verdicts had to
// clear, what it was made of, and what the run could resolve there.
type FloorRow struct {
	Run, Scenario Link
	Pair          string // "stdlib = stdlib-aa", "" without an A/A pair here
	AADiff        string // the A/A pair's difference of geometric means, "+3.1%"
	Systematic    string // the run's systematic A/A difference over its scenarios, "3.0%"
	Threshold     string
	Floor         string // the larger of the two, "12.0%"
	Power         string // the power statement, "" without one
}

// FindingGroup is the findings of one rule.
type FindingGroup struct {
	ID, Rule, Level string
	Doc             string // what the rule finds and what to do, from the audit's registry
	Items           []FindingItem
}

// FindingItem is one message with every place it applies to.
type FindingItem struct {
	Level   string
	Message string
	Places  []Link
	Dumps   []Link
	More    int // dumps not listed
}

const maxDumpLinks = 12

func (m *model) softPage() (*SoftPage, error) {
	p := &SoftPage{}
	p.Page = m.newPage("soft", "soft.html", "Where these numbers are soft")
	src, file, err := m.site.content("caveats.md")
	if err != nil {
		return nil, err
	}
	if p.Caveats, err = Markdown([]byte(src)); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	var counts [3]int
	index := map[string]int{}
	for _, f := range m.findings {
		if f.Level >= 0 && int(f.Level) < len(counts) {
			counts[f.Level]++
		}
		gi, ok := index[f.Rule]
		if !ok {
			gi = len(p.Groups)
			index[f.Rule] = gi
			rule, _ := audit.RuleByID(f.Rule)
			p.Groups = append(p.Groups, FindingGroup{ID: ruleAnchor(f.Rule), Rule: f.Rule, Level: f.Level.String(), Doc: rule.Doc})
		}
		g := &p.Groups[gi]
		item := m.findingItem(g, f)
		item.Places = append(item.Places, m.place(f))
		for _, d := range f.Dumps {
			if len(item.Dumps) >= maxDumpLinks {
				item.More++
				continue
			}
			item.Dumps = append(item.Dumps, Link{Href: m.links.Dump(parse.Source{File: d}), Text: d})
		}
	}
	p.Floors = m.floorRows()
	p.Counts = fmt.Sprintf("%s, %s, %s.", parse.Plural(counts[audit.LevelError], "error"), parse.Plural(counts[audit.LevelWarning], "warning"), parse.Plural(counts[audit.LevelInfo], "note"))
	return p, nil
}

// floorRows are the noise floors of every family on show, as the decision
// layer set them.
func (m *model) floorRows() []FloorRow {
	var out []FloorRow
	for _, sv := range m.dec.Scenarios {
		f := sv.Floor
		r := FloorRow{Run: Link{Text: sv.Run}, Scenario: Link{Href: m.links.Scenario(sv.Scenario), Text: sv.Scenario},
			Threshold: pct(f.Threshold), Floor: pct(f.Value), AADiff: "–", Systematic: "–", Power: m.powerText(sv)}
		if sv.Run == "" {
			r.Run.Text = "(no run)"
		}
		if f.Pair[0] != "" {
			r.Pair = f.Pair[0] + " = " + f.Pair[1]
		}
		if !math.IsNaN(f.AADiff) {
			r.AADiff = Percent(math.Expm1(f.AADiff))
		}
		if !math.IsNaN(f.Systematic) {
			r.Systematic = pct(f.Systematic)
		}
		out = append(out, r)
	}
	return out
}

// findingItem returns the item of g with f's message, adding one if new.
func (m *model) findingItem(g *FindingGroup, f audit.Finding) *FindingItem {
	for i := range g.Items {
		if g.Items[i].Message == f.Message && g.Items[i].Level == f.Level.String() {
			return &g.Items[i]
		}
	}
	g.Items = append(g.Items, FindingItem{Level: f.Level.String(), Message: f.Message})
	return &g.Items[len(g.Items)-1]
}

// place links a finding to the page it is about.
func (m *model) place(f audit.Finding) Link {
	var parts []string
	run := f.Run
	if m.primary[run] && len(m.runs) < 2 {
		run = "" // the run the site shows goes without saying
	}
	for _, s := range []string{run, f.Target, f.Scenario} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	l := Link{Text: strings.Join(parts, " / ")}
	if l.Text == "" {
		l.Text = "the whole set"
	}
	if !m.primary[f.Run] {
		return l
	}
	switch {
	case f.Target != "" && f.Scenario != "":
		if href := m.links.Target(f.Target); href != "" {
			l.Href = href + "#" + m.links.scenario[f.Scenario]
		}
	case f.Target != "":
		l.Href = m.links.Target(f.Target)
	case f.Scenario != "":
		if _, ok := m.links.scenario[f.Scenario]; ok {
			l.Href = m.links.Scenario(f.Scenario)
		}
	}
	return l
}
