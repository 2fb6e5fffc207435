package render

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fairbench/fairbench/parse/verdict"
)

// card computes a headline card from the decision layer's verdicts. A
// name the run lacks is said on the card, never an error: a site declares
// its cards before every target has a run. Without its baseline the card
// still shows the subject against the escapes the run has. The Page is
// unused; results.json's export calls card too.
func (m *model) card(_ Page, spec Card) CardView {
	v := CardView{Title: spec.Title, Note: spec.Note}
	if v.Title == "" {
		v.Title = fmt.Sprintf("%s ÷ %s", spec.Subject, spec.Baseline)
	}
	subject, hasSubject := m.resolve(spec.Subject)
	baseline, hasBaseline := m.resolve(spec.Baseline)
	var missing, escapes []string
	if !hasSubject {
		missing = append(missing, spec.Subject)
	}
	if !hasBaseline {
		missing = append(missing, spec.Baseline)
	}
	for _, e := range spec.Escapes {
		if n, ok := m.resolve(e); ok {
			escapes = append(escapes, n)
			v.Escapes = append(v.Escapes, Link{Href: m.links.Target(n), Text: n})
		} else {
			missing = append(missing, e)
		}
	}
	if len(missing) > 0 {
		v.Missing = "Not in this run: " + strings.Join(missing, ", ") + "."
	}
	if !hasSubject {
		v.NoBaseline = fmt.Sprintf("%s, the subject of this card, is not in this run, so the card has nothing to show; it fills in when a run of its suite is published.", spec.Subject)
		return v
	}
	v.Subject = Link{Href: m.links.Target(subject), Text: subject}
	if hasBaseline {
		v.Baseline = Link{Href: m.links.Target(baseline), Text: baseline}
	} else {
		v.NoBaseline = fmt.Sprintf("%s, the baseline of this card, is not in this run, so no ratio against it is shown; it fills in when a run of its suite is published.", spec.Baseline)
		if len(escapes) == 0 {
			return v
		}
		v.NoBaseline += " Meanwhile each row shows " + subject + " against the escapes."
	}
	for _, s := range m.scenarios {
		if len(spec.Scenarios) > 0 && !slices.Contains(spec.Scenarios, s) {
			continue
		}
		row, ok := m.cardRow(s, subject, baseline, escapes)
		switch {
		case ok && row.HasBaseline:
			v.Rows = append(v.Rows, row)
		case ok:
			v.EscapeRows = append(v.EscapeRows, row)
		}
	}
	v.Read = cardReading(subject, baseline, escapes)
	var js []Judgement
	for _, r := range append(slices.Clone(v.Rows), v.EscapeRows...) {
		js = append(js, r.J)
		for _, e := range r.Escapes {
			js = append(js, e.J)
		}
	}
	v.Apart = apartNote(js)
	return v
}

// apartNote says which pairs of js were measured in different runs, or on
// different host pairs of one run, whose verdicts are "~" by construction
// (no verdict crosses runs or machines); "" if none.
func apartNote(js []Judgement) string {
	var runs, hosts []string
	for _, j := range js {
		v := j.Verdict
		if v.CellA == nil || v.CellB == nil {
			continue
		}
		switch v.Reason {
		case verdict.ReasonOtherRun:
			p := fmt.Sprintf("%s (run %s) and %s (run %s)", v.CellB.Name, v.CellB.Run, v.CellA.Name, v.CellA.Run)
			if !slices.Contains(runs, p) {
				runs = append(runs, p)
			}
		case verdict.ReasonOtherHosts:
			p := fmt.Sprintf("%s (on %s) and %s (on %s)", v.CellB.Name, v.CellB.Hosts, v.CellA.Name, v.CellA.Hosts)
			if !slices.Contains(hosts, p) {
				hosts = append(hosts, p)
			}
		}
	}
	var notes []string
	if len(runs) > 0 {
		notes = append(notes, "Measured in different runs: "+strings.Join(runs, "; ")+". No verdict crosses runs (each ran at its own time and load), so these read ~ whatever their ratio; measure them in one suite to compare them.")
	}
	if len(hosts) > 0 {
		notes = append(notes, "Measured on different hosts: "+strings.Join(hosts, "; ")+". No verdict crosses machines (a ratio between them compares the machines as well), so these read ~ whatever their ratio; measure them on one server and client pair to compare them.")
	}
	return strings.Join(notes, " ")
}

