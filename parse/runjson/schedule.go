package runjson

import "slices"

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
