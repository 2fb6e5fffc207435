package collect

import (
	"math/rand/v2"
	"slices"

	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

// The round order (runjson.Schedule): round r is every target's
// repetition r, and each round visits the targets in an order drawn
// afresh, a shuffle seeded by the run's seed and the round's number. A
// fixed order, or one rotated a place a round, gives each target the same
// neighbour in nearly every round, and an effect of what ran just before a
// turn (caches, sockets, frequency, memory left behind) then reads as the
// target's own speed; drawn afresh, no target keeps a neighbour and the
// A/A twins are adjacent only as often as chance has them. The order is
// written to run.json before the first turn, so that an analysis knows
// each turn's place and a resumed run keeps it.

// shuffled is round rep's order of names: a permutation drawn from seed
// and rep alone, so that a round is the same whenever it is drawn.
func shuffled(names []string, seed int64, rep int) []string {
	out := slices.Clone(names)
	r := rand.New(rand.NewPCG(uint64(seed), uint64(rep)))
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// newSeed draws a seed from 1 to 2^53-1: never 0 (Options.Seed's "draw
// one"), and exact in any JSON reader.
func newSeed() int64 {
	return 1 + rand.Int64N(1<<53-1)
}

// planRounds returns s with rounds 1 to reps planned for names. A round s
// holds keeps its order; names it lacks (targets that join a resumed run)
// follow, in an order drawn like a round's. A round s lacks is drawn.
func planRounds(s runjson.Schedule, names []string, reps int) runjson.Schedule {
	rounds := make([][]string, max(reps, len(s.Rounds)))
	for i := range rounds {
		var planned []string
		if i < len(s.Rounds) {
			planned = slices.Clone(s.Rounds[i])
		}
		var more []string
		for _, n := range names {
			if !slices.Contains(planned, n) {
				more = append(more, n)
			}
		}
		if i < reps {
			planned = append(planned, shuffled(more, s.Seed, i+1)...)
		}
		rounds[i] = planned
	}
	s.Rounds = rounds
	return s
}

// ranRounds are the orders the closed-loop rounds of ms ran in: each
// target by its first measurement in the round. A run written before
// schedules were recorded keeps, on resume, the order its rounds took.
func ranRounds(ms []runjson.Measurement) [][]string {
	var rounds [][]string
	for _, mr := range slices.SortedFunc(slices.Values(ms), func(a, b runjson.Measurement) int { return a.Order - b.Order }) {
		if mr.Phase != "" || mr.Rep < 1 {
			continue
		}
		for len(rounds) < mr.Rep {
			rounds = append(rounds, nil)
		}
		if !slices.Contains(rounds[mr.Rep-1], mr.Target) {
			rounds[mr.Rep-1] = append(rounds[mr.Rep-1], mr.Target)
		}
	}
	return rounds
}

// planSchedule records in run.json the order of rounds 1 to reps for
// targets, before their first turn: the run's schedule where it has one
// (a resumed run keeps its seed and its rounds), else a new one seeded by
// Options.Seed or a drawn seed.
func (c *collector) planSchedule(targets []suite.Target, reps int) error {
	if len(targets) == 0 {
		return nil
	}
	m := c.dir.Manifest()
	s := runjson.Schedule{Kind: runjson.ScheduleRandom, Seed: c.opt.Seed}
	if m.Schedule != nil {
		s = *m.Schedule
	} else {
		if s.Seed == 0 {
			s.Seed = newSeed()
		}
		s.Rounds = ranRounds(m.Measurements)
	}
	var names []string
	for _, t := range targets {
		names = append(names, t.Name)
	}
	next := planRounds(s, names, reps)
	if m.Schedule != nil && slices.EqualFunc(next.Rounds, m.Schedule.Rounds, slices.Equal) {
		return nil
	}
	return c.dir.Update(func(m *runjson.Manifest) { m.Schedule = &next })
}

// rounds is the most rounds any pass takes: the closed-loop repetitions
// and those of the latency and sweep passes, which follow the same order.
func (c *collector) rounds() int {
	n := c.reps()
	for _, p := range c.phasePoints() {
		n = max(n, p.Rep)
	}
	return n
}

// inTurn is targets in the order of round rep as run.json's schedule
// plans it (planSchedule); a target the round does not list follows, in
// the order given.
func (c *collector) inTurn(targets []suite.Target, rep int) []suite.Target {
	order := c.dir.Manifest().Schedule.Round(rep)
	out := slices.Clone(targets)
	slices.SortStableFunc(out, func(a, b suite.Target) int {
		return place(order, a.Name) - place(order, b.Name)
	})
	return out
}

// place is name's index in order, or len(order) when order lacks it.
func place(order []string, name string) int {
	if i := slices.Index(order, name); i >= 0 {
		return i
	}
	return len(order)
}
