package render

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/fairbench/fairbench/parse/verdict"
)

// The index opens on the questions readers come with (site.toml's
// [[question]]s: which Go framework is fastest for plain JSON, which on
// Node, on Bun, with a database), each answered in a box: the targets that
// lead among the question's runtimes, how small a difference this run
// could tell apart there, and which pairs it showed equivalent. A box reads
// the decided model and decides nothing: its lead is the targets no other
// target of the question was claimed faster than.

// AnswerBox is one question on the index, answered.
type AnswerBox struct {
	Title string
	Lines []AnswerLine
	// Empty is said in place of Lines when no run on show measured two
	// of the question's targets in any of its scenarios.
	Empty string
}

// AnswerLine is a question's answer in one scenario, from one run.
type AnswerLine struct {
	Scenario Link
	Run      Link   // the run's summary further down the index
	Lead     []Link // the targets no other of the question's was claimed faster than
	Sentence string // the lead's standing, the next target, and equivalences
	Resolves string // the smallest difference the family tells apart, "7.7%"; "" where it has no power to say
	Among    int    // the question's targets measured and ranked here
	runID    string
}

// answers are the site's questions, answered from the runs on show.
func (m *model) answers(p Page) []AnswerBox {
	var out []AnswerBox
	for _, q := range m.site.Questions {
		box := AnswerBox{Title: q.Title}
		for _, s := range q.Scenarios {
			if l, ok := m.answerLine(p, q, s); ok {
				box.Lines = append(box.Lines, l)
			}
		}
		if len(box.Lines) == 0 {
			box.Empty = fmt.Sprintf("No run on show measured two %s in %s.", runtimeNoun(q.Runtimes, 2), joinAnd(q.Scenarios))
		}
		out = append(out, box)
	}
	return out
}

// questionCells are the ranked cells of family sv that question q asks
// about, highest geometric mean first (the family's order). An A/A twin
// (the second name of a site.toml aa_pairs entry) is its program again,
// not an answer: it is left out.
func (m *model) questionCells(q Question, sv *verdict.ScenarioVerdicts) []*verdict.Cell {
	var out []*verdict.Cell
	for _, r := range sv.Ranks {
		if r.Ranked && (len(q.Runtimes) == 0 || slices.Contains(q.Runtimes, r.Cell.Runtime)) && !m.isTwin(r.Cell.Name) {
			out = append(out, r.Cell)
		}
	}
	return out
}

// isTwin reports whether name is the second name of an A/A pair.
func (m *model) isTwin(name string) bool {
	for _, p := range m.site.AAPairs {
		if len(p) == 2 && p[1] == name {
			return true
		}
	}
	return false
}

// answerFamily is the family that answers q in scenario s: of the runs on
// show (of q's suite, when it names one), the family with the most of q's
// targets, the newest run on a tie.
func (m *model) answerFamily(q Question, s string) (*verdict.ScenarioVerdicts, []*verdict.Cell) {
	var best *verdict.ScenarioVerdicts
	var bestCells []*verdict.Cell
	for i := len(m.runs) - 1; i >= 0; i-- {
		r := m.runs[i]
		if q.Suite != "" && r.Suite != q.Suite {
			continue
		}
		for _, sv := range m.dec.Families(r.ID, s) {
			if cs := m.questionCells(q, sv); len(cs) > len(bestCells) {
				best, bestCells = sv, cs
			}
		}
	}
	return best, bestCells
}