// cardRow is scenario s of a card: subject ÷ baseline (when baseline is
// measured there) and subject ÷ each escape; ok is false when the row would
// hold no ratio.
func (m *model) cardRow(s, subject, baseline string, escapes []string) (CardRow, bool) {
	// The row's cells come from the newest run that measured the subject
	// beside its baseline (or, without one, the subject's own run), so a
	// target published by two suites is compared where its baseline ran.
	pick := m.closedCell
	if run, ok := m.sharedRun(s, nonEmpty(subject, baseline)...); ok {
		pick = func(s, name string) *verdict.Cell {
			if c := m.closedIn(run, s, name); c != nil {
				return c
			}
			return m.closedCell(s, name)
		}
	}
	sc := pick(s, subject)
	if sc == nil {
		return CardRow{}, false
	}
	row := CardRow{Scenario: Link{Href: m.links.Scenario(s), Text: s}, Subject: Count(sc.Stat(m.metric).Median)}
	if bc := pick(s, baseline); baseline != "" && bc != nil {
		row.J, row.HasBaseline = m.judge(bc, sc)
		row.Baseline = Count(bc.Stat(m.metric).Median)
	}
	for _, e := range escapes {
		// Each escape is judged against the subject where both ran.
		ec, sub := pick(s, e), sc
		if run, ok := m.sharedRun(s, subject, e); ok {
			ec, sub = m.closedIn(run, s, e), m.closedIn(run, s, subject)
		}
		if ec == nil || sub == nil {
			continue
		}
		if j, ok := m.judge(ec, sub); ok {
			row.Escapes = append(row.Escapes, CardFigure{Name: e, J: j, Value: Count(ec.Stat(m.metric).Median)})
		}
	}
	return row, row.HasBaseline || len(row.Escapes) > 0
}

// nonEmpty is names without the empty ones.
func nonEmpty(names ...string) []string {
	return slices.DeleteFunc(names, func(n string) bool { return n == "" })
}

// cardReading is a card's "how to read", in the card's own names. What
// every card shares (~, ≥, per CPU s, the interval's level) the index says
// once above the cards.
func cardReading(subject, baseline string, escapes []string) string {
	var b strings.Builder
	if baseline != "" {
		fmt.Fprintf(&b, "Each row is one scenario. The large figure is %s's requests per second ÷ %s's (the ratio of the geometric means of their repetitions): above 1× %s served more, below 1× fewer. Beside it is that ratio's interval at the verdict's level. ", subject, baseline, subject)
	} else {
		fmt.Fprintf(&b, "Each row is one scenario. ")
	}
	switch {
	case len(escapes) > 0 && baseline != "":
		// The index keeps a card to a line per scenario; the escapes'
		// verdicts are the scenario pages' own pairs.
		fmt.Fprintf(&b, "The escapes (%s) are where a reader could move without %s; the same rule judges them, and each row links to its scenario's pairwise verdicts.", strings.Join(escapes, ", "), subject)
	case len(escapes) > 0:
		fmt.Fprintf(&b, "The smaller figures divide %s by %s instead: the baselines a reader could move to without %s, judged by the same rule.", subject, strings.Join(escapes, ", "), subject)
	}
	return strings.TrimSpace(b.String())
}

// cardTargets are the names every card shows, the run's names only: the
// index charts draw them whatever their place.
func (m *model) cardTargets() map[string]bool {
	keep := map[string]bool{}
	for _, c := range m.site.Cards {
		for _, n := range append([]string{c.Subject, c.Baseline}, c.Escapes...) {
			if r, ok := m.resolve(n); ok {
				keep[r] = true
			}
		}
	}
	return keep
}
