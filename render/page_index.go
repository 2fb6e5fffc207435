package render

import (
	"fmt"
	"strings"

	"github.com/fairbench/fairbench/parse/audit"
)

// IndexPage is the front page. It answers first: per run on show, what the
// run can say in a sentence, a heat map of every target against each
// scenario's reference and one chart of that run; then the headline cards,
// a line per scenario with the detail a click away; then the site's
// comparison tables, the scenarios, and how soft the numbers are. The
// per-scenario charts are on the scenario pages.
type IndexPage struct {
	Page
	Description string
	Summary     string
	// Answers are the site's questions answered, first on the page.
	Answers []AnswerBox
	// Margin is the equivalence margin of every family on show ("10%"),
	// "" when they differ or none has one.
	Margin      string
	Runs        []RunSummary
	Cards       []CardView
	Comparisons []ComparisonView // the site's tables, each a question answered
	Scenarios   []ScenarioSummary
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
	Leader  string // the highest geometric mean, of targets not left unranked for their errors
	Badges  []Badge
}

// maxTopNames bounds the names the "may rank first" column lists; past it
// the column counts them, as a long list says only that the run could not
// tell the leaders apart.
const maxTopNames = 4

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
	p.Answers = m.answers(p.Page)
	p.Margin = m.sharedMargin()
	p.Runs = m.runSummaries(p.Page, answeredRuns(p.Answers))
	p.Comparisons = m.comparisons()
	for _, s := range m.scenarios {
		cs := m.scenarioCells(s)
		// Targets counts names: a target two runs measured here is one
		// target; the top is said per run, as each run is ranked apart.
		distinct := map[string]bool{}
		for _, c := range cs {
			distinct[c.Name] = true
		}
		sum := ScenarioSummary{Link: Link{Href: m.links.Scenario(s), Text: s}, Targets: len(distinct)}
		sum.Request, _ = describeLoad(cs)
		runs := m.runsIn(s)
		var tops []string
		for _, run := range runs {
			var top []string
			n := 0
			for _, c := range cs {
				if c.Run != run {
					continue
				}
				n++
				if r := m.ranks[c]; r.Ranked && r.Lo == 1 {
					top = append(top, c.Name)
				}
			}
			t := strings.Join(top, ", ")
			if len(top) > maxTopNames {
				t = fmt.Sprintf("%d of %d: not told apart", len(top), n)
			}
			if len(runs) > 1 && t != "" {
				t += " (" + m.suiteName(run) + ")"
			}
			if t != "" {
				tops = append(tops, t)
			}
		}
		sum.Top = strings.Join(tops, "; ")
		sum.Leader = m.leaderText(cs)
		sum.Badges = badges(p.Page, m.scenarioFindings(s))
		p.Scenarios = append(p.Scenarios, sum)
	}
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
