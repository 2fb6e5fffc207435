package collect

import (
	"fmt"
	"slices"
	"testing"

	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/rundir"
	"github.com/fairbench/fairbench/parse/runjson"
)

// TestShuffledIsAPermutation: every round is an order of all the targets,
// the same for the same seed and round, and rounds differ.
func TestShuffledIsAPermutation(t *testing.T) {
	names := []string{"a", "b", "c", "d", "e", "f"}
	distinct := map[string]bool{}
	for rep := 1; rep <= 50; rep++ {
		round := shuffled(names, 7, rep)
		if got := slices.Sorted(slices.Values(round)); !slices.Equal(got, names) {
			t.Fatalf("round %d: %v, not an order of %v", rep, round, names)
		}
		if again := shuffled(names, 7, rep); !slices.Equal(again, round) {
			t.Errorf("round %d drawn twice with seed 7: %v, then %v", rep, round, again)
		}
		distinct[fmt.Sprint(round)] = true
	}
	if len(distinct) < 40 {
		t.Errorf("50 rounds of 6 targets took %d orders, want nearly all different", len(distinct))
	}
	if !slices.Equal(names, []string{"a", "b", "c", "d", "e", "f"}) {
		t.Errorf("shuffled reordered its argument: %v", names)
	}
	if slices.Equal(shuffled(names, 7, 1), shuffled(names, 8, 1)) && slices.Equal(shuffled(names, 7, 2), shuffled(names, 8, 2)) {
		t.Error("seeds 7 and 8 drew the same rounds")
	}
	if got := shuffled(nil, 7, 1); len(got) != 0 {
		t.Errorf("no targets: %v", got)
	}
	if s := newSeed(); s == 0 || s >= 1<<53 {
		t.Errorf("newSeed() = %d, want 1 to 2^53-1", s)
	}
}

// TestRoundsSpreadNeighbours runs 1,000 rounds of 6 targets back to back,
// as a collect does: each target is followed by each other about as often
// as chance has it (5/30 of a round's places plus 1/36 of the boundaries
// between rounds), none more than 3 times as often nor less than a third
// as often, and the A/A twins are adjacent no more often than any pair.
// A rotation a place a round fails it: there b follows a in 5 of 6 rounds.
func TestRoundsSpreadNeighbours(t *testing.T) {
	names := []string{"a", "b", "c", "d", "e", "f"}
	const rounds = 1000
	for _, seed := range []int64{1, 2, 3} {
		s := planRounds(runjson.Schedule{Kind: runjson.ScheduleRandom, Seed: seed}, names, rounds)
		var seq []string
		for _, r := range s.Rounds {
			seq = append(seq, r...)
		}
		follows := map[[2]string]int{}
		for i := 1; i < len(seq); i++ {
			follows[[2]string{seq[i-1], seq[i]}]++
		}
		chance := float64(rounds)*5/30 + float64(rounds-1)/36
		for _, a := range names {
			for _, b := range names {
				n := float64(follows[[2]string{a, b}])
				if a != b && (n > 3*chance || n < chance/3) {
					t.Errorf("seed %d: %s followed %s %v times in %d rounds, chance %.0f", seed, b, a, n, rounds, chance)
				}
			}
		}
		twins := float64(follows[[2]string{"a", "b"}] + follows[[2]string{"b", "a"}])
		if twins > 3*2*chance {
			t.Errorf("seed %d: the twins a, b adjacent %v times, chance %.0f", seed, twins, 2*chance)
		}
	}
	rotated := map[[2]string]int{}
	for rep := range rounds {
		k := rep % len(names)
		round := append(slices.Clone(names[k:]), names[:k]...)
		for i := 1; i < len(round); i++ {
			rotated[[2]string{round[i-1], round[i]}]++
		}
	}
	if n := rotated[[2]string{"a", "b"}]; float64(n) <= 3*(float64(rounds)*5/30+float64(rounds-1)/36) {
		t.Errorf("the check is too weak: a rotation has b follow a %d times and passes", n)
	}
}

