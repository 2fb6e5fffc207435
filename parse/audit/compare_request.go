package audit

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// RuleCompareRequest: in fairbench compare, a row's two cells were sent
// different requests; the row is not compared.
const RuleCompareRequest = "compare-request"

// RuleCompareSuites: in fairbench compare, the runs ran different suites
// and a suite could not be read to check the requests.
const RuleCompareSuites = "compare-suites"

// sentRequest is the method and path (with query) the cell's dumps
// record, "" when none records a URL. Host and port are left out: they
// change from run to run.
func sentRequest(c *verdict.Cell) string {
	for _, m := range c.Reps {
		if m.URL == "" {
			continue
		}
		target := m.URL
		if u, err := url.Parse(m.URL); err == nil {
			target = u.RequestURI()
		}
		method := m.Method
		if method == "" {
			method = "GET"
		}
		return method + " " + target
	}
	return ""
}

// markApart sets apart on each row whose cells were sent different
// requests, by their dumps or by their runs' suites (request, when not
// nil), and returns an ERROR finding per such row, and whether every row
// with both cells was checked against both runs' suites.
func markApart(rows []*compareRow, request func(run, scenario string) (string, bool)) (fs []Finding, suites bool) {
	suites = request != nil
	for _, r := range rows {
		if r.a == nil || r.b == nil {
			continue
		}
		ra, rb := sentRequest(r.a), sentRequest(r.b)
		how := "its dumps record"
		var sa, sb string
		okA, okB := false, false
		if request != nil {
			sa, okA = request(r.a.Run, r.scenario)
			sb, okB = request(r.b.Run, r.scenario)
		}
		suites = suites && okA && okB
		if ra == "" || rb == "" || ra == rb {
			ra, rb, how = "", "", "the runs' suites define"
			if okA && okB {
				ra, rb = sa, sb
			}
		}
		if ra == rb {
			continue
		}
		r.apart = fmt.Sprintf("%s in run %s, %s in run %s", ra, r.a.Run, rb, r.b.Run)
		fs = append(fs, Finding{Rule: RuleCompareRequest, Level: LevelError, Target: r.name, Scenario: r.scenario,
			Dumps:   uniqueSorted(append(r.a.Dumps(), r.b.Dumps()...)),
			Message: fmt.Sprintf("%s was sent different requests, as %s: %s; the row is not compared (\"≠ request\"): the scenario's name is the same, its request is not", r.name, how, r.apart)})
	}
	return fs, suites
}

// suiteFindings says when the two sets' runs ran different suites and the
// suites were not all read (read is false), so headers and bodies, which
// no dump records, could not be checked.
func suiteFindings(a, b *parse.Set, read bool) []Finding {
	if read {
		return nil
	}
	sums := func(s *parse.Set) []string {
		var out []string
		for _, r := range s.Runs {
			if r.SuiteSHA256 != "" && !slices.Contains(out, r.SuiteSHA256) {
				out = append(out, r.SuiteSHA256)
			}
		}
		return out
	}
	sa, sb := sums(a), sums(b)
	if len(sa) == 0 || len(sb) == 0 || slices.Equal(sa, sb) {
		return nil
	}
	short := func(ss []string) string {
		out := make([]string, len(ss))
		for i, s := range ss {
			out[i] = s[:min(12, len(s))]
		}
		return strings.Join(out, ", ")
	}
	return []Finding{{Rule: RuleCompareSuites, Level: LevelWarning,
		Message: fmt.Sprintf("the runs ran different suites (suite_sha256 %s in A, %s in B): a scenario of one name may send other headers or another body, which the dumps do not record; rows were checked on method and path only", short(sa), short(sb))}}
}
