package audit

import (
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// compareRow is one target and scenario in both sets.
type compareRow struct {
	name, scenario string
	a, b           *verdict.Cell // nil when that set lacks the cell
	// apart says why the row is not compared ("" when it is): the two
	// cells were not asked the same request.
	apart string
}

// CompareOptions configure WriteCompare.
type CompareOptions struct {
	// Thresholds decide the rows; the zero value means DefaultThresholds.
	Thresholds verdict.Thresholds
	// Request is the request run's suite defines for scenario, in words
	// (method, path, headers, body), ok false where the caller could not
	// read that suite; nil when no suite was read.
	Request func(run, scenario string) (request string, ok bool)
}

// ErrCompareVoid is returned by WriteCompare after a complete table with
// an ERROR note: part of the comparison does not hold, as the note says.
var ErrCompareVoid = errors.New("an ERROR note says where the comparison does not hold")

// ErrCompareSide is returned by WriteCompare, before anything is written,
// when one side holds a target of a scenario in more than one run: one of
// its cells would have to be dropped or pooled across runs.
var ErrCompareSide = errors.New("a side holds one target and scenario in several runs")

// WriteCompare writes a benchstat-style table comparing set b with set a:
// per target and scenario the median and its interval in each set, the
// change from a to b with its interval ("~" when none is claimed, "?" with
// too few repetitions), the Holm-adjusted p, and n; then a geometric-mean
// row over the rows both sets have. Each scenario's rows are one family,
// decided by the rule of Decide. Cells are matched by target, runtime and
// scenario; a side that holds one of them in two runs is refused
// (ErrCompareSide). A second table for good responses per second follows
// only when a repetition had error responses. A row whose two cells were
// sent different requests (the method and path their dumps record, or the
// scenario's request in each run's suite) is shown but not compared.
// Notes at the end name mixed settings or hosts, different suites and
// different requests; with an ERROR note among them the result is
// ErrCompareVoid.
func WriteCompare(w io.Writer, a, b *parse.Set, opts CompareOptions) error {
	th := opts.Thresholds
	if th == (verdict.Thresholds{}) {
		th = verdict.DefaultThresholds
	}
	ca, cb := verdict.Cells(a, th), verdict.Cells(b, th)
	rows, err := compareRows(ca, cb)
	if err != nil {
		return err
	}
	apart, suites := markApart(rows, opts.Request)
	bound := verdict.ClientBound(a, ca, th)
	for c := range verdict.ClientBound(b, cb, th) {
		bound[c] = true
	}
	la, lb := setLabel(a, "A"), setLabel(b, "B")
	if la == lb {
		la, lb = la+" (A)", lb+" (B)"
	}
	var out strings.Builder
	writeCompareTable(&out, rows, verdict.MetricRPS, la, lb, th, bound)
	if hasErrorResponses(rows) {
		out.WriteString("\n")
		writeCompareTable(&out, rows, verdict.MetricGoodRPS, la, lb, th, bound)
	}
	fs := append(apart, suiteFindings(a, b, suites)...)
	errs := writeCompareNotes(&out, a, b, th, fs)
	if _, err := io.WriteString(w, out.String()); err != nil {
		return err
	}
	if errs > 0 {
		return fmt.Errorf("compare: %s: %w", parse.Plural(errs, "ERROR note"), ErrCompareVoid)
	}
	return nil
}

// setLabel names a set by its run ID when it holds exactly one run.
func setLabel(s *parse.Set, fallback string) string {
	if len(s.Runs) == 1 && s.Runs[0].ID != "" {
		return s.Runs[0].ID
	}
	return fallback
}

func compareRows(ca, cb []*verdict.Cell) ([]*compareRow, error) {
	type rowKey struct{ target, runtime, scenario string }
	index := map[rowKey]*compareRow{}
	var rows []*compareRow
	var twice []string
	put := func(side string, c *verdict.Cell, slot func(*compareRow) **verdict.Cell) {
		k := rowKey{c.Target, c.Runtime, c.Scenario}
		r := index[k]
		if r == nil {
			r = &compareRow{name: c.Name, scenario: c.Scenario}
			index[k] = r
			rows = append(rows, r)
		}
		if had := *slot(r); had != nil {
			twice = append(twice, fmt.Sprintf("%s has %s/%s in run %s and in run %s", side, c.Name, c.Scenario, had.Run, c.Run))
			return
		}
		*slot(r) = c
	}
	for _, c := range ca {
		put("A", c, func(r *compareRow) **verdict.Cell { return &r.a })
	}
	for _, c := range cb {
		put("B", c, func(r *compareRow) **verdict.Cell { return &r.b })
	}
	if len(twice) > 0 {
		more := ""
		if len(twice) > 3 {
			twice, more = twice[:3], fmt.Sprintf(" and %d more", len(twice)-3)
		}
		return nil, fmt.Errorf("compare: %s%s: give each side one run (or runs of different targets): %w",
			strings.Join(twice, "; "), more, ErrCompareSide)
	}
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].scenario != rows[j].scenario {
			return rows[i].scenario < rows[j].scenario
		}
		return rows[i].name < rows[j].name
	})
	return rows, nil
}