// TestPlanRoundsKeepsPlanned: planning again keeps every round recorded,
// draws only those missing, and puts a target that joins after the ones
// a recorded round lists.
func TestPlanRoundsKeepsPlanned(t *testing.T) {
	s := planRounds(runjson.Schedule{Kind: runjson.ScheduleRandom, Seed: 42}, []string{"a", "b", "c"}, 3)
	if len(s.Rounds) != 3 || s.Kind != runjson.ScheduleRandom || s.Seed != 42 {
		t.Fatalf("planned %+v, want 3 rounds, kind random, seed 42", s)
	}
	again := planRounds(s, []string{"c", "a", "b"}, 3)
	if !slices.EqualFunc(again.Rounds, s.Rounds, slices.Equal) {
		t.Errorf("planned again: %v, want %v", again.Rounds, s.Rounds)
	}
	recorded := runjson.Schedule{Kind: runjson.ScheduleRandom, Seed: 42, Rounds: [][]string{{"c", "a", "b"}, {"b"}}}
	more := planRounds(recorded, []string{"a", "b", "c", "d"}, 4)
	fresh := planRounds(runjson.Schedule{Seed: 42}, []string{"a", "b", "c", "d"}, 4)
	want := [][]string{
		{"c", "a", "b", "d"},
		append([]string{"b"}, shuffled([]string{"a", "c", "d"}, 42, 2)...),
		fresh.Rounds[2], fresh.Rounds[3],
	}
	if !slices.EqualFunc(more.Rounds, want, slices.Equal) {
		t.Errorf("rounds %v, want %v", more.Rounds, want)
	}
	if len(recorded.Rounds[1]) != 1 {
		t.Errorf("planRounds changed the schedule it was given: %v", recorded.Rounds)
	}
	if long := planRounds(s, []string{"a", "b", "c"}, 2); len(long.Rounds) != 3 {
		t.Errorf("planning fewer rounds dropped recorded ones: %v", long.Rounds)
	}
}

// TestRanRounds reads the order rounds ran in from the measurements: each
// target by its first closed-loop measurement of the round.
func TestRanRounds(t *testing.T) {
	ms := []runjson.Measurement{
		{Target: "b", Rep: 1, Order: 1, Warmup: true}, {Target: "b", Rep: 1, Order: 2},
		{Target: "a", Rep: 1, Order: 3}, {Target: "a", Rep: 2, Order: 6}, {Target: "c", Rep: 2, Order: 5},
		{Target: "a", Rep: 1, Order: 9, Phase: "latency"},
	}
	if got, want := ranRounds(ms), [][]string{{"b", "a"}, {"c", "a"}}; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("ranRounds = %v, want %v", got, want)
	}
}

const scheduleSuite = `
name = "schedule"

[load]
repetitions = 4

[[target]]
name = "a"
start = ["true"]

[[target]]
name = "b"
start = ["true"]

[[target]]
name = "c"
start = ["true"]

[[scenario]]
name = "hi"
request = { path = "/" }
expect = { status = 200 }
`

// scheduleCollector is a collector of scheduleSuite on a new run dir
// holding m.
func scheduleCollector(t *testing.T, m runjson.Manifest, seed int64) *collector {
	t.Helper()
	s, err := suite.ParseSuite([]byte(scheduleSuite), "schedule.toml")
	if err != nil {
		t.Fatal(err)
	}
	m.Schema, m.ID = runjson.SchemaVersion, "run"
	d, err := rundir.Create(t.TempDir(), m, s.Source)
	if err != nil {
		t.Fatal(err)
	}
	c := newCollector(s, Options{Seed: seed})
	c.dir = d
	return c
}

