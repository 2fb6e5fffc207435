package render

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// unrankedWhy says in words why the decision layer left cell c unranked,
// "" when it is ranked: every page that shows an unranked cell's number
// says this beside it, so that the number is never read as a rank.
func (m *model) unrankedWhy(c *verdict.Cell) string {
	switch m.dec.Unranked(c) {
	case "":
		return ""
	case verdict.ReasonUngated:
		return "not ranked: its run.json holds no gate record that passed it, so nothing shows it answered the request its peers did"
	case verdict.ReasonErrors:
		return fmt.Sprintf("not ranked: %s of its %s were answered with an error status (over the %s allowed), and its req/s counts them",
			pct(c.ErrorShare()), requestCount(c), pct(m.th.RankErrorShare))
	case verdict.ReasonTooFewReps:
		return fmt.Sprintf("not ranked: fewer than %d repetitions", m.th.MinReps)
	}
	return "not ranked: no repetition with a positive number"
}

// requestCount is the requests of c's repetitions as the tools counted
// them, in words: "50,237 requests".
func requestCount(c *verdict.Cell) string {
	var n int64
	for _, rep := range c.Reps {
		n += max(rep.Requests, 0)
	}
	if n == 1 {
		return "1 request"
	}
	return parse.GroupDigits(fmt.Sprint(n)) + " requests"
}

// setApart are the cells of run, in scenario then name order, that the
// decision layer left unranked for a reason the pages say beside their
// numbers: their error responses, or no gate record.
func (m *model) setApart(run string) []*verdict.Cell {
	var out []*verdict.Cell
	for _, c := range m.cells {
		if c.Run != run {
			continue
		}
		if why := m.dec.Unranked(c); why == verdict.ReasonErrors || why == verdict.ReasonUngated {
			out = append(out, c)
		}
	}
	return out
}

// setApartNote says which cells of run are set apart (setApart) and why,
// a sentence per reason; "" when none.
func (m *model) setApartNote(run string) string {
	var erring, ungated []string
	for _, c := range m.setApart(run) {
		if c.Ungated {
			ungated = append(ungated, c.Name+" on "+c.Scenario)
		} else {
			erring = append(erring, fmt.Sprintf("%s on %s (%s of %s)", c.Name, c.Scenario, pct(c.ErrorShare()), requestCount(c)))
		}
	}
	var notes []string
	if len(erring) > 0 {
		notes = append(notes, fmt.Sprintf("Not ranked, as more than %s of their requests were answered with an error status, which req/s counts as throughput: %s.",
			pct(m.th.RankErrorShare), strings.Join(erring, "; ")))
	}
	if len(ungated) > 0 {
		notes = append(notes, fmt.Sprintf("Not ranked, as the run's run.json holds no gate record that passed them, so nothing shows they answered the request their peers did: %s.",
			strings.Join(ungated, "; ")))
	}
	return strings.Join(notes, " ")
}

// leaderText is the highest geometric mean among cells (the statistic
// every ratio and rank reads), as "name, 1,234 req/s",
// leaving out the cells set apart for their error responses or a missing
// gate record: an error answered fast is not the highest throughput, nor
// an answer nothing checked. "" without cells.
func (m *model) leaderText(cells []*verdict.Cell) string {
	var apart []*verdict.Cell
	for _, c := range cells {
		if why := m.dec.Unranked(c); why == verdict.ReasonErrors || why == verdict.ReasonUngated {
			apart = append(apart, c)
		}
	}
	var l *verdict.Cell
	for _, c := range cells {
		if slices.Contains(apart, c) {
			continue
		}
		if l == nil || c.Stat(m.metric).GeoMean > l.Stat(m.metric).GeoMean {
			l = c
		}
	}
	switch {
	case l != nil:
		return fmt.Sprintf("%s, %s %s", l.Name, Count(l.Stat(m.metric).GeoMean), m.metric)
	case len(cells) > 0:
		return "none: every target is unranked for its errors or a missing gate record"
	}
	return ""
}
