package render

import (
	"cmp"
	"fmt"
	"html/template"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/audit"
)

// SoftPage is "where these numbers are soft": first a summary, one row per
// cause (audit rule) with its count, the headline card ratios it touches
// and the action it asks for, short enough for one screen; then the
// publisher's caveats (content/caveats.md) and the noise floors; then every
// finding in full, grouped by cause, each group collapsed.
type SoftPage struct {
	Page
	Counts string
	Claims int        // the headline card ratios on show
	Cards  []CardHead // the summary's columns: each card's ratios
	// Summary is one row per group with an error, or with a warning that
	// bears on a headline ratio, in the order of Groups.
	Summary []CauseRow
	// Aside are the groups of warnings that bear on no headline ratio, and
	// Notes the groups of notes alone, in the order of Groups: each folded
	// under the summary, so that what asks for action on the headline
	// fills the first screen.
	Aside, Notes []CauseRow
	// Causes, AsideCauses and NoteCauses are Summary, Aside and Notes with
	// the card columns, as the summary's three tables print them.
	Causes, AsideCauses, NoteCauses CauseTable
	Groups                          []FindingGroup
	Caveats                         template.HTML
	Floors                          []FloorRow // the noise floor of every family, with its A/A pair
}

// FloorRow is one scenario of one run: the noise floor its verdicts had to
// clear, what it was made of, and what the run could resolve there.
type FloorRow struct {
	Run, Scenario Link
	Pair          string // "stdlib = stdlib-aa", "" without an A/A pair here
	AADiff        string // the A/A pair's difference of geometric means, second ÷ first − 1: "+3.1%"
	Systematic    string // the run's systematic A/A difference over its scenarios, "3.0%"
	Threshold     string
	Floor         string // the larger of the two, "12.0%"
	Power         string // the power statement, "" without one
	// Span is the rows of this run from this one on, on its first row (its
	// run, pair, systematic difference and threshold are printed once);
	// 0 on the others.
	Span int
}

// FindingGroup is the findings of one rule.
type FindingGroup struct {
	ID, Rule, Level string
	Title           string // the rule in a reader's words (audit.Rule.Title)
	Doc             string // what the rule finds and what to do, from the audit's registry
	Count           int    // findings, before equal messages are merged
	Items           []FindingItem
	claims          map[string]bool // the headline claims its findings touch
	byLevel         map[string]int  // Count by level: a rule may find warnings and notes
}

// countText is g's count as the summary prints it: "12", or by level
// where the rule found more than one ("6 warnings, 6 notes"), so that the
// rows, read under their badges, add up to the page's totals.
func (g *FindingGroup) countText() string {
	if len(g.byLevel) < 2 {
		return strconv.Itoa(g.Count)
	}
	var parts []string
	for _, lv := range []audit.Level{audit.LevelError, audit.LevelWarning, audit.LevelInfo} {
		if n := g.byLevel[lv.String()]; n > 0 {
			parts = append(parts, parse.Plural(n, levelNoun[lv]))
		}
	}
	return strings.Join(parts, ", ")
}

// levelNoun is a finding of a level, as the page's totals count it.
var levelNoun = map[audit.Level]string{audit.LevelError: "error", audit.LevelWarning: "warning", audit.LevelInfo: "note"}

// FindingItem is one message with every place it applies to. Message is at
// most maxFindingText characters: the evidence a long message lists goes to
// Evidence, shown collapsed, or on the companion page (soft-dumps.html)
// when it is longer than maxInlineEvidence, so that one finding cannot
// make the findings page heavy.
type FindingItem struct {
	Level    string
	Message  string
	Evidence []string
	Far      bool // Evidence is shown on the companion page, not here
	Places   []Link
	More     []Link // places past maxPlaces, shown collapsed
	// ID anchors the item's dumps and far evidence on the companion page
	// (soft-dumps.html), which lists them so that this page stays light.
	ID      string
	Dumps   []DumpGroup
	NDumps  int    // dumps listed
	Hidden  int    // dumps not listed
	Rule    Link   // the group on soft.html, for the dumps page
	message string // the whole message, which tells items apart
}

// DumpGroup is the dumps of one folder (a cell, or a phase point of it):
// the folder once, then each repetition's file by its name.
type DumpGroup struct {
	Dir  string
	Reps []Link
}

// CauseRow is one cause in the summary: how many findings it has, how many
// of each card's headline ratios (claims) they touch, and what it asks for.
type CauseRow struct {
	Group   Link // to the group below
	Level   string
	Count   string   // findings, by level where the rule found several
	Claims  int      // headline claims touched, over every card
	PerCard []string // claims touched on each card of SoftPage.Cards, "–" for none
	Action  string   // the last sentence of the rule's Doc
}

// CauseTable is rows of the summary with the cards' columns.
type CauseTable struct {
	Rows  []CauseRow
	Cards []CardHead
}

// CardHead heads a card's column in the summary: the card as subject ÷
// baseline, and how many ratios it prints.
type CardHead struct {
	Name  string
	Total int
}

const (
	maxDumpLinks   = 24 // per finding, on the dumps page
	maxPlaces      = 8
	maxFindingText = 600 // characters of a finding's message shown before its evidence
	// maxItemText is the most characters a finding shows before its
	// details: its message, the note that its evidence is on the
	// companion page, its places. A message gives way to what stands
	// beside it, down to minFindingText.
	maxItemText    = 700
	minFindingText = 300
	// maxInlineEvidence is the most characters of evidence a finding
	// carries on soft.html; longer evidence is on the companion page.
	maxInlineEvidence = 1200
)

