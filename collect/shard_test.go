package collect_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect"
	"github.com/fairbench/fairbench/collect/hostcheck"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/rundir"
	"github.com/fairbench/fairbench/parse/runjson"
)

func TestParseShard(t *testing.T) {
	tests := []struct {
		in      string
		want    collect.Shard
		wantErr string
	}{
		{in: "", want: collect.Shard{}},
		{in: "1/1", want: collect.Shard{I: 1, N: 1}},
		{in: "2/3", want: collect.Shard{I: 2, N: 3}},
		{in: " 3 / 3 ", want: collect.Shard{I: 3, N: 3}},
		{in: "3", wantErr: "want I/N"},
		{in: "a/2", wantErr: "whole numbers"},
		{in: "1/", wantErr: "whole numbers"},
		{in: "0/2", wantErr: "I must be between 1 and 2"},
		{in: "3/2", wantErr: "I must be between 1 and 2"},
		{in: "-1/2", wantErr: "I must be between 1 and 2"},
		{in: "1/0", wantErr: "N must be at least 1"},
		{in: "1/2/3", wantErr: "whole numbers"},
	}
	for _, tt := range tests {
		got, err := collect.ParseShard(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseShard(%q) err = %v, want one saying %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
		if got.String() != strings.ReplaceAll(tt.in, " ", "") {
			t.Errorf("ParseShard(%q).String() = %q", tt.in, got.String())
		}
	}
}

func namedTargets(n int) []suite.Target {
	out := make([]suite.Target, n)
	for i := range out {
		out[i].Name = fmt.Sprintf("t%d", i)
	}
	return out
}

// TestShardPartition checks that the shards of a suite hold every target
// exactly once, in suite order, in shares that differ by at most one, and
// that a target appended to the suite leaves the others where they were.
func TestShardPartition(t *testing.T) {
	for n := 1; n <= 5; n++ {
		for count := n; count <= 13; count++ {
			targets := namedTargets(count)
			seen := map[string]int{}
			sizes := []int{}
			for i := 1; i <= n; i++ {
				share := collect.Shard{I: i, N: n}.Targets(targets)
				sizes = append(sizes, len(share))
				for j, tg := range share {
					seen[tg.Name]++
					if j > 0 && slices.IndexFunc(targets, func(x suite.Target) bool { return x.Name == share[j-1].Name }) > slices.IndexFunc(targets, func(x suite.Target) bool { return x.Name == tg.Name }) {
						t.Errorf("N=%d count=%d: shard %d is not in suite order: %v", n, count, i, share)
					}
				}
				again := collect.Shard{I: i, N: n}.Targets(targets)
				if !slices.EqualFunc(share, again, func(a, b suite.Target) bool { return a.Name == b.Name }) {
					t.Errorf("N=%d count=%d: shard %d differs between calls", n, count, i)
				}
				grown := collect.Shard{I: i, N: n}.Targets(namedTargets(count + 1))
				if len(grown) < len(share) || !slices.EqualFunc(share, grown[:len(share)], func(a, b suite.Target) bool { return a.Name == b.Name }) {
					t.Errorf("N=%d count=%d: appending a target moved shard %d's targets: %v, then %v", n, count, i, share, grown)
				}
			}
			for _, tg := range targets {
				if seen[tg.Name] != 1 {
					t.Errorf("N=%d count=%d: %s is in %d shards, want 1", n, count, tg.Name, seen[tg.Name])
				}
			}
			if slices.Max(sizes)-slices.Min(sizes) > 1 {
				t.Errorf("N=%d count=%d: share sizes %v differ by more than one", n, count, sizes)
			}
		}
	}
	if got := (collect.Shard{}).Targets(namedTargets(3)); len(got) != 3 {
		t.Errorf("the zero shard holds %d of 3 targets", len(got))
	}
}

const shardSuite = `
name = "shards"

[load]
tool = "bombardier"
connections = 4
duration = "1s"
warmup = "0s"
repetitions = 1
# capped: plumbing, not speed; uncapped, every window takes both cores
# from the tests running beside it
rate = 1000

[[target]]
name = "a"
start = ["@BIN@"]
env = { BODY = "Hi" }

[[target]]
name = "b"
start = ["@BIN@"]
env = { BODY = "Hi" }

[[target]]
name = "c"
start = ["@BIN@"]
env = { BODY = "Hi" }

[[scenario]]
name = "ping"
request = { method = "GET", path = "/" }
expect = { status = 200, body = "Hi" }
`

// parseShardSuite is shardSuite with hi as every target's server.
func parseShardSuite(t *testing.T, hi string) *suite.Suite {
	t.Helper()
	s, err := suite.ParseSuite([]byte(strings.ReplaceAll(shardSuite, "@BIN@", hi)), filepath.Join(t.TempDir(), "shards.toml"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestShardRefusals checks the errors that stop a sharded collect before
// anything starts.
func TestShardRefusals(t *testing.T) {
	s := parseShardSuite(t, "/nonexistent/hiserver")
	recorded, err := rundir.Create(t.TempDir(), runjson.Manifest{Schema: runjson.SchemaVersion, ID: "r", SuiteSHA256: s.SHA256(), Status: runjson.StatusInterrupted, Shard: "1/2"}, s.Source)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := rundir.Create(t.TempDir(), runjson.Manifest{Schema: runjson.SchemaVersion, ID: "w", SuiteSHA256: s.SHA256(), Status: runjson.StatusInterrupted}, s.Source)
	if err != nil {
		t.Fatal(err)
	}
	merged, err := rundir.Create(t.TempDir(), runjson.Manifest{Schema: runjson.SchemaVersion, ID: "m", SuiteSHA256: s.SHA256(), Status: runjson.StatusFailed, Merged: []runjson.Shard{{Shard: "1/2"}}}, s.Source)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		opt  collect.Options
		want string
	}{
		{"only with shard", collect.Options{Shard: collect.Shard{I: 1, N: 2}, Only: []string{"a"}}, "-only and -shard 1/2 together"},
		{"more shards than targets", collect.Options{Shard: collect.Shard{I: 1, N: 4}}, "has 3 targets, so some shards would be empty: use at most 3 shards"},
		{"resume with another shard", collect.Options{Shard: collect.Shard{I: 2, N: 2}, Resume: recorded.Path}, "was collected as shard 1/2: drop -shard"},
		{"resume a whole run as a shard", collect.Options{Shard: collect.Shard{I: 1, N: 2}, Resume: whole.Path}, "was collected as no shard (the whole suite)"},
		{"resume a shard with -only", collect.Options{Only: []string{"a"}, Resume: recorded.Path}, "-only and -shard 1/2 together"},
		{"resume a merged run", collect.Options{Resume: merged.Path}, "a merged run is not resumed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opt.Out = t.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			_, err := collect.Run(ctx, s, tt.opt)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one saying %q", err, tt.want)
			}
		})
	}
}

// TestResumeKeepsShard resumes an interrupted shard 2/2 without -shard and
// checks that only its share is measured.
func TestResumeKeepsShard(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a server")
	}
	s := parseShardSuite(t, buildHi(t))
	d, err := rundir.Create(t.TempDir(), runjson.Manifest{
		Schema: runjson.SchemaVersion, ID: "shard2", Suite: s.Name, SuiteSHA256: s.SHA256(),
		Status: runjson.StatusInterrupted, Start: time.Now().UTC(), Facts: hostcheck.AskFacts(), Shard: "2/2",
	}, s.Source)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runFault(t, s, collect.Options{Resume: d.Path}); err != nil {
		t.Fatal(err)
	}
	m := checkRunDir(t, d.Path)
	if m.Shard != "2/2" || m.Status != runjson.StatusComplete {
		t.Errorf("shard %q, status %q after resume; want 2/2, complete", m.Shard, m.Status)
	}
	var measured []string
	for _, mr := range m.Measurements {
		measured = append(measured, mr.Target)
	}
	if !slices.Equal(measured, []string{"b"}) {
		t.Errorf("measured %v, want only b (shard 2/2 of a, b, c)", measured)
	}
}