// TestScheduleRecordedAndResumed: a new run records a random schedule of
// the suite's rounds with the seed given and takes its rounds in that
// order; a run resumed part way keeps the rounds it recorded, with a
// target that joins after them, whatever seed it is given; a run written
// before schedules keeps the order its rounds ran in.
func TestScheduleRecordedAndResumed(t *testing.T) {
	c := scheduleCollector(t, runjson.Manifest{}, 99)
	targets := c.suite.Targets
	if err := c.planSchedule(targets, c.rounds()); err != nil {
		t.Fatal(err)
	}
	s := c.dir.Manifest().Schedule
	want := planRounds(runjson.Schedule{Kind: runjson.ScheduleRandom, Seed: 99}, []string{"a", "b", "c"}, 4)
	if s == nil || s.Kind != runjson.ScheduleRandom || s.Seed != 99 || !slices.EqualFunc(s.Rounds, want.Rounds, slices.Equal) {
		t.Fatalf("schedule %+v, want %+v", s, want)
	}
	for rep := 1; rep <= 4; rep++ {
		var got []string
		for _, tg := range c.inTurn(targets, rep) {
			got = append(got, tg.Name)
		}
		if !slices.Equal(got, s.Round(rep)) {
			t.Errorf("round %d taken in order %v, want the schedule's %v", rep, got, s.Round(rep))
		}
	}

	recorded := &runjson.Schedule{Kind: runjson.ScheduleRandom, Seed: 5, Rounds: [][]string{{"b", "a"}, {"a", "b"}, {"b", "a"}, {"a", "b"}}}
	done := []runjson.Measurement{{Target: "b", Scenario: "hi", Rep: 1, Order: 1, SHA256: "x"}}
	resumed := scheduleCollector(t, runjson.Manifest{Schedule: recorded, Measurements: done}, 77)
	if err := resumed.planSchedule(targets, resumed.rounds()); err != nil {
		t.Fatal(err)
	}
	got := resumed.dir.Manifest().Schedule
	if got.Seed != 5 || len(got.Rounds) != 4 {
		t.Fatalf("resumed schedule %+v, want seed 5 and 4 rounds", got)
	}
	for rep, round := range got.Rounds {
		if !slices.Equal(round[:2], recorded.Rounds[rep]) || len(round) != 3 || round[2] != "c" {
			t.Errorf("resumed round %d: %v, want %v then c", rep+1, round, recorded.Rounds[rep])
		}
	}
	if order := resumed.inTurn(targets[:2], 1); order[0].Name != "b" || order[1].Name != "a" {
		t.Errorf("resumed round 1 in order %v, want b, a", order)
	}

	older := scheduleCollector(t, runjson.Manifest{Measurements: []runjson.Measurement{
		{Target: "c", Rep: 1, Order: 1}, {Target: "a", Rep: 1, Order: 2}, {Target: "b", Rep: 1, Order: 3}, {Target: "b", Rep: 2, Order: 4},
	}}, 0)
	if err := older.planSchedule(targets, older.rounds()); err != nil {
		t.Fatal(err)
	}
	o := older.dir.Manifest().Schedule
	if o.Seed == 0 || !slices.Equal(o.Round(1), []string{"c", "a", "b"}) || o.Round(2)[0] != "b" || len(o.Round(2)) != 3 || len(o.Rounds) != 4 {
		t.Errorf("schedule of a run written before schedules: %+v, want a drawn seed, round 1 c, a, b and round 2 from b", o)
	}
}

// TurnsOutOfRound lists the counted closed-loop turns of m that ran out
// of their round (after a counted turn of a later round) or out of their
// place in it (before a target the schedule plans earlier): none when
// every target's counted turns come from its round's stretch of time.
func TurnsOutOfRound(m runjson.Manifest) []string {
	var counted []runjson.Measurement
	for _, mr := range m.Measurements {
		if mr.Phase == "" && !mr.Warmup && mr.Error == "" {
			counted = append(counted, mr)
		}
	}
	slices.SortFunc(counted, func(a, b runjson.Measurement) int { return a.Order - b.Order })
	var out []string
	for i := 1; i < len(counted); i++ {
		prev, mr := counted[i-1], counted[i]
		switch {
		case mr.Rep < prev.Rep:
			out = append(out, fmt.Sprintf("%s rep %d after %s rep %d", mr.Target, mr.Rep, prev.Target, prev.Rep))
		case mr.Rep == prev.Rep && mr.Target != prev.Target:
			p, ok1 := m.Schedule.Place(mr.Rep, mr.Target)
			q, ok2 := m.Schedule.Place(prev.Rep, prev.Target)
			if !ok1 || !ok2 || p < q {
				out = append(out, fmt.Sprintf("%s rep %d (place %d) after %s (place %d)", mr.Target, mr.Rep, p, prev.Target, q))
			}
		}
	}
	return out
}

// TestTurnsOutOfRound: the check the collect tests use finds a turn taken
// after the next round began, and one out of its place.
func TestTurnsOutOfRound(t *testing.T) {
	s := &runjson.Schedule{Rounds: [][]string{{"b", "a"}, {"a", "b"}}}
	turn := func(target string, rep, order int) runjson.Measurement {
		return runjson.Measurement{Target: target, Rep: rep, Order: order}
	}
	dropped := turn("a", 1, 2)
	dropped.Error = "not counted"
	for _, tc := range []struct {
		name string
		ms   []runjson.Measurement
		bad  int
	}{
		{"in order, a retake in place", []runjson.Measurement{turn("b", 1, 1), dropped, turn("a", 1, 3), turn("a", 2, 4), turn("b", 2, 5)}, 0},
		{"retaken after the round", []runjson.Measurement{turn("b", 1, 1), dropped, turn("a", 2, 4), turn("b", 2, 5), turn("a", 1, 6)}, 1},
		{"out of place", []runjson.Measurement{turn("a", 1, 1), turn("b", 1, 2)}, 1},
	} {
		if got := TurnsOutOfRound(runjson.Manifest{Schedule: s, Measurements: tc.ms}); len(got) != tc.bad {
			t.Errorf("%s: %v, want %d", tc.name, got, tc.bad)
		}
	}
}
