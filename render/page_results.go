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
	// CellRows are the long table (results_cells.go); Languages,
	// Runtimes and the scenarios are its filters' choices.
	CellRows  []CellRow
	Languages []string
	Runtimes  []string
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
	p.Comparisons = m.comparisons()
	p.CellRows, p.Languages, p.Runtimes = m.cellRows(p.Page)
	return p
}
