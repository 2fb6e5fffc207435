package render

import (
	"fmt"
	"math"
	"strconv"

	"github.com/fairbench/fairbench/parse/verdict"
)

// Judgement is one verdict of the decision layer as a card, a comparison
// table or a "vs leader" cell shows it: the ratio of the estimator that was
// tested (geometric means), its interval at the verdict's level, and, when
// no difference is claimed, why, and what this run could not have told
// apart. Render decides nothing: every field is read off audit.Verdict.
type Judgement struct {
	Ratio    string // other ÷ base of geometric means: "1.23×"
	Change   string // the same as a change: "+23.0%"
	Interval string // "0.92–1.11× at 99.5%", "" for an untested pair
	Mark     string // "~" when no difference is claimed, "=" when equivalence is, "" when a difference is
	Why      string // why "~": "not significant", "within the 3.0% noise floor", "client-bound: …", …
	Short    string // Why in a word or two, for tight places: "client-bound"
	Power    string // what this run cannot tell apart, for a "~" that was tested
	Class    string // "ratio", "ratio same", "ratio unknown"
	Dir      string // "up" or "down" when claimed, "same" or "unknown" otherwise
	Title    string // the verdict explained with its numbers
	// Word is the verdict in a word, other against base: "faster",
	// "slower", "within ±10%" when equivalence is claimed, or "~" when
	// no difference is.
	Word string
	// Stat is the statistic the verdict tested, printed beside its ratio
	// so that the two agree: other's and base's geometric means of the
	// verdict's metric, from the same unrounded values the ratio is.
	Stat StatPair
	// Bound is set when Ratio is an end of the interval (a "≥"/"≤" claim),
	// not the point ratio of Stat: "the interval's lower end".
	Bound   string
	Verdict verdict.Verdict
}

// StatPair is the two numbers a ratio divides, as a cell prints them.
type StatPair struct {
	What        string // "geometric means", "geometric means of requests per server CPU second"
	Other, Base string // Count of each
	Unit        string // "req/s", "req/CPU s"
	Point       string // the point ratio Other ÷ Base, for a Bound cell
	// Speed is set where the verdict took the host speed probe's share out
	// of the ratio (verdict.MethodBlockedSpeed), which then is not
	// Other ÷ Base: it gives Other ÷ Base, "4.76× before the host speed
	// probe's share is taken out".
	Speed         string
	OtherV, BaseV float64
}

// judge is the verdict on other against base, as other ÷ base; ok is false
// when the decision layer has none (the cells are in different scenarios).
func (m *model) judge(base, other *verdict.Cell) (Judgement, bool) {
	c, ok := m.dec.Versus(base, other)
	if !ok {
		return Judgement{}, false
	}
	j := judgementOf(c, other.Name, base.Name)
	if r := c.Verdict.Reason; r == verdict.ReasonNotSignificant || r == verdict.ReasonWithinFloor {
		if s := m.powerText(m.family(base)); s != "" && m.family(base) == m.family(other) {
			j.Power = s
		}
	}
	return j, true
}

// powerText is the decision layer's power statement for a family: the
// smallest difference it could claim at its repetitions and noise, and
// the repetitions a 10% difference needs; "" without one.
func (m *model) powerText(sv *verdict.ScenarioVerdicts) string {
	if sv == nil {
		return ""
	}
	pw, ok := m.dec.Power(sv)
	if !ok {
		return ""
	}
	s := fmt.Sprintf("at n=%d this run can claim only differences beyond %s here", pw.N, fmt.Sprintf("%.0f%%", pw.Smallest*100))
	switch {
	case pw.Need10 == 0:
		s += "; 10% would need more than 200 repetitions or a quieter host"
	case pw.Need10 > pw.N:
		s += fmt.Sprintf("; 10%% would need about %d repetitions", pw.Need10)
	}
	return s
}

func judgementOf(c verdict.Comparison, other, base string) Judgement {
	v := c.Verdict
	j := Judgement{Ratio: Ratio(c.Ratio), Change: Percent(c.Ratio - 1), Title: other + " ÷ " + base + ", geometric means: " + c.Reason, Verdict: v}
	j.Stat = statPair(c, other)
	if finiteAll(c.Lo, c.Hi, v.Level) {
		j.Interval = fmt.Sprintf("%s–%s at %s", trimX(Ratio(c.Lo)), Ratio(c.Hi), intervalLevelLabel(v.Level))
	}
	if v.Claimed() {
		j.Class, j.Dir, j.Word = "ratio", "down", "slower"
		if c.Ratio > 1 {
			j.Dir, j.Word = "up", "faster"
		}
		switch v.Reason {
		case verdict.ReasonAtLeast:
			// The faster side's number is a lower bound: what the claim
			// holds to is the interval's end nearer 1, at least that.
			bound, end := "≥ ", c.Lo
			if c.Ratio < 1 {
				bound, end = "≤ ", c.Hi
			}
			j.Ratio, j.Change = bound+Ratio(end), bound+Percent(end-1)
			j.Short = "at least" // Title explains it (Verdict.Explain)
			j.Bound = "the interval's upper end"
			if c.Ratio > 1 {
				j.Bound = "the interval's lower end"
			}
			j.Stat.Point = Ratio(c.Ratio)
		case verdict.ReasonEfficiency:
			j.Short = "per CPU s"
			j.Title = other + " ÷ " + base + ", requests per server CPU second: " + c.Reason
		}
		return j
	}
	j.Mark, j.Class, j.Dir, j.Word = "~", "ratio same", "same", "~"
	j.Why, j.Short = reasonText(v), shortReason(v.Reason)
	switch v.Reason {
	case verdict.ReasonNotSignificant:
		if finiteAll(c.Lo, c.Hi) {
			j.Power = fmt.Sprintf("at n=%d and %d this run cannot tell apart anything from %s to %s", repsOf(v.CellA), repsOf(v.CellB), Percent(c.Lo-1), Percent(c.Hi-1))
		}
	case verdict.ReasonWithinFloor:
		j.Power = fmt.Sprintf("a difference is likely, but it may be no larger than this run's %s noise floor", pct(v.Floor))
	case verdict.ReasonEquivalent:
		// A claim too, of no difference beyond the margin: its own mark.
		j.Mark, j.Word = "=", "within ±"+pct0(v.Margin)
		j.Power = fmt.Sprintf("two one-sided tests put the two within ±%s of each other", pct0(v.Margin))
	case verdict.ReasonTooFewReps, verdict.ReasonNoData, verdict.ReasonErrors, verdict.ReasonUngated:
		j.Class, j.Dir = "ratio unknown", "unknown"
	}
	return j
}

