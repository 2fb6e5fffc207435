package render

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fairbench/fairbench/parse/audit"
)

// headlineClaim is one ratio a headline card prints: a pair of cells of one
// run in one scenario.
type headlineClaim struct {
	card     int    // its card's place in the site's cards
	name     string // "elysia-bun ÷ express-node, ping"
	pair     string // "elysia-bun ÷ express-node"
	scenario string
	runs     [2]string
	names    [2]string
}

// headlineClaims are the ratios the site's cards print, subject ÷ baseline
// and subject ÷ each escape, in the cards' order, each once.
func (m *model) headlineClaims() []headlineClaim {
	var out []headlineClaim
	seen := map[string]bool{}
	add := func(card int, s, subject, other string, j Judgement) {
		a, b := j.Verdict.CellA, j.Verdict.CellB
		if a == nil || b == nil {
			return
		}
		c := headlineClaim{card: card, pair: subject + " ÷ " + other, scenario: s,
			runs: [2]string{a.Run, b.Run}, names: [2]string{a.Name, b.Name}}
		c.name = c.pair + ", " + s
		if !seen[c.name] {
			seen[c.name] = true
			out = append(out, c)
		}
	}
	for k, spec := range m.site.Cards {
		v := m.card(Page{}, spec)
		for _, r := range append(slices.Clone(v.Rows), v.EscapeRows...) {
			if r.HasBaseline {
				add(k, r.Scenario.Text, v.Subject.Text, v.Baseline.Text, r.J)
			}
			for _, e := range r.Escapes {
				add(k, r.Scenario.Text, v.Subject.Text, e.Name, e.J)
			}
		}
	}
	return out
}

// touchedBy says whether finding f bears on the claim: it is about one of
// the claim's runs (or every run), one of its two targets (or every target)
// and its scenario (or every scenario).
func (c headlineClaim) touchedBy(f audit.Finding) bool {
	return (f.Run == "" || f.Run == c.runs[0] || f.Run == c.runs[1]) &&
		(f.Target == "" || f.Target == c.names[0] || f.Target == c.names[1]) &&
		(f.Scenario == "" || f.Scenario == c.scenario)
}

// summarise orders the groups (errors first, then by the claims they touch,
// then by count) and writes one summary row per group, with a column per
// card.
func (m *model) summarise(p *SoftPage) {
	slices.SortStableFunc(p.Groups, func(a, b FindingGroup) int {
		return cmp.Or(-cmp.Compare(levelRank(a.Level), levelRank(b.Level)),
			-cmp.Compare(len(a.claims), len(b.claims)), -cmp.Compare(a.Count, b.Count))
	})
	claims := m.headlineClaims()
	for k, spec := range m.site.Cards {
		h := CardHead{Name: spec.Subject + " ÷ " + spec.Baseline}
		for _, c := range claims {
			if c.card == k {
				h.Total++
			}
		}
		p.Cards = append(p.Cards, h)
	}
	n := 0
	for gi := range p.Groups {
		g := &p.Groups[gi]
		for i := range g.Items {
			if len(g.Items[i].Dumps) > 0 || g.Items[i].Far {
				n++
				g.Items[i].ID = fmt.Sprintf("f%d", n)
			}
		}
		row := CauseRow{Group: Link{Href: "#" + g.ID, Text: g.Title}, Level: g.Level, Count: g.countText(),
			Claims: len(g.claims), Action: lastSentence(g.Doc)}
		per := make([]int, len(p.Cards))
		for _, c := range claims {
			if g.claims[c.name] {
				per[c.card]++
			}
		}
		for _, v := range per {
			cell := "–"
			if v > 0 {
				cell = strconv.Itoa(v)
			}
			row.PerCard = append(row.PerCard, cell)
		}
		switch {
		case g.Level == audit.LevelInfo.String():
			p.Notes = append(p.Notes, row)
		case g.Level == audit.LevelWarning.String() && row.Claims == 0:
			p.Aside = append(p.Aside, row)
		default:
			p.Summary = append(p.Summary, row)
		}
	}
	p.Causes, p.AsideCauses, p.NoteCauses = CauseTable{p.Summary, p.Cards}, CauseTable{p.Aside, p.Cards}, CauseTable{p.Notes, p.Cards}
}

// cutText is s cut at a word boundary to at most n characters, with "…"
// when cut.
func cutText(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n]
	if i := strings.LastIndexByte(string(r), ' '); i > 0 {
		return strings.TrimRight(string(r)[:i], ",;:") + " …"
	}
	return string(r) + "…"
}

