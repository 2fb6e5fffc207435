package history

import (
	"errors"
	"fmt"
	"math"

	"github.com/fairbench/fairbench/parse/verdict"
)

// GateOptions are what a gate claims: a slowdown of at least Threshold (a
// share, 0.05 for 5%), at family-wise level Alpha over the gated places.
type GateOptions struct {
	Threshold float64
	Alpha     float64
}

// Row is one place of the new run against its baseline.
type Row struct {
	Place
	// Ratio is the new run's throughput ÷ the baseline's, both read
	// against the twins' level of their run (the host's mood taken out);
	// Low and High bound it at 1 − 2·Alpha, two-sided.
	Ratio     float64 `json:"ratio"`
	Low       float64 `json:"low"`
	High      float64 `json:"high"`
	P         float64 `json:"p"`          // one-sided: the new run is slower
	PAdjusted float64 `json:"p_adjusted"` // P after Holm over the gated places; P for a twin
	DF        float64 `json:"df"`
	Baselines int     `json:"baselines"` // baseline runs holding the place
	// Twin marks an A/A twin read against its sibling: shown, never gated
	// (a twin claimed slower is a false alarm by construction).
	Twin bool `json:"twin,omitempty"`
	// Slower: the gate claims this place slower by at least the threshold.
	Slower bool   `json:"slower"`
	Reason string `json:"reason"`
}

// Gate is the decision on a new run against baseline runs.
type Gate struct {
	Threshold float64 `json:"threshold"`
	Alpha     float64 `json:"alpha"`
	// Tau is the estimated run-to-run sd of a target's log throughput
	// (beyond its repetitions' noise), from TauPairs twin pairs.
	Tau      float64 `json:"tau"`
	TauPairs int     `json:"tau_pairs"`
	// Spread is the same sd read from the runs themselves: each gated
	// place's levels in the new run and the baselines scattered about
	// their mean, pooled over SpreadDF degrees of freedom (0 with fewer
	// than two baselines). A row counts the larger of the two.
	Spread   float64 `json:"spread"`
	SpreadDF int     `json:"spread_df"`
	Rows     []Row   `json:"rows"`
	// Failed: some gated row is Slower.
	Failed bool     `json:"failed"`
	Notes  []string `json:"notes,omitempty"`
}

// ErrNoBaseline is returned when no baseline run is given.
var ErrNoBaseline = errors.New("gate: no baseline run")

// ErrNothingInCommon is returned when no place of the new run has two
// repetitions in it and in a baseline run: a gate that compared nothing
// must not pass.
var ErrNothingInCommon = errors.New("gate: no target and scenario measured in both the baseline and the new run")

// Decide gates next against base. A place is claimed slower when its
// one-sided p, Holm-adjusted over the gated places, is below Alpha and
// its estimated ratio is at most 1 − Threshold: significant against the
// between-run noise, and as large as the user cares about.
func Decide(base []*Run, next *Run, o GateOptions) (*Gate, error) {
	if len(base) == 0 {
		return nil, ErrNoBaseline
	}
	if o.Alpha <= 0 || o.Alpha >= 0.5 || o.Threshold < 0 || o.Threshold >= 1 {
		return nil, fmt.Errorf("gate: threshold %g or alpha %g out of range", o.Threshold, o.Alpha)
	}
	g := &Gate{Threshold: o.Threshold, Alpha: o.Alpha}
	rl := runVariance(append(append([]*Run{}, base...), next))
	g.Tau, g.TauPairs = math.Sqrt(rl.tau2()), rl.Pairs
	if rl.Pairs == 0 {
		g.Notes = append(g.Notes, "no A/A twins measured in any run given: the host's run-to-run variance is not counted, only the repetitions' noise")
	}
	hs := historySpread(base, next)
	g.Spread, g.SpreadDF = math.Sqrt(hs.tau2()), hs.DF
	var gated []int
	var ps []float64
	for _, p := range next.places() {
		row, ok := decidePlace(base, next, p, rl, hs, o)
		if !ok {
			continue
		}
		if !row.Twin {
			gated = append(gated, len(g.Rows))
			ps = append(ps, row.P)
		}
		g.Rows = append(g.Rows, row)
	}
	if len(gated) == 0 {
		return nil, ErrNothingInCommon
	}
	adj, _ := verdict.Holm(ps, o.Alpha)
	for i, ri := range gated {
		r := &g.Rows[ri]
		r.PAdjusted = adj[i]
		r.Slower = r.PAdjusted < o.Alpha && r.Ratio <= 1-o.Threshold
		r.Reason = reason(*r, o)
		g.Failed = g.Failed || r.Slower
	}
	for i := range g.Rows {
		if g.Rows[i].Twin {
			g.Rows[i].PAdjusted = g.Rows[i].P
			g.Rows[i].Reason = "A/A twin against its sibling: shown, not gated"
		}
	}
	return g, nil
}

// reason says in words why a gated row is or is not claimed slower.
func reason(r Row, o GateOptions) string {
	switch {
	case r.Slower:
		return fmt.Sprintf("slower by %.1f%% (≥ %.1f%%), p %.3g after Holm", (1-r.Ratio)*100, o.Threshold*100, r.PAdjusted)
	case r.PAdjusted >= o.Alpha:
		return fmt.Sprintf("not claimed: p %.3g after Holm ≥ %g", r.PAdjusted, o.Alpha)
	}
	return fmt.Sprintf("claimed slower, but by %.1f%% < %.1f%%", (1-r.Ratio)*100, o.Threshold*100)
}