// hasErrorResponses reports whether any repetition of the rows got an
// error response or a socket error, so that good req/s differs from req/s.
func hasErrorResponses(rows []*compareRow) bool {
	for _, r := range rows {
		for _, c := range []*verdict.Cell{r.a, r.b} {
			if c == nil {
				continue
			}
			for _, m := range c.Reps {
				if badResponses(m) > 0 || m.Errors.Total() > 0 {
					return true
				}
			}
		}
	}
	return false
}

// compareVerdicts decides each row with both cells: B against A, one
// family per scenario (the same rule as Decide: Welch's t on logs, Holm
// over the scenario's rows, a claim only beyond the noise threshold).
func compareVerdicts(rows []*compareRow, m verdict.Metric, th verdict.Thresholds, bound map[*verdict.Cell]bool) map[*compareRow]verdict.Verdict {
	byScenario := map[string][]*compareRow{}
	var scenarios []string
	for _, r := range rows {
		if r.a == nil || r.b == nil || r.apart != "" {
			continue
		}
		if byScenario[r.scenario] == nil {
			scenarios = append(scenarios, r.scenario)
		}
		byScenario[r.scenario] = append(byScenario[r.scenario], r)
	}
	out := map[*compareRow]verdict.Verdict{}
	for _, s := range scenarios {
		rs := byScenario[s]
		vs := make([]verdict.Verdict, len(rs))
		for i, r := range rs {
			vs[i] = verdict.Verdict{Scenario: s, A: r.name, B: r.name, CellA: r.a, CellB: r.b}
		}
		verdict.Judge(vs, m, th, verdict.Floor{Value: th.Noise, Threshold: th.Noise}, bound)
		for i, r := range rs {
			out[r] = vs[i]
		}
	}
	return out
}