// statPair is the numbers c's ratio divides: the geometric means of the
// metric the verdict was decided on (requests per server CPU second for a
// claim made on efficiency), other's first.
func statPair(c verdict.Comparison, otherName string) StatPair {
	v := c.Verdict
	other, base := c.Other, c.Base
	sp := StatPair{What: "geometric means", Unit: v.Metric.String()}
	if v.CellA != nil && v.CellB != nil && v.Metric == verdict.MetricEfficiency {
		// Versus gives the stats of its own metric; the verdict's cells
		// give the one it was decided on, oriented as c is.
		other, base = v.CellA.Stat(v.Metric), v.CellB.Stat(v.Metric)
		if v.CellB.Name == otherName {
			other, base = base, other
		}
		sp.What = "geometric means of requests per server CPU second"
	}
	sp.OtherV, sp.BaseV = other.GeoMean, base.GeoMean
	sp.Other, sp.Base = Count(other.GeoMean), Count(base.GeoMean)
	if v.Method == verdict.MethodBlockedSpeed {
		sp.Speed = Ratio(other.GeoMean/base.GeoMean) + " before the host speed probe's share is taken out"
	}
	return sp
}

// reasonText is a "~" verdict's reason in words.
func reasonText(v verdict.Verdict) string {
	switch v.Reason {
	case verdict.ReasonNotSignificant:
		return "not significant"
	case verdict.ReasonWithinFloor:
		return "within the " + pct(v.Floor) + " noise floor"
	case verdict.ReasonClientBound:
		return "client-bound: the load generator was saturated"
	case verdict.ReasonTooFewReps:
		return "too few repetitions to test"
	case verdict.ReasonNoData:
		return "no data"
	case verdict.ReasonErrors:
		return "not tested: a side answered too many requests with an error, which its req/s counts"
	case verdict.ReasonUngated:
		return "not tested: a side has no gate record that passed it"
	case verdict.ReasonOtherRun:
		return "different runs: ranked each within its run"
	case verdict.ReasonEquivalent:
		return "equivalent within ±" + pct0(v.Margin)
	case verdict.ReasonOtherHosts:
		return "measured on different hosts: ranked each within its host pair"
	}
	return v.Reason
}

// shortReason is a "~" reason in a word or two.
func shortReason(reason string) string {
	switch reason {
	case verdict.ReasonNotSignificant:
		return "not significant"
	case verdict.ReasonWithinFloor:
		return "within noise floor"
	case verdict.ReasonClientBound:
		return "client-bound"
	case verdict.ReasonTooFewReps:
		return "too few reps"
	case verdict.ReasonNoData:
		return "no data"
	case verdict.ReasonErrors:
		return "errors"
	case verdict.ReasonUngated:
		return "no gate record"
	case verdict.ReasonOtherRun:
		return "other run"
	case verdict.ReasonEquivalent:
		return "equivalent"
	case verdict.ReasonOtherHosts:
		return "other hosts"
	}
	return reason
}

func repsOf(c *verdict.Cell) int {
	if c == nil {
		return 0
	}
	return len(c.Reps)
}

func pct(f float64) string { return strconv.FormatFloat(f*100, 'f', 1, 64) + "%" }

// pct0 is a margin as a whole percentage where it is one: "10%", "7.5%".
func pct0(f float64) string { return strconv.FormatFloat(math.Round(f*1000)/10, 'f', -1, 64) + "%" }

func trimX(s string) string {
	if len(s) >= len("×") && s[len(s)-len("×"):] == "×" {
		return s[:len(s)-len("×")]
	}
	return s
}

func finiteAll(vs ...float64) bool {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// rankText is a rank range as a table shows it: "1", "2–4", "–" unranked.
func rankText(r verdict.Rank) string {
	switch {
	case !r.Ranked:
		return "–"
	case r.Lo == r.Hi:
		return strconv.Itoa(r.Lo)
	}
	return fmt.Sprintf("%d–%d", r.Lo, r.Hi)
}

// rankNum is a rank range as a sortable table cell, titled with what it
// means.
func (m *model) rankNum(c *verdict.Cell) Num {
	r := m.ranks[c]
	if !r.Ranked {
		return Num{Text: "–", Sort: "999", Title: m.unrankedWhy(c)}
	}
	k := 0
	if sv := m.family(c); sv != nil {
		for _, o := range sv.Ranks {
			if o.Ranked {
				k++
			}
		}
	}
	title := fmt.Sprintf("rank %s of %d: %d judged faster, %d judged slower", rankText(r), k, r.Lo-1, k-r.Hi)
	if c.Run != "" && len(m.runsIn(c.Scenario)) > 1 {
		title += ", within run " + c.Run
	}
	return Num{Text: rankText(r), Sort: strconv.Itoa(r.Lo*1000 + r.Hi), Title: title}
}
