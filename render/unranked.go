package render

import (
	"fmt"
	"strings"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// unrankedWhy says in words why the decision layer left cell c unranked,
// "" when it is ranked: every page that shows an unranked cell's number
// says this beside it, so that the number is never read as a rank.
func (m *model) unrankedWhy(c *verdict.Cell) string {
	ok, why := verdict.Testable(c, m.metric, m.th)
	if ok {
		return ""
	}
	switch why {
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

// erring are the cells of run, in scenario then name order, that the
// decision layer left unranked for their error responses.
func (m *model) erring(run string) []*verdict.Cell {
	var out []*verdict.Cell
	for _, c := range m.cells {
		if c.Run != run {
			continue
		}
		if ok, why := verdict.Testable(c, m.metric, m.th); !ok && why == verdict.ReasonErrors {
			out = append(out, c)
		}
	}
	return out
}

// erringNote says which cells of run are not ranked for their error
// responses, and why, in one sentence; "" when none.
func (m *model) erringNote(run string) string {
	cells := m.erring(run)
	if len(cells) == 0 {
		return ""
	}
	parts := make([]string, len(cells))
	for i, c := range cells {
		parts[i] = fmt.Sprintf("%s on %s (%s of %s)", c.Name, c.Scenario, pct(c.ErrorShare()), requestCount(c))
	}
	return fmt.Sprintf("Not ranked, as more than %s of their requests were answered with an error status, which req/s counts as throughput: %s.",
		pct(m.th.RankErrorShare), strings.Join(parts, "; "))
}

// leaderText is the highest median among cells, as "name, 1,234 req/s",
// leaving out the cells unranked for their error responses: an error
// answered fast is not the highest throughput. "" without cells.
func (m *model) leaderText(cells []*verdict.Cell) string {
	var l *verdict.Cell
	for _, c := range cells {
		if ok, why := verdict.Testable(c, m.metric, m.th); !ok && why == verdict.ReasonErrors {
			continue
		}
		if l == nil || c.Stat(m.metric).Median > l.Stat(m.metric).Median {
			l = c
		}
	}
	switch {
	case l != nil:
		return fmt.Sprintf("%s, %s %s", l.Name, Count(l.Stat(m.metric).Median), m.metric)
	case len(cells) > 0:
		return "none: every target answered too many requests with an error"
	}
	return ""
}