func (m *model) softPage() (*SoftPage, error) {
	p := &SoftPage{}
	p.Page = m.newPage("soft", "soft.html", "Where these numbers are soft")
	src, file, err := m.content("caveats.md")
	if err != nil {
		return nil, err
	}
	if p.Caveats, err = Markdown([]byte(src)); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	var counts [3]int
	index := map[string]int{} // rule → its group
	claims := m.headlineClaims()
	for _, f := range m.findings {
		if f.Level >= 0 && int(f.Level) < len(counts) {
			counts[f.Level]++
		}
		gi, ok := index[f.Rule]
		if !ok {
			gi = len(p.Groups)
			index[f.Rule] = gi
			rule, _ := audit.RuleByID(f.Rule)
			p.Groups = append(p.Groups, FindingGroup{ID: ruleAnchor(f.Rule), Rule: f.Rule, Title: cmp.Or(rule.Title, f.Rule), Level: f.Level.String(), Doc: rule.Doc, byLevel: map[string]int{}})
		}
		g := &p.Groups[gi]
		g.Count++
		g.byLevel[f.Level.String()]++
		if lv := f.Level.String(); levelRank(lv) > levelRank(g.Level) {
			g.Level = lv
		}
		item := m.findingItem(g, f)
		if pl := m.place(f); len(item.Places) < maxPlaces {
			item.Places = append(item.Places, pl)
		} else {
			item.More = append(item.More, pl)
		}
		for _, d := range f.Dumps {
			if item.NDumps >= maxDumpLinks {
				item.Hidden++
				continue
			}
			item.NDumps++
			item.Dumps = addDump(item.Dumps, d, m.links.Dump(parse.Source{File: d}))
		}
		for _, c := range claims {
			if c.touchedBy(f) {
				if g.claims == nil {
					g.claims = map[string]bool{}
				}
				g.claims[c.name] = true
			}
		}
	}
	for gi := range p.Groups {
		for i := range p.Groups[gi].Items {
			p.Groups[gi].Items[i].fit()
		}
	}
	p.Claims = len(claims)
	m.summarise(p)
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
		// A run with a pair per runtime lists each, with its own
		// difference, oriented as the comparison tables orient a pair:
		// the twin (the second name) ÷ the first, so both pages print one
		// sign.
		var pairs, diffs []string
		measured := false
		for i, p := range f.Pairs {
			pairs = append(pairs, p[0]+" = "+p[1])
			d := "–"
			if !math.IsNaN(f.PairDiffs[i]) {
				d, measured = Percent(math.Expm1(-f.PairDiffs[i])), true
			}
			diffs = append(diffs, d)
		}
		r.Pair = strings.Join(pairs, ", ")
		if measured {
			r.AADiff = strings.Join(diffs, ", ")
		}
		if !math.IsNaN(f.Systematic) {
			r.Systematic = pct(f.Systematic)
		}
		out = append(out, r)
	}
	for i := 0; i < len(out); {
		j := i + 1
		for j < len(out) && out[j].Run == out[i].Run && out[j].Pair == out[i].Pair && out[j].Systematic == out[i].Systematic && out[j].Threshold == out[i].Threshold {
			j++
		}
		out[i].Span = j - i
		i = j
	}
	return out
}

// CompanionText names what the companion page holds of the item: its
// evidence, its dumps or both.
func (it FindingItem) CompanionText() string {
	switch {
	case it.Far && len(it.Dumps) > 0:
		return "its evidence and dumps"
	case it.Far:
		return "its evidence"
	}
	return "its dumps"
}

// findingItem returns the item of g with f's message, adding one if new.
func (m *model) findingItem(g *FindingGroup, f audit.Finding) *FindingItem {
	for i := range g.Items {
		if g.Items[i].message == f.Message && g.Items[i].Level == f.Level.String() {
			return &g.Items[i]
		}
	}
	g.Items = append(g.Items, FindingItem{Level: f.Level.String(), message: f.Message, Rule: Link{Href: "soft.html#" + g.ID, Text: g.Title}})
	it := &g.Items[len(g.Items)-1]
	it.split(maxFindingText)
	return it
}

// fit shortens the item's message where, with what stands beside it
// (besideText), the item would show more than maxItemText characters
// before its details.
func (it *FindingItem) fit() {
	limit := maxFindingText
	for {
		room := maxItemText - it.besideText()
		if utf8.RuneCountInString(it.Message) <= room || limit <= minFindingText {
			return
		}
		limit = max(min(room, limit-1), minFindingText)
		it.split(limit)
	}
}

// split cuts the item's message to at most limit characters, the rest its
// evidence, on the companion page where that is long.
func (it *FindingItem) split(limit int) {
	head, evidence := splitEvidence(it.message, limit)
	chars := 0
	for _, e := range evidence {
		chars += utf8.RuneCountInString(e)
	}
	it.Message, it.Evidence, it.Far = head, evidence, chars > maxInlineEvidence
}

// besideText counts the characters soft.html shows of the item beside its
// message and before its details: the companion page's note where its
// evidence is there, and its places line (themes/default/soft.html).
func (it *FindingItem) besideText() int {
	n := 0
	if it.Far {
		n += utf8.RuneCountInString("Its evidence ("+it.EvidenceCount()+") is on the companion page.") + 1
	}
	n += len("At: ") + 1
	for i, p := range it.Places {
		if i > 0 {
			n += len(", ")
		}
		n += utf8.RuneCountInString(p.Text)
	}
	if len(it.Dumps) > 0 || it.Far {
		n += len(" · ") + len(it.CompanionText())
	}
	return n
}

// EvidenceCount counts the item's evidence: "1 note", "3 notes".
func (it FindingItem) EvidenceCount() string {
	return parse.Plural(len(it.Evidence), "note")
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
