package render

import (
	"fmt"
	"math"
	"strings"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// ResolvingView is one calibration run on the methodology page: what its
// verdicts resolved of the costs planted on its base targets, at its
// settings, and the twins.
type ResolvingView struct {
	Run      string
	Settings string // "8 repetitions of 2s"
	Summary  string // one sentence: smallest resolved, largest missed
	Twins    string
	Rows     []ResolvingRow
}

// ResolvingRow is one planted pair in one scenario.
type ResolvingRow struct {
	Scenario, Target, Base string
	Cost                   string // measured CPU per request against the base, "+10.3%"
	Verdict                string // the pair's verdict in words, base first
	Resolved               bool
	Wrong                  bool
}

// resolving is each calibration run on show as the methodology page
// shows it; nil when no run names planted targets.
func (m *model) resolving() []ResolvingView {
	var out []ResolvingView
	for _, r := range m.dec.Resolving {
		out = append(out, resolvingView(r))
	}
	return out
}

// resolvingView is calibration run r as the methodology page shows it.
func resolvingView(r verdict.Resolving) ResolvingView {
	v := ResolvingView{Run: r.Run, Summary: resolvingSummary(r),
		Settings: fmt.Sprintf("%s of %s", parse.Plural(r.Reps, "repetition"), r.Window.Round(1e6)),
		Twins:    fmt.Sprintf("The A/A twins were claimed apart in %d of %d scenarios.", r.TwinsClaimed, r.Twins)}
	if r.Reps == 0 {
		v.Settings = "nothing measured"
	}
	for _, p := range r.Planted {
		row := ResolvingRow{Scenario: p.Scenario, Target: p.Target, Base: p.Base, Cost: "unknown",
			Verdict: plantedVerdict(p), Resolved: p.Resolved, Wrong: p.Wrong}
		if !math.IsNaN(p.Cost) {
			row.Cost = fmt.Sprintf("%+.1f%%", 100*p.Cost)
		}
		v.Rows = append(v.Rows, row)
	}
	return v
}

// resolvingSummary is what r resolved in sentences: first any planted copy
// claimed faster than its base, then the costs resolved and missed, then
// the planted copies not measured.
func resolvingSummary(r verdict.Resolving) string {
	var wrong, out []string
	for _, p := range r.Planted {
		if p.Wrong {
			wrong = append(wrong, p.Target+" in "+p.Scenario)
		}
	}
	if len(wrong) > 0 {
		out = append(out, fmt.Sprintf("a planted copy was claimed faster than its base, the wrong way round (%s): this host's verdicts at these settings are not to be trusted until the cause is found",
			strings.Join(wrong, ", ")))
	}
	if c := r.CostSummary(); c != "" {
		out = append(out, c)
	}
	if u := r.UnmeasuredSummary(); u != "" {
		out = append(out, u+": the run says nothing of their costs")
	}
	for i, s := range out {
		out[i] = titleCase(s) + "."
	}
	return strings.Join(out, " ")
}

// plantedVerdict is the planted pair's verdict in a few words, base ÷
// planted: the ratio, its interval where tested, and the outcome.
func plantedVerdict(p verdict.PlantedDiff) string {
	v := p.Verdict.Over(p.Cells[1])
	s := fmt.Sprintf("%.3f×", v.Ratio)
	if !math.IsNaN(v.Lo) {
		s += fmt.Sprintf(" [%.3f, %.3f]", v.Lo, v.Hi)
	}
	switch {
	case p.Resolved:
		return s + ": base faster"
	case p.Wrong:
		return s + ": planted copy claimed faster"
	case v.Outcome() == verdict.OutcomeEquivalent:
		return s + ": = (" + v.Reason + ")"
	}
	return s + ": ~ (" + v.Reason + ")"
}
