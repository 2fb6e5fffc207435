package render

import (
	"fmt"
	"html/template"
	"math"
	"slices"
	"strings"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/audit"
	"github.com/fairbench/fairbench/parse/verdict"

	"github.com/samber/lo"
)

// Page is what every page template receives besides its own fields: where
// the page sits, the site's name and navigation. Every href a page carries
// is relative to the page itself, so the site works from any folder and
// from file://.
type Page struct {
	Template string // the theme template that draws the page
	Path     string // the page's path under the site root, e.g. "scenario/ping.html"
	Root     string // "" or "../": from the page to the site root
	Title    string // the page's own title
	Site     string // the site's title
	Nav      []Link
	Sections []Link // the scenarios, for the second navigation row
	Footer   string
	Script   bool // the page has something the site script improves
}

// Link is an href (relative to the page) with its text and a tooltip.
type Link struct {
	Href, Text, Title string
	Current           bool
}

// Num is a number as a table shows it: its text, a sort key and a link to
// where it came from.
type Num struct {
	Text  string
	Sort  string // the unrounded value for the sort script, "" for none
	Href  string // to the dump or page it came from, "" for none
	Title string
}

// Badge marks findings on a cell or a page.
type Badge struct {
	Class, Text, Title, Href string
}

// newPage starts a page at path.
func (m *model) newPage(tmpl, path, title string) Page {
	p := Page{Template: tmpl, Path: path, Title: title, Site: m.site.Title}
	p.Root = strings.Repeat("../", strings.Count(path, "/"))
	for _, n := range []struct{ href, text string }{
		{"index.html", "Overview"},
		{"results.html", "All results"},
		{"soft.html", "Where these numbers are soft"},
		{"methodology.html", "Methodology"},
		{"conformance.html", "Conformance"},
		{"history.html", "History"},
		{"downloads.html", "Downloads"},
	} {
		p.Nav = append(p.Nav, Link{Href: p.Root + n.href, Text: n.text, Current: n.href == path})
	}
	for _, s := range append(slices.Clip(m.scenarios), m.openScenarios...) {
		href := m.links.Scenario(s)
		p.Sections = append(p.Sections, Link{Href: p.Root + href, Text: s, Current: href == path})
	}
	p.Footer = m.footer()
	return p
}

// footer says what the site was built from; only times from the run itself.
func (m *model) footer() string {
	dumps := 0
	for _, c := range m.cells {
		dumps += len(c.Reps)
	}
	s := fmt.Sprintf("Built by fairbench from %d measurements", dumps)
	switch len(m.runs) {
	case 0:
		s += " in dumps outside a fairbench run dir"
	case 1:
		s += fmt.Sprintf(" of run %s (started %s)", m.runInfo.ID, m.runInfo.Start.UTC().Format("2006-01-02 15:04 MST"))
	default:
		// Run IDs are for the methodology and downloads pages; a reader's
		// footer says how many runs and when.
		oldest := m.runs[0].Start
		for _, r := range m.runs {
			if r.Start.Before(oldest) {
				oldest = r.Start
			}
		}
		s += fmt.Sprintf(" of %d runs, started from %s to %s", len(m.runs), oldest.UTC().Format("2006-01-02 15:04"), m.runInfo.Start.UTC().Format("2006-01-02 15:04 MST"))
	}
	return s + ". Every number links to the dump it came from."
}

// href makes a root-relative href relative to page p.
func (p Page) href(rootRelative string) string {
	if rootRelative == "" {
		return ""
	}
	return p.Root + rootRelative
}

// statNum is a median with a link and an interval tooltip.
func statNum(s verdict.Stat, href string) Num {
	if s.N == 0 || math.IsNaN(s.Median) {
		return Num{Text: "–"}
	}
	return Num{Text: Count(s.Median), Href: href, Title: intervalText(s)}
}

// interval is the median's confidence interval when n allows one, else
// the min–max of the repetitions, and a label saying which of them it is:
// "95% confidence interval of the median" or "min–max of 4 repetitions",
// never a level for a range that has none.
func interval(s verdict.Stat) (lo, hi float64, label string) {
	if s.N == 0 {
		return 0, 0, ""
	}
	if !math.IsInf(s.Lo, 0) && !math.IsInf(s.Hi, 0) && !math.IsNaN(s.Lo) && s.Confidence > 0 {
		return s.Lo, s.Hi, intervalLevelLabel(s.Confidence) + " confidence interval of the median"
	}
	return s.Min, s.Max, "min–max of " + parse.Plural(s.N, "repetition")
}

// shortIntervalLabel names an interval in a table cell: "95% CI" or
// "min–max, n=4".
func shortIntervalLabel(s verdict.Stat) string {
	if _, _, label := interval(s); strings.HasPrefix(label, "min–max") {
		return fmt.Sprintf("min–max, n=%d", s.N)
	}
	return intervalLevelLabel(s.Confidence) + " CI"
}

func intervalText(s verdict.Stat) string {
	lo, hi, label := interval(s)
	if label == "" {
		return ""
	}
	return fmt.Sprintf("%s–%s (%s)", Count(lo), Count(hi), label)
}

// badges turns findings into badges linking to the soft page.
func badges(p Page, fs []audit.Finding) []Badge {
	var out []Badge
	seen := map[string]bool{}
	for _, f := range fs {
		if seen[f.Rule] {
			continue
		}
		seen[f.Rule] = true
		// The badge reads in a reader's words; the rule's ID, which the
		// audit command and results.json use, is in its title.
		out = append(out, Badge{
			Class: "badge " + f.Level.String(), Text: ruleTitle(f.Rule), Title: f.Level.String() + " (" + f.Rule + ")",
			Href: p.href("soft.html#" + ruleAnchor(f.Rule)),
		})
	}
	return out
}

// notable are the findings at warning level and above: the ones a row
// carries as a badge. Notes (info) are gathered per scenario instead.
func notable(fs []audit.Finding) []audit.Finding {
	return lo.Filter(fs, func(f audit.Finding, _ int) bool { return f.Level >= audit.LevelWarning })
}

// worst is the highest level in fs, -1 for none.
func worst(fs []audit.Finding) audit.Level {
	l := audit.Level(-1)
	for _, f := range fs {
		l = max(l, f.Level)
	}
	return l
}

func ruleAnchor(rule string) string { return "rule-" + slug(rule) }

// ruleTitle is the audit rule's title, the words pages show a reader; its
// ID (what the audit command and results.json say) where it has none.
func ruleTitle(rule string) string {
	if r, ok := audit.RuleByID(rule); ok && r.Title != "" {
		return r.Title
	}
	return rule
}

// argv quotes a command line for display, as a shell would need it.
func argv(args []string) string {
	out := make([]string, len(args))
	for i, a := range publicArgv(args) {
		// A leading ~/ is left bare: a shell expands it to the home folder
		// publicPath put it for.
		if rest, home := strings.CutPrefix(a, "~/"); a == "" || strings.ContainsAny(rest, " \t\n'\"\\$`*?[]{}()<>|&;#~") || !home && strings.HasPrefix(a, "~") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out[i] = a
	}
	return strings.Join(out, " ")
}

// noescape marks HTML made by goldmark in safe mode, or by this package,
// as safe for templates.
func noescape(s string) template.HTML { return template.HTML(s) } //nolint:gosec // see callers
