package audit

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
	"github.com/fairbench/fairbench/parse/verdict"
)

// TestWarmingFindings: pilots whose first windows run a fifth below their
// later ones give one warning naming the program; pilots at one speed, a
// first window that is low in one pilot and high in the next, and a single
// pilot give none.
func TestWarmingFindings(t *testing.T) {
	pilot := func(first0, first1 float64) runjson.Pilot {
		return runjson.Pilot{Targets: []string{"hono-node", "hono-node-aa"},
			RPS: []float64{first0, first1, 97, 99, 100, 102, 98, 101, 100, 99, 103, 100}}
	}
	for _, tc := range []struct {
		name   string
		pilots []runjson.Pilot
		want   string
	}{
		{"warming", []runjson.Pilot{pilot(80, 78), pilot(82, 79), pilot(77, 81)}, "hono-node's first window after its warm-up ran 21% below"},
		{"at one speed", []runjson.Pilot{pilot(99, 101), pilot(100, 98), pilot(102, 100)}, ""},
		{"low then high", []runjson.Pilot{pilot(80, 82), pilot(120, 118)}, ""},
		{"one pilot", []runjson.Pilot{pilot(80, 78)}, ""},
	} {
		run := &parse.Run{Path: "runs/r", Manifest: runjson.Manifest{ID: "r", Precision: &runjson.Precision{Pilots: tc.pilots}}}
		fs := warmingFindings(&parse.Set{Runs: []*parse.Run{run}}, verdict.DefaultThresholds)
		switch {
		case tc.want == "" && len(fs) > 0:
			t.Errorf("%s: %v, want none", tc.name, fs)
		case tc.want != "" && (len(fs) != 1 || !strings.Contains(fs[0].Message, tc.want)):
			t.Errorf("%s: %v, want one saying %q", tc.name, fs, tc.want)
		}
	}
}

// TestWarmingOnCommittedRuns reads two committed runs of the site: the
// nest suite's NestJS twins (6 December, ten pilots) ran their first
// windows after a 1 s warm-up well below their later ones; the planted
// suite's plain Node server (the same afternoon, three pilots) did not.
func TestWarmingOnCommittedRuns(t *testing.T) {
	for _, tc := range []struct {
		run  string
		warm bool
	}{
		{"20261206T190404Z-vm", true},
		{"20261206T161036Z-vm", false},
	} {
		run, err := parse.ReadRun(filepath.Join("..", "..", "site", "results", tc.run))
		if err != nil {
			t.Fatal(err)
		}
		fs := warmingFindings(&parse.Set{Runs: []*parse.Run{run}}, verdict.DefaultThresholds)
		if got := len(fs) > 0; got != tc.warm {
			t.Errorf("%s: warming %v, want %v: %v", tc.run, got, tc.warm, fs)
		}
		for _, f := range fs {
			t.Logf("%s: %s (%d dumps)", tc.run, f.Message, len(f.Dumps))
		}
	}
}
