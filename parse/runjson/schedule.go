package runjson

import (
	"slices"
	"time"
)

// ScheduleRandom is the Schedule.Kind of rounds that each visit the
// targets in an order drawn afresh: a shuffle seeded by Schedule.Seed.
const ScheduleRandom = "random"

// Schedule is the order the targets took their turns in, round by round.
// Round r (from 1) is every target's repetition r: Rounds[r-1] names the
// targets in the order their turns were planned, so a turn's round is its
// measurement's Rep and its place in the round is Place. The passes after
// the closed-loop one (latency, sweep) visit the targets in the same order
// in their round r. A turn taken again at once (HostSpeed.Retake) keeps
// its place; Measurement.Order says what ran when.
//
// With Kind ScheduleRandom each round's order is drawn independently of
// the others from Seed, so no target has a fixed neighbour and the A/A
// twins are adjacent only as often as chance has them: an effect of what
// ran just before a turn (carry-over) spreads over all targets instead of
// posing as one target's speed. A resumed run keeps the rounds recorded
// here and draws only the rounds not planned yet.
type Schedule struct {
	Kind string `json:"kind"`
	// Seed seeds the shuffle of each round; a collect draws one below
	// 2^53, so that any JSON reader holds it exactly, unless one is given.
	Seed   int64      `json:"seed"`
	Rounds [][]string `json:"rounds"`
}

// Round is round rep's order (rep counted from 1); nil when it is not
// planned.
func (s *Schedule) Round(rep int) []string {
	if s == nil || rep < 1 || rep > len(s.Rounds) {
		return nil
	}
	return s.Rounds[rep-1]
}

// Place is target's place in round rep, counted from 0: how many turns
// were planned before its turn in that round; false when the round does
// not list it.
func (s *Schedule) Place(rep int, target string) (int, bool) {
	i := slices.Index(s.Round(rep), target)
	return i, i >= 0
}

// Precision is how a run collected to a precision went (the suite's [load]
// resolve and budget): rounds are added to a scenario while its family's
// smallest difference claimable with 80% power, computed from the noise of
// the rounds so far and never from their differences, is above Resolve,
// until the budget is spent. A run written before it, or collected to a
// fixed count, has none.
type Precision struct {
	// Resolve is the smallest relative difference the run set out to
	// tell apart (0.1 = 10%); it is also the margin of its equivalence
	// verdicts.
	Resolve float64 `json:"resolve"`
	// BudgetS is the most wall time the closed-loop rounds could take, s.
	BudgetS float64 `json:"budget_s"`
	// MinRounds is the rounds every scenario takes whatever its noise
	// (the suite's repetitions), unless the suite's budget ends the rounds
	// before them (never before 3): Scenarios then say how many it took.
	MinRounds int `json:"min_rounds"`
	// Pilots are the noise pilots taken before the first round, and
	// those taken again where the twins' noise jumped (Pilot.AfterRound).
	Pilots []Pilot `json:"pilots,omitempty"`
	// WaitedS is how long the collect waited for the host to quieten.
	WaitedS float64 `json:"waited_s,omitempty"`
	// MeasuredS is the wall time the closed-loop rounds took, s.
	MeasuredS float64 `json:"measured_s"`
	// Scenarios are each scenario's rounds and what they resolve, as last
	// checked.
	Scenarios []ScenarioPrecision `json:"scenarios,omitempty"`
	// Stop is why no more rounds were taken: StopResolved, StopBudget or
	// StopMaxRounds; "" while the rounds go on.
	Stop string `json:"stop,omitempty"`
}

// Why a collect to a precision took no more rounds (Precision.Stop).
const (
	StopResolved  = "resolved"   // every scenario resolves Resolve
	StopBudget    = "budget"     // the budget holds no further round
	StopMaxRounds = "max-rounds" // the most rounds a scenario may take
)

// Pilot is one noise pilot: windows of the suite's length on two live
// servers of one program (the A/A twins, or the reference target twice)
// in alternation, each pair of windows adjacent in time.
type Pilot struct {
	Start   time.Time `json:"start"`
	Targets []string  `json:"targets"`
	// RPS are the windows' req/s in the order taken, read from the load
	// tool's output.
	RPS []float64 `json:"rps"`
	// Sigma is the noise of one window on log throughput: the sd of the
	// adjacent pairs' log differences ÷ √2.
	Sigma float64 `json:"sigma"`
	// Rounds is the rounds the suite's largest family needs at this noise
	// to resolve Resolve (0: more than 200); PlannedS what they would
	// take, s.
	Rounds   int     `json:"rounds"`
	PlannedS float64 `json:"planned_s"`
	// Quiet reports whether the budget holds the rounds planned.
	Quiet bool `json:"quiet"`
	// AfterRound is the round after which the collect piloted again, the
	// twins' noise in its rounds having jumped (RecentSigma); 0 for a
	// pilot before the first round.
	AfterRound  int     `json:"after_round,omitempty"`
	RecentSigma float64 `json:"recent_sigma,omitempty"`
}

// ScenarioPrecision is one scenario's rounds and what they resolve.
type ScenarioPrecision struct {
	Scenario string `json:"scenario"`
	// Rounds is the rounds planned for the scenario so far.
	Rounds int `json:"rounds"`
	// Sigma is the family's noise of one window on log throughput, and
	// Resolves the smallest relative difference it claims with 80% power
	// at its rounds (0: not computed yet).
	Sigma    float64 `json:"sigma"`
	Resolves float64 `json:"resolves"`
}

// RoundsOf is the rounds planned for scenario, 0 when p plans none.
func (p *Precision) RoundsOf(scenario string) int {
	if p == nil {
		return 0
	}
	for _, s := range p.Scenarios {
		if s.Scenario == scenario {
			return s.Rounds
		}
	}
	return 0
}
