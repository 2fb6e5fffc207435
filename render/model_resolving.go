package render

import (
	"fmt"
	"math"
	"time"

	"github.com/fairbench/fairbench/parse/runjson"
)

// RunResolving is what one run can tell apart, as its pages and
// results.json state it: the median over its scenarios of the smallest
// difference each claims with 80% power at its noise and rounds (the
// decision layer's Power.Resolves), the largest, and, for a run collected
// to a precision, its aim, the time it measured and waited, and why its
// rounds stopped.
type RunResolving struct {
	Run string `json:"run"`
	// Median and Largest are relative differences (0.1 = 10%) over
	// Scenarios families.
	Median    float64 `json:"median"`
	Largest   float64 `json:"largest"`
	Scenarios int     `json:"scenarios"`
	// Aim is the suite's resolve; 0 for a run collected to a fixed count.
	Aim       float64 `json:"aim,omitempty"`
	MeasuredS float64 `json:"measured_s,omitempty"`
	WaitedS   float64 `json:"waited_s,omitempty"`
	BudgetS   float64 `json:"budget_s,omitempty"`
	Stop      string  `json:"stop,omitempty"`
	// TwinFloor is the run's floor where its A/A twins set it above the
	// documented threshold (verdict.Floor.Systematic): part of Median and
	// Largest that more rounds do not lower. 0 where the threshold holds.
	TwinFloor float64 `json:"twin_floor,omitempty"`
	// ShortRounds is the fewest rounds a scenario took where the budget
	// stopped the run before the suite's MinRounds (repetitions); 0 when
	// every scenario took them.
	ShortRounds int `json:"-"`
	MinRounds   int `json:"-"`
	// Sentence says it in words for a reader.
	Sentence string `json:"-"`
}

// runResolving is run's resolving power; ok is false when no family of
// it can say one.
func (m *model) runResolving(run string) (RunResolving, bool) {
	median, largest, n := m.dec.RunResolves(run)
	if n == 0 {
		return RunResolving{}, false
	}
	r := RunResolving{Run: run, Median: round4(median), Largest: round4(largest), Scenarios: n}
	var p *runjson.Precision
	if info := m.runByID(run); info != nil {
		p = info.Precision
	}
	if p != nil {
		r.Aim, r.MeasuredS, r.WaitedS, r.BudgetS, r.Stop = p.Resolve, p.MeasuredS, p.WaitedS, p.BudgetS, p.Stop
		for _, sc := range p.Scenarios {
			if sc.Rounds > 0 && sc.Rounds < p.MinRounds && (r.ShortRounds == 0 || sc.Rounds < r.ShortRounds) {
				r.ShortRounds, r.MinRounds = sc.Rounds, p.MinRounds
			}
		}
	}
	if f, ok := m.dec.RunFloor(run); ok && f.Value > f.Threshold {
		r.TwinFloor = round4(f.Value)
	}
	r.Sentence = resolvingSentence(r)
	return r, true
}

// resolvingSentence says r for a reader: "This run tells apart differences
// of 8.3% or more (the median of its 11 scenarios; …)".
func resolvingSentence(r RunResolving) string {
	of := "its one scenario"
	if r.Scenarios > 1 {
		of = fmt.Sprintf("the median of its %d scenarios, the least precise %s", r.Scenarios, pct(r.Largest))
	}
	s := fmt.Sprintf("This run tells apart differences of %s or more (%s; a difference that large is claimed 4 times in 5 at this run's noise).", pct(r.Median), of)
	if r.TwinFloor > 0 {
		s += fmt.Sprintf(" That includes a floor of %s: this run's A/A twins, one program under two names, stood that far apart beyond their rounds' noise, and a claim must clear it; more rounds do not lower it.", pct(r.TwinFloor))
	}
	switch {
	case r.Aim == 0:
		return s + " It was collected to a fixed count of rounds, whatever the host's noise."
	case r.Stop == runjson.StopBudget:
		s += fmt.Sprintf(" It aimed at %s and measured %s, its whole budget: the host was too noisy that day to reach the aim", pct0(r.Aim), minutes(r.MeasuredS))
		if r.ShortRounds > 0 {
			s += fmt.Sprintf(", and too slow for the suite's %d rounds: the budget ended them after %d", r.MinRounds, r.ShortRounds)
		}
	case r.Stop == runjson.StopMaxRounds:
		s += fmt.Sprintf(" It aimed at %s and measured %s, up to the most rounds a scenario takes", pct0(r.Aim), minutes(r.MeasuredS))
	default:
		s += fmt.Sprintf(" It aimed at %s and measured %s", pct0(r.Aim), minutes(r.MeasuredS))
	}
	if r.WaitedS > 0 {
		s += fmt.Sprintf(", after waiting %s for a quieter host", minutes(r.WaitedS))
	}
	return s + "."
}

// minutes is a wall time for a reader: "42 s", "12 min", "2 h 5 min".
func minutes(s float64) string {
	d := time.Duration(s * float64(time.Second))
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%.0f s", math.Round(s))
	case d < time.Hour:
		return fmt.Sprintf("%.0f min", math.Round(d.Minutes()))
	}
	h := int(d.Hours())
	return fmt.Sprintf("%d h %d min", h, int(math.Round(d.Minutes()))-60*h)
}

// round4 keeps four decimals of a ratio for export.
func round4(f float64) float64 { return math.Round(f*1e4) / 1e4 }

// PrecisionView is one run on show as the methodology page tells how it
// was collected to a precision: what it tells apart, then each noise pilot
// and each scenario's rounds.
type PrecisionView struct {
	Run, Sentence string
	Pilots        []string
	Scenarios     []string
}

// precisionViews are the runs on show, oldest first, with what each
// tells apart and, collected to a precision, its pilots and rounds.
func (m *model) precisionViews() []PrecisionView {
	var out []PrecisionView
	for _, run := range m.runs {
		rr, ok := m.runResolving(run.ID)
		if !ok {
			continue
		}
		v := PrecisionView{Run: run.ID, Sentence: rr.Sentence}
		if p := run.Precision; p != nil {
			for _, pl := range p.Pilots {
				plan := fmt.Sprintf("about %d rounds, %s", pl.Rounds, minutes(pl.PlannedS))
				if pl.Rounds == 0 {
					plan = "more rounds than a scenario takes"
				}
				quiet := "within the budget"
				if !pl.Quiet {
					quiet = "over the budget: too noisy"
				}
				when := "before the first round"
				if pl.AfterRound > 0 {
					when = fmt.Sprintf("after round %d, the twins' noise having jumped to %.1f%% per window", pl.AfterRound, 100*pl.RecentSigma)
				}
				v.Pilots = append(v.Pilots, fmt.Sprintf("%s (%s): %s against %s, %d windows: %.1f%% noise per window; the plan: %s, %s",
					pl.Start.Format("15:04:05 UTC"), when, pl.Targets[0], pl.Targets[len(pl.Targets)-1], len(pl.RPS), 100*pl.Sigma, plan, quiet))
			}
			for _, sc := range p.Scenarios {
				v.Scenarios = append(v.Scenarios, fmt.Sprintf("%s: %d rounds, %.1f%% noise per window, tells apart %s", sc.Scenario, sc.Rounds, 100*sc.Sigma, pct(sc.Resolves)))
			}
		}
		out = append(out, v)
	}
	return out
}
