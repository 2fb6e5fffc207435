package runjson_test

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/fairbench/fairbench/parse/runjson"
)

// TestScheduleRoundTrip writes and reads back a schedule, its seed exact,
// and finds each turn's place in its round; a run without one has no
// "schedule" key and no rounds.
func TestScheduleRoundTrip(t *testing.T) {
	in := &runjson.Manifest{Schema: runjson.SchemaVersion, ID: "r", Schedule: &runjson.Schedule{
		Kind: runjson.ScheduleRandom, Seed: 1<<53 - 1, Rounds: [][]string{{"gin", "chi", "echo"}, {"echo", "gin", "chi"}}}}
	b, err := runjson.Encode(in)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`"seed": 9007199254740991`)) {
		t.Errorf("run.json does not hold the seed as a plain number:\n%s", b)
	}
	out, err := runjson.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(out.Schedule, in.Schedule) {
		t.Errorf("read back %+v, wrote %+v", out.Schedule, in.Schedule)
	}
	for _, tc := range []struct {
		rep    int
		target string
		place  int
		ok     bool
	}{
		{1, "gin", 0, true}, {2, "gin", 1, true}, {2, "echo", 0, true}, {1, "fiber", -1, false}, {3, "gin", -1, false}, {0, "gin", -1, false},
	} {
		if place, ok := out.Schedule.Place(tc.rep, tc.target); place != tc.place || ok != tc.ok {
			t.Errorf("Place(%d, %s) = %d, %v; want %d, %v", tc.rep, tc.target, place, ok, tc.place, tc.ok)
		}
	}
	b, err = runjson.Encode(&runjson.Manifest{Schema: runjson.SchemaVersion, ID: "r"})
	if err != nil {
		t.Fatal(err)
	}
	old, err := runjson.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte(`"schedule"`)) || old.Schedule.Round(1) != nil {
		t.Errorf("a run without a schedule: %s, round 1 %v", b, old.Schedule.Round(1))
	}
}
