package history

import (
	"slices"
	"testing"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
)

// TestRunsOfPairs: a run's twins are its aa_pairs where it names them,
// else its aa_pair; a pair of one name twice is left out.
func TestRunsOfPairs(t *testing.T) {
	set := &parse.Set{Runs: []*parse.Run{
		{Manifest: runjson.Manifest{ID: "a", AAPair: []string{"n", "n-aa"}}},
		{Manifest: runjson.Manifest{ID: "b", AAPair: []string{"n", "n-aa"}, AAPairs: [][]string{{"n", "n-aa"}, {"g", "g-aa"}}}},
		{Manifest: runjson.Manifest{ID: "c", AAPairs: [][]string{{"x", "x"}, {"g", "g-aa"}}}},
	}}
	want := [][][2]string{{{"n", "n-aa"}}, {{"n", "n-aa"}, {"g", "g-aa"}}, {{"g", "g-aa"}}}
	for i, r := range RunsOf(set) {
		if !slices.Equal(r.Twins, want[i]) {
			t.Errorf("run %s: twins %q, want %q", r.ID, r.Twins, want[i])
		}
	}
}

// TestControlPair: a place is read against the pair of its own runtime
// where every run measured it, else against the first pair every run
// measured; a twin against its own pair only.
func TestControlPair(t *testing.T) {
	node, goPair := [2]string{"n", "n-aa"}, [2]string{"g", "g-aa"}
	run := func(pairs ...[2]string) *Run {
		r := &Run{ID: "r", Twins: pairs, Cells: map[Place][]float64{}}
		for _, p := range pairs {
			for _, name := range p {
				rt := "node"
				if p == goPair {
					rt = "go"
				}
				r.Cells[Place{"ping", name, rt}] = []float64{1, 2}
			}
		}
		for _, p := range []Place{{"ping", "gin", "go"}, {"ping", "hono", "node"}, {"ping", "elysia", "bun"}} {
			r.Cells[p] = []float64{1, 2}
		}
		return r
	}
	both, nodeOnly := run(node, goPair), run(node)
	for _, c := range []struct {
		name string
		runs []*Run
		p    Place
		want [2]string
		ok   bool
	}{
		{"go server, both pairs", []*Run{both, both}, Place{"ping", "gin", "go"}, goPair, true},
		{"node server, both pairs", []*Run{both, both}, Place{"ping", "hono", "node"}, node, true},
		{"bun server: the first pair", []*Run{both}, Place{"ping", "elysia", "bun"}, node, true},
		{"a baseline without the go pair", []*Run{both, nodeOnly}, Place{"ping", "gin", "go"}, node, true},
		{"go twin, its own pair", []*Run{both}, Place{"ping", "g-aa", "go"}, goPair, true},
		{"go twin, a baseline without its pair", []*Run{both, nodeOnly}, Place{"ping", "g-aa", "go"}, [2]string{}, false},
		{"no pairs", []*Run{run()}, Place{"ping", "gin", "go"}, [2]string{}, false},
	} {
		got, ok := controlPair(c.runs, c.p)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("%s: %q %v, want %q %v", c.name, got, ok, c.want, c.ok)
		}
	}
}