func writeCompareTable(out *strings.Builder, rows []*compareRow, m verdict.Metric, la, lb string, th verdict.Thresholds, bound map[*verdict.Cell]bool) {
	var table strings.Builder
	tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\t%s\t%s\tvs base\tp\tn\n", m, la, lb)
	fmt.Fprintf(tw, "\tmedian (interval)\tmedian (interval)\tB ÷ A, geomean\tHolm\t\n")
	verdicts := compareVerdicts(rows, m, th, bound)
	var logA, logB float64
	var both int
	for _, r := range rows {
		label := r.name + "/" + r.scenario
		if r.a == nil || r.b == nil {
			fmt.Fprintf(tw, "%s\t%s\t%s\t\t\t\n", label, statCell(r.a, m), statCell(r.b, m))
			continue
		}
		sa, sb := r.a.Stat(m), r.b.Stat(m)
		if r.apart != "" {
			fmt.Fprintf(tw, "%s\t%s\t%s\t≠ request\t\t%d+%d\n", label, statCell(r.a, m), statCell(r.b, m), sa.N, sb.N)
			continue
		}
		v := verdicts[r]
		delta, p := versusBase(v), v.Reason
		if v.Tested() {
			p = fmt.Sprintf("%.3g", v.PAdj)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d+%d\n", label, statCell(r.a, m), statCell(r.b, m), delta, p, sa.N, sb.N)
		if sa.Valid() && sb.Valid() {
			logA, logB, both = logA+math.Log(sa.Median), logB+math.Log(sb.Median), both+1
		}
	}
	if both > 0 {
		ga, gb := math.Exp(logA/float64(both)), math.Exp(logB/float64(both))
		fmt.Fprintf(tw, "geomean\t%s\t%s\t%+.2f%%\t\t\n", formatScaled(ga), formatScaled(gb), (gb/ga-1)*100)
	}
	tw.Flush()
	for _, line := range strings.SplitAfter(table.String(), "\n") {
		out.WriteString(strings.TrimRight(line, " \n"))
		if strings.HasSuffix(line, "\n") {
			out.WriteString("\n")
		}
	}
}

// versusBase is B against A as the table shows it: "+12.3% [+10.1%, +14.0%]"
// for a claim, "~ +0.8%" without one, "?" untested for too few repetitions;
// " per CPU s" follows a row decided on requests per server CPU second.
func versusBase(v verdict.Verdict) string {
	unit := ""
	if v.Metric == verdict.MetricEfficiency {
		unit = " per CPU s"
	}
	switch {
	case v.Reason == verdict.ReasonTooFewReps || v.Reason == verdict.ReasonNoData:
		return "?"
	case !v.Claimed():
		return fmt.Sprintf("~ %+.1f%%%s", (1/v.Ratio-1)*100, unit)
	}
	return fmt.Sprintf("%+.1f%% [%+.1f%%, %+.1f%%]%s", (1/v.Ratio-1)*100, (1/v.Hi-1)*100, (1/v.Lo-1)*100, unit)
}

// statCell is "402.9k (396k–410k)" with the median's interval, or "—" for
// no cell. Below the size where a confidence interval exists the range is
// min–max; the notes say which.
func statCell(c *verdict.Cell, m verdict.Metric) string {
	if c == nil {
		return "—"
	}
	s := c.Stat(m)
	if !s.Valid() {
		return "—"
	}
	iv := s.Interval()
	mark := ""
	if iv.Kind == verdict.IntervalMinMax {
		mark = "*"
	}
	return fmt.Sprintf("%s (%s–%s)%s", formatScaled(s.Median), formatScaled(iv.Lo), formatScaled(iv.Hi), mark)
}

// writeCompareNotes writes the notes, fs and the mixed settings and hosts
// among them, and returns the number of ERROR notes.
func writeCompareNotes(out *strings.Builder, a, b *parse.Set, th verdict.Thresholds, fs []Finding) int {
	notes := []string{
		fmt.Sprintf("interval: the %.0f%% confidence interval of the median; * marks the min–max of the repetitions where too few exist for one", th.Confidence*100),
		fmt.Sprintf("vs base: B ÷ A of the geometric means, with its interval at the Holm step's level; Welch's t-test on log req/s, Holm-adjusted p over each scenario's rows; a change is claimed only when p < %.2f and the interval clears the %.0f%% noise threshold; \"~\": no change claimed; \"?\": n < %d; \"≠ request\": the two cells were sent different requests, not compared", th.Alpha, th.Noise*100, th.MinReps),
		fmt.Sprintf("margin: the %.0f%% threshold alone, where the site's pages use the larger of it and the run's systematic A/A difference: two runs share no twins; a row whose load generator was saturated (its CPUs %.0f%% busy, its server's not) is decided on requests per server CPU second where both runs recorded it, else as at least or \"~\", as the site decides", th.Noise*100, th.ClientSaturation*100),
	}
	fs = append(fs, MixedSettings(append(append([]*parse.Measurement(nil), a.Measurements...), b.Measurements...))...)
	fs = append(fs, mixedHostFindings(append(append([]*parse.Run(nil), a.Runs...), b.Runs...))...)
	SortFindings(fs)
	errs := 0
	for _, f := range fs {
		where := ""
		if f.Scenario != "" {
			where = " in " + f.Scenario
		}
		if f.Level == LevelError {
			errs++
		}
		notes = append(notes, fmt.Sprintf("%s%s: %s", strings.ToUpper(f.Level.String()), where, f.Message))
	}
	out.WriteString("\n")
	for _, n := range notes {
		fmt.Fprintf(out, "note: %s\n", n)
	}
	return errs
}
