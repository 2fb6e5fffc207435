package audit

import (
	"fmt"
	"github.com/fairbench/fairbench/parse"
	"io"
	"math"
	"sort"
	"strings"
	"text/tabwriter"
)

// compareRow is one target and scenario in both sets.
type compareRow struct {
	name, scenario string
	a, b           *Cell // nil when that set lacks the cell
}

// WriteCompare writes a benchstat-style table comparing set b with set a:
// per target and scenario the median ± its confidence interval in each set,
// the change from a to b ("~" when none is claimed, "?" with too few
// repetitions), how it was decided (the U test's p, or "ranges" for n = 3),
// and n; then a geometric-mean row over the rows both sets have. Cells are
// matched by target, runtime and scenario, whatever their run. A second
// table for good responses per second follows when any cell had errors.
// Notes at the end name mixed settings or hosts, which void the comparison.
func WriteCompare(w io.Writer, a, b *parse.Set, th Thresholds) error {
	rows := compareRows(Cells(a, th), Cells(b, th))
	la, lb := setLabel(a, "A"), setLabel(b, "B")
	if la == lb {
		la, lb = la+" (A)", lb+" (B)"
	}
	var out strings.Builder
	writeCompareTable(&out, rows, MetricRPS, la, lb, th)
	if hasErrorResponses(rows) {
		out.WriteString("\n")
		writeCompareTable(&out, rows, MetricGoodRPS, la, lb, th)
	}
	writeCompareNotes(&out, a, b, th)
	_, err := io.WriteString(w, out.String())
	return err
}

// setLabel names a set by its run ID when it holds exactly one run.
func setLabel(s *parse.Set, fallback string) string {
	if len(s.Runs) == 1 && s.Runs[0].ID != "" {
		return s.Runs[0].ID
	}
	return fallback
}

func compareRows(ca, cb []*Cell) []*compareRow {
	index := map[cellKey]*compareRow{}
	var rows []*compareRow
	row := func(c *Cell) *compareRow {
		k := cellKey{"", c.Target, c.Runtime, c.Scenario}
		r := index[k]
		if r == nil {
			r = &compareRow{name: c.Name, scenario: c.Scenario}
			index[k] = r
			rows = append(rows, r)
		}
		return r
	}
	for _, c := range ca {
		if r := row(c); r.a == nil {
			r.a = c
		}
	}
	for _, c := range cb {
		if r := row(c); r.b == nil {
			r.b = c
		}
	}
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].scenario != rows[j].scenario {
			return rows[i].scenario < rows[j].scenario
		}
		return rows[i].name < rows[j].name
	})
	return rows
}

func hasErrorResponses(rows []*compareRow) bool {
	for _, r := range rows {
		for _, c := range []*Cell{r.a, r.b} {
			if c != nil && c.RPS.Median != c.GoodRPS.Median {
				return true
			}
		}
	}
	return false
}

func writeCompareTable(out *strings.Builder, rows []*compareRow, m Metric, la, lb string, th Thresholds) {
	var table strings.Builder
	tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\t%s\t%s\tvs base\tp\tn\n", m, la, lb)
	fmt.Fprintf(tw, "\tmedian ± %.0f%% CI\tmedian ± %.0f%% CI\t\t\t\n", th.Confidence*100, th.Confidence*100)
	var logA, logB float64
	var both int
	for _, r := range rows {
		label := r.name + "/" + r.scenario
		if r.a == nil || r.b == nil {
			fmt.Fprintf(tw, "%s\t%s\t%s\t\t\t\n", label, statCell(r.a, m), statCell(r.b, m))
			continue
		}
		sa, sb := r.a.Stat(m), r.b.Stat(m)
		c := CompareStats(sa, sb, th)
		p := c.Method
		if c.Method == MethodUTest {
			p = fmt.Sprintf("%.3f", c.P)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d+%d\n", label, statCell(r.a, m), statCell(r.b, m), c.Delta(), p, sa.N, sb.N)
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

// statCell is "402.9k ± 2%", "402.9k ± ∞" or "—" for no cell.
func statCell(c *Cell, m Metric) string {
	if c == nil {
		return "—"
	}
	s := c.Stat(m)
	if !s.Valid() {
		return "—"
	}
	return formatScaled(s.Median) + " ± " + ciPercent(s)
}

// ciPercent is the half-width of the median's interval in percent of the
// median, the larger side ("2%"), or "∞" when the interval is unbounded.
func ciPercent(s Stat) string {
	if math.IsInf(s.Lo, 0) || math.IsInf(s.Hi, 0) {
		return "∞"
	}
	return fmt.Sprintf("%.0f%%", 100*math.Max(s.Hi/s.Median-1, 1-s.Lo/s.Median))
}

func writeCompareNotes(out *strings.Builder, a, b *parse.Set, th Thresholds) {
	notes := []string{fmt.Sprintf("p: Mann-Whitney U with n ≥ %d on both sides; \"ranges\": n < %d, a change is claimed only when the ranges are apart by more than %.0f%%; \"?\": n < %d; \"~\": no change claimed (p ≥ %.2f or within %.0f%% noise)",
		th.UTestReps, th.UTestReps, th.Noise*100, th.MinReps, th.Alpha, th.Noise*100)}
	fs := MixedSettings(append(append([]*parse.Measurement(nil), a.Measurements...), b.Measurements...))
	fs = append(fs, mixedHostFindings(append(append([]*parse.Run(nil), a.Runs...), b.Runs...))...)
	SortFindings(fs)
	for _, f := range fs {
		where := ""
		if f.Scenario != "" {
			where = " in " + f.Scenario
		}
		notes = append(notes, fmt.Sprintf("%s%s: %s", strings.ToUpper(f.Level.String()), where, f.Message))
	}
	out.WriteString("\n")
	for _, n := range notes {
		fmt.Fprintf(out, "note: %s\n", n)
	}
}
