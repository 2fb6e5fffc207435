package render

import (
	"fmt"
	"math"

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
	for _, r := range verdict.ResolvingPower(m.closed, m.dec) {
		out = append(out, resolvingView(r))
	}
	return out
}

// resolvingView is calibration run r as the methodology page shows it.
func resolvingView(r verdict.Resolving) ResolvingView {
	v := ResolvingView{Run: r.Run,
		Settings: fmt.Sprintf("%s of %s", parse.Plural(r.Reps, "repetition"), r.Window.Round(1e6)),
		Twins:    fmt.Sprintf("The A/A twins were claimed apart in %d of %d scenarios.", r.TwinsClaimed, r.Twins)}
	switch {
	case math.IsNaN(r.Smallest) && math.IsNaN(r.Missed):
		v.Summary = "No planted cost was measured: the run recorded no server CPU."
	case math.IsNaN(r.Smallest):
		v.Summary = fmt.Sprintf("None of the planted costs was resolved, up to +%.1f%% CPU per request: on this host at these settings, differences that size read \"~\".", 100*r.Missed)
	case math.IsNaN(r.Missed):
		v.Summary = fmt.Sprintf("Every planted cost was resolved, the smallest +%.1f%% CPU per request.", 100*r.Smallest)
	default:
		v.Summary = fmt.Sprintf("A planted +%.1f%% CPU per request was resolved; +%.1f%% was not: on this host at these settings, differences below about %.0f%% read \"~\".", 100*r.Smallest, 100*r.Missed, 100*r.Smallest)
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
	}
	return s + ": ~ (" + v.Reason + ")"
}
