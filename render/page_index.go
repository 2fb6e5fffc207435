package render

import (
	"fmt"
	"strings"

	"github.com/fairbench/fairbench/parse/audit"
)

// IndexPage is the front page: headline cards, the scenarios at a glance,
// the geometric mean, and how soft the numbers are.
type IndexPage struct {
	Page
	Description string
	Summary     string
	Cards       []CardView
	Comparisons []ComparisonView // the site's tables, each a question answered
	Scenarios   []ScenarioSummary
	Geo         *BarChart
	GeoNote     string
	Errors      int
	Warnings    int
	Infos       int
}

// CardView is a headline card: subject ÷ baseline in each scenario, and
// subject ÷ each escape beside it. A card whose baseline the run lacks
// still shows the escapes, and says why the baseline is not there.
type CardView struct {
	Title             string
	Subject, Baseline Link      // Baseline.Text is "" when the run lacks it
	Rows              []CardRow // the scenarios where subject and baseline were both measured
	// EscapeRows are the scenarios where the baseline was not measured
	// (all of them when the run lacks it): the subject against the escapes.
	EscapeRows []CardRow
	Escapes    []Link // the alternative baselines the run has, in order
	Missing    string // names the card asked for that the run lacks
	NoBaseline string // said in place of the ratios when the run lacks the baseline (or the subject)
	Apart      string // the pairs measured in different runs, which no verdict compares
	Read       string // how to read the card
	Note       string // the site's own sentence on it
}

// CardRow is one scenario of a card.
type CardRow struct {
	Scenario          Link
	J                 Judgement // subject ÷ baseline, as the decision layer judged it
	HasBaseline       bool      // J and Baseline are set: the baseline was measured here
	Subject, Baseline string    // raw medians, req/s
	Escapes           []CardFigure
}

// CardFigure is the subject against one alternative baseline.
type CardFigure struct {
	Name, Value string
	J           Judgement
}

// ScenarioSummary is one scenario on the index.
type ScenarioSummary struct {
	Link    Link
	Request string
	Targets int
	Top     string // the targets whose rank range starts at 1: none judged faster
	Leader  string // the highest median
	Badges  []Badge
	// Chart shows the highest indexChartBars medians; the scenario page has all.
	Chart BarChart
	More  int // targets left out of Chart
}

// indexChartBars bounds the bars of an index chart, so that the front page
// stays light with many targets; the targets of the cards are drawn
// whatever their place.
const indexChartBars = 16

func (m *model) indexPage() *IndexPage {
	p := &IndexPage{Description: m.site.Description}
	p.Page = m.newPage("index", "index.html", m.site.Title)
	meas := 0
	for _, c := range m.cells {
		meas += len(c.Reps)
	}
	p.Summary = fmt.Sprintf("%d targets, %d scenarios, %d measurements.", len(m.names), len(m.scenarios), meas)
	for _, spec := range m.site.Cards {
		p.Cards = append(p.Cards, m.card(p.Page, spec))
	}
	p.Comparisons = m.comparisons()
	keep := m.cardTargets()
	for _, s := range m.scenarios {
		cs := m.scenarioCells(s)
		sum := ScenarioSummary{Link: Link{Href: m.links.Scenario(s), Text: s}, Targets: len(cs)}
		sum.Request, _ = describeLoad(cs)
		var top []string
		for _, c := range cs {
			if r := m.ranks[c]; r.Ranked && r.Lo == 1 {
				top = append(top, c.Name)
			}
		}
		sum.Top = strings.Join(top, ", ")
		if len(m.runsIn(s)) > 1 {
			sum.Top += " (each run ranked apart)"
		}
		if len(cs) > 0 {
			l := cs[0]
			for _, c := range cs {
				if c.Stat(m.metric).Median > l.Stat(m.metric).Median {
					l = c
				}
			}
			sum.Leader = fmt.Sprintf("%s, %s %s", l.Name, Count(l.Stat(m.metric).Median), m.metric)
		}
		sum.Badges = badges(p.Page, m.scenarioFindings(s))
		var bars []BarInput
		for i, c := range cs {
			if i >= indexChartBars && !keep[c.Name] {
				sum.More++
				continue
			}
			bars = append(bars, m.barInput(p.Page, c))
		}
		sum.Chart = NewBarChart("index-chart-"+m.links.scenario[s], fmt.Sprintf("%s: %s, median of repetitions", s, m.metric), bars)
		p.Scenarios = append(p.Scenarios, sum)
	}
	p.Geo, p.GeoNote = m.geoChart(p.Page)
	for _, f := range m.findings {
		switch f.Level {
		case audit.LevelError:
			p.Errors++
		case audit.LevelWarning:
			p.Warnings++
		default:
			p.Infos++
		}
	}
	return p
}

// geoChart is the geometric mean of medians across the scenarios every
// target has.
func (m *model) geoChart(p Page) (*BarChart, string) {
	g := m.geo
	if len(g.Entries) < 2 || len(g.Scenarios) < 2 {
		return nil, ""
	}
	var bars []BarInput
	for _, e := range g.Entries {
		bars = append(bars, BarInput{Label: e.Name, Href: p.href(m.links.Target(e.Name)), Median: e.Value, Unit: m.metric.String(),
			What: fmt.Sprintf("geometric mean over %d scenarios of the median", len(g.Scenarios))})
	}
	c := NewBarChart("chart-geomean", fmt.Sprintf("Geometric mean of median %s across %s", m.metric, strings.Join(g.Scenarios, ", ")), bars)
	note := fmt.Sprintf("Geometric mean of each target's medians over %s. It ranks nothing and claims no difference: verdicts are made per scenario, within each run; see each scenario's ranks.", strings.Join(g.Scenarios, ", "))
	if len(g.Dropped) > 0 {
		note += fmt.Sprintf(" Left out, as some target has no number there: %s.", strings.Join(g.Dropped, ", "))
	}
	return &c, note
}