// answerLine is q's answer in scenario s; ok is false when no family has
// two of q's targets ranked there.
func (m *model) answerLine(p Page, q Question, s string) (AnswerLine, bool) {
	sv, cs := m.answerFamily(q, s)
	if len(cs) < 2 {
		return AnswerLine{}, false
	}
	l := AnswerLine{Scenario: Link{Href: p.href(m.links.Scenario(s)), Text: s},
		Run:   Link{Href: "#run-" + anchorOf(sv.Run), Text: m.suiteName(sv.Run)},
		Among: len(cs), runID: sv.Run}
	faster := func(a, b *verdict.Cell) bool { // a claimed faster than b
		v, ok := sv.Pair(a, b)
		return ok && v.Faster() == a
	}
	var lead, rest []*verdict.Cell
	for _, c := range cs {
		beaten := slices.ContainsFunc(cs, func(d *verdict.Cell) bool { return d != c && faster(d, c) })
		if beaten {
			rest = append(rest, c)
		} else {
			lead = append(lead, c)
		}
	}
	for _, c := range lead {
		l.Lead = append(l.Lead, Link{Href: p.href(m.links.Target(c.Name)), Text: c.Name})
	}
	apart := len(rest) > 0
	for _, c := range lead {
		for _, d := range rest {
			apart = apart && faster(c, d)
		}
	}
	var parts []string
	switch {
	case len(lead) == 1 && apart:
		parts = append(parts, fmt.Sprintf("faster than each of the other %d", len(rest)))
	case len(rest) == 0:
		parts = append(parts, fmt.Sprintf("none of the %d told apart", len(cs)))
	case apart:
		parts = append(parts, fmt.Sprintf("not told apart from each other, each faster than the other %d", len(rest)))
	default:
		parts = append(parts, fmt.Sprintf("none of the %d claimed faster", len(cs)))
	}
	if len(rest) > 0 {
		if j, ok := m.judge(lead[0], rest[0]); ok {
			next := fmt.Sprintf("next %s, %s", rest[0].Name, j.Ratio)
			if j.Dir != "down" {
				next += " (not told apart from " + lead[0].Name + ")"
			}
			parts = append(parts, next)
		}
	}
	var eq []string
	margin := math.NaN()
	for i, a := range cs {
		for _, b := range cs[i+1:] {
			if v, ok := sv.Pair(a, b); ok && v.Equivalent() {
				eq = append(eq, a.Name+" = "+b.Name)
				margin = v.Margin
			}
		}
	}
	if len(eq) > 0 {
		const maxEq = 4
		more := ""
		if len(eq) > maxEq {
			more = fmt.Sprintf(" and %d more pairs", len(eq)-maxEq)
			eq = eq[:maxEq]
		}
		parts = append(parts, fmt.Sprintf("within ±%s: %s%s", pct0(margin), strings.Join(eq, ", "), more))
	}
	l.Sentence = strings.Join(parts, "; ")
	if pw, ok := m.dec.Power(sv); ok && !math.IsNaN(pw.Resolves) && !math.IsInf(pw.Resolves, 0) {
		l.Resolves = pct(pw.Resolves)
	}
	return l, true
}

// sharedMargin is the equivalence margin every family on show tests
// against, as "10%"; "" when they differ or none has one.
func (m *model) sharedMargin() string {
	margin := math.NaN()
	for _, sv := range m.dec.Scenarios {
		r := sv.Floor.Resolve
		switch {
		case !(r > 0):
		case math.IsNaN(margin):
			margin = r
		case r != margin:
			return ""
		}
	}
	if math.IsNaN(margin) {
		return ""
	}
	return pct0(margin)
}

// answeredRuns are the runs the boxes' lines read, each once, in the
// order the lines name them.
func answeredRuns(boxes []AnswerBox) []string {
	var ids []string
	for _, b := range boxes {
		for _, l := range b.Lines {
			if !slices.Contains(ids, l.runID) {
				ids = append(ids, l.runID)
			}
		}
	}
	return ids
}

// runtimeNames are runtimes as readers name them.
var runtimeNames = map[string]string{"go": "Go", "node": "Node.js", "bun": "Bun", "deno": "Deno"}

// runtimeNoun is "Go targets", "Node.js and Bun targets", or "targets"
// for no runtime named; n picks "target" or "targets".
func runtimeNoun(runtimes []string, n int) string {
	noun := "targets"
	if n == 1 {
		noun = "target"
	}
	var names []string
	for _, r := range runtimes {
		if w, ok := runtimeNames[r]; ok {
			names = append(names, w)
		} else {
			names = append(names, r)
		}
	}
	if len(names) == 0 {
		return noun
	}
	return joinAnd(names) + " " + noun
}
