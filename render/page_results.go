package render

import (
	"fmt"
)

// ResultsPage is every target in every scenario, and the comparisons the
// site declares.
type ResultsPage struct {
	Page
	Metric      string
	Scenarios   []Link
	Rows        []ResultsRow
	GeoNote     string
	Comparisons []ComparisonView
}

// ResultsRow is one target across scenarios.
type ResultsRow struct {
	Target  Link
	Runtime string
	Cells   []ResultsCell
	Geo     Num
}

// ResultsCell is one median with its rank range in its scenario and run.
type ResultsCell struct {
	Value Num
	Rank  Num
	Class string
}

// ComparisonView is a site.toml comparison: pairs with their change.
type ComparisonView struct {
	Title, Note, Change string
	Scenarios           []string
	Rows                []ComparisonRow
	Missing             string
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

func (m *model) resultsPage() *ResultsPage {
	p := &ResultsPage{Metric: m.metric.String()}
	p.Page = m.newPage("results", "results.html", "All results")
	p.Script = true
	for _, s := range m.scenarios {
		p.Scenarios = append(p.Scenarios, Link{Href: m.links.Scenario(s), Text: s})
	}
	geo := map[string]float64{}
	for _, e := range m.geo.Entries {
		geo[e.Name] = e.Value
	}
	for _, name := range m.names {
		r := ResultsRow{Target: Link{Href: m.links.Target(name), Text: name}, Runtime: m.runtimeOf(name)}
		for _, s := range m.scenarios {
			c := m.cell(s, name)
			if c == nil {
				r.Cells = append(r.Cells, ResultsCell{Value: Num{Text: "–", Sort: "-1", Title: "not measured"}})
				continue
			}
			rc := ResultsCell{Value: statNum(c.Stat(m.metric), m.links.Target(name)+"#"+m.links.scenario[s])}
			if r := m.ranks[c]; r.Ranked {
				rc.Rank = m.rankNum(c)
				if r.Hi == 1 && len(m.family(c).Ranks) > 1 {
					rc.Class = "top" // judged faster than every other target of its run
				}
			}
			r.Cells = append(r.Cells, rc)
		}
		if v, ok := geo[name]; ok {
			r.Geo = Num{Text: Count(v)}
		} else {
			r.Geo = Num{Text: "–", Sort: "-1"}
		}
		p.Rows = append(p.Rows, r)
	}
	if len(m.geo.Scenarios) > 0 {
		p.GeoNote = fmt.Sprintf("geometric mean over %d scenarios", len(m.geo.Scenarios))
	}
	for _, spec := range m.site.Comparisons {
		p.Comparisons = append(p.Comparisons, m.comparison(spec))
	}
	return p
}

func (m *model) comparison(spec ComparisonSpec) ComparisonView {
	v := ComparisonView{Title: spec.Title, Note: spec.Note, Change: spec.Change, Scenarios: m.scenarios}
	if v.Change == "" {
		v.Change = "change"
	}
	var missing []string
	for _, pair := range spec.Pairs {
		from, ok1 := m.resolve(pair[0])
		to, ok2 := m.resolve(pair[1])
		if !ok1 {
			missing = append(missing, pair[0])
		}
		if !ok2 {
			missing = append(missing, pair[1])
		}
		if !ok1 || !ok2 {
			continue
		}
		row := ComparisonRow{From: Link{Href: m.links.Target(from), Text: from}, To: Link{Href: m.links.Target(to), Text: to}}
		for _, s := range m.scenarios {
			a, b := m.cell(s, from), m.cell(s, to)
			if a == nil || b == nil {
				row.Cells = append(row.Cells, ComparisonCell{Change: "–", Title: "not measured in both"})
				continue
			}
			j, ok := m.judge(a, b)
			if !ok {
				row.Cells = append(row.Cells, ComparisonCell{Change: "–", Title: "no verdict"})
				continue
			}
			cell := ComparisonCell{From: Count(a.Stat(m.metric).Median), To: Count(b.Stat(m.metric).Median), Measured: true,
				Change: j.Change, Class: j.Dir, Title: j.Title, J: j}
			if j.Mark != "" {
				cell.Change = j.Mark + " " + j.Change
			}
			row.Cells = append(row.Cells, cell)
		}
		v.Rows = append(v.Rows, row)
	}
	if len(missing) > 0 {
		v.Missing = "Not in this run: " + joinComma(missing)
	}
	return v
}