// lastSentence is the last sentence of a rule's Doc: the action it asks for.
func lastSentence(doc string) string {
	doc = strings.TrimSpace(doc)
	body := strings.TrimSuffix(doc, ".")
	if i := strings.LastIndex(body, ". "); i >= 0 {
		return doc[i+2:]
	}
	return doc
}

// levelRank orders audit levels: error above warning above note.
func levelRank(level string) int {
	switch level {
	case audit.LevelError.String():
		return 3
	case audit.LevelWarning.String():
		return 2
	case audit.LevelInfo.String():
		return 1
	}
	return 0
}

// splitEvidence keeps a finding's message to at most limit characters:
// while it is longer, its longest parenthesised aside (the evidence a rule
// lists: every cell, every repetition) is taken out and left as a numbered
// mark, "[1]", numbered in the order the marks stand; evidence is the
// asides by number. A message still too long with no aside of minAside
// bytes left is cut at a word, its rest the last evidence.
func splitEvidence(msg string, limit int) (head string, evidence []string) {
	raw := msg // head with each aside taken out as asideMark k asideMark
	var taken []string
	for {
		head, evidence = numberAsides(raw, taken)
		if utf8.RuneCountInString(head) <= limit {
			return head, evidence
		}
		lo, hi := longestAside(raw)
		if hi-lo < minAside {
			break
		}
		taken = append(taken, raw[lo+1:hi-1])
		raw = raw[:lo] + asideMark + strconv.Itoa(len(taken)-1) + asideMark + raw[hi:]
	}
	r := []rune(head)
	i := limit
	for i > limit/2 && r[i] != ' ' {
		i--
	}
	return string(r[:i]) + " …", append(evidence, "… "+strings.TrimSpace(string(r[i:])))
}

// minAside is the shortest aside splitEvidence takes out: a shorter one
// ("(rep 1)") reads better where it stands, and a message of many short
// ones is cut instead.
const minAside = 60

// asideMark brackets the number of an aside taken out of a message.
const asideMark = "\x00"

// numberAsides writes raw's marks as "[1]", "[2]", … in the order they
// stand, and returns the asides in that order.
func numberAsides(raw string, taken []string) (string, []string) {
	if len(taken) == 0 {
		return raw, nil
	}
	var b strings.Builder
	var evidence []string
	for i, p := range strings.Split(raw, asideMark) {
		if i%2 == 0 {
			b.WriteString(p)
			continue
		}
		k, _ := strconv.Atoi(p)
		evidence = append(evidence, taken[k])
		fmt.Fprintf(&b, "[%d]", len(evidence))
	}
	return b.String(), evidence
}

// longestAside is the byte range of the longest top-level parenthesised
// part of s, brackets included; lo == hi when there is none.
func longestAside(s string) (lo, hi int) {
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			if depth == 0 {
				start = i
			}
			depth++
		case ')':
			if depth == 0 {
				continue
			}
			if depth--; depth == 0 && i+1-start > hi-lo {
				lo, hi = start, i+1
			}
		}
	}
	return lo, hi
}

// addDump adds the dump at file (its page at href) to groups, under its
// folder: "bun-serve/json/latency-25pct" then "1", "2", "3".
func addDump(groups []DumpGroup, file, href string) []DumpGroup {
	dir, name := path.Split(file)
	dir = strings.TrimSuffix(dir, "/")
	if _, rest, ok := strings.Cut(dir, "/dumps/"); ok {
		dir = rest
	}
	rep := Link{Href: href, Text: strings.TrimSuffix(name, ".txt")}
	if n := len(groups); n > 0 && groups[n-1].Dir == dir {
		groups[n-1].Reps = append(groups[n-1].Reps, rep)
		return groups
	}
	return append(groups, DumpGroup{Dir: dir, Reps: []Link{rep}})
}

// SoftDumpsPage lists the dumps of every finding of the soft page that
// names some, and the evidence too long to show there, each under its
// anchor (soft.html links each such finding here), so that the findings
// page stays light.
type SoftDumpsPage struct {
	Page
	Items []FindingItem
}

// dumpsPage is the dumps page of the findings on p.
func (m *model) softDumpsPage(p *SoftPage) *SoftDumpsPage {
	d := &SoftDumpsPage{Page: m.newPage("soft-dumps", "soft-dumps.html", "The evidence and dumps behind each finding")}
	for _, g := range p.Groups {
		for _, it := range g.Items {
			if it.ID != "" {
				if !it.Far { // far evidence's [n] marks stand in the message
					it.Message = cutText(it.Message, 200)
				}
				d.Items = append(d.Items, it)
			}
		}
	}
	return d
}
