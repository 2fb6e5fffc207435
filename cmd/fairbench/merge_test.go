package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/rundir"
	"github.com/fairbench/fairbench/parse/runjson"
)

const mergeSuite = `name = "merge"
[[target]]
name = "a"
[[target]]
name = "b"
`

// writeShard writes a complete shard run dir whose targets each have one
// measurement, a real bombardier dump from parse's testdata.
func writeShard(t *testing.T, shard string, targets ...string) string {
	t.Helper()
	dump, err := os.ReadFile("../../parse/testdata/bombardier-1.2.6__default.txt")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 11, 29, 18, 50, 0, 0, time.UTC)
	end := start.Add(time.Minute)
	st := &suite.Suite{Source: []byte(mergeSuite)}
	d, err := rundir.Create(t.TempDir(), runjson.Manifest{
		Schema: runjson.SchemaVersion, ID: "run", Suite: "merge", SuiteSHA256: st.SHA256(), Status: runjson.StatusComplete,
		Start: start, End: &end, Facts: runjson.Facts{Hostname: "bench" + strings.ReplaceAll(shard, "/", "of"), CPUModel: "Ryzen", Threads: 8},
		Tools: map[string]runjson.Version{"bombardier": {Version: "v1.2.6"}}, Shard: shard,
	}, st.Source)
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range targets {
		rel := "dumps/" + name + "/ping/1.txt"
		sum, err := d.WriteDump(rel, dump)
		if err != nil {
			t.Fatal(err)
		}
		err = d.Update(func(m *runjson.Manifest) {
			m.Targets = append(m.Targets, runjson.Target{Name: name, Conformance: "pass"})
			m.Measurements = append(m.Measurements, runjson.Measurement{
				Target: name, Scenario: "ping", Rep: 1, Order: i + 1, Tool: "bombardier", ToolVersion: "v1.2.6",
				Argv: []string{"bombardier", "-c", "10", "-d", "2s", "http://127.0.0.1:18080/"}, Start: start, End: start.Add(2 * time.Second),
				Dump: rel, SHA256: sum,
			})
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return d.Path
}

// TestMerge merges two shards with the CLI, then parses and audits the
// merged run.
func TestMerge(t *testing.T) {
	a, b := writeShard(t, "1/2", "a"), writeShard(t, "2/2", "b")
	out := t.TempDir()
	stdout, stderr, code := runCLI(t, "merge", "-out", out, b, a)
	if code != 0 {
		t.Fatalf("merge exit %d\n%s", code, stderr)
	}
	merged := strings.TrimSpace(stdout)
	if want := filepath.Join(out, "20261129T185000Z-merged"); merged != want {
		t.Fatalf("merge printed %q, want %q", merged, want)
	}

	jsonl, stderr, code := runCLI(t, "parse", "-format", "json", merged)
	if code != 0 {
		t.Fatalf("parse exit %d\n%s", code, stderr)
	}
	var targets []string
	for _, line := range strings.Split(strings.TrimSpace(jsonl), "\n") {
		var rec struct {
			Kind, Target string
			RPS          float64
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("parse output %q: %v", line, err)
		}
		if rec.Kind == "measurement" {
			targets = append(targets, rec.Target)
			if rec.RPS <= 0 {
				t.Errorf("%s: rps %v", rec.Target, rec.RPS)
			}
		}
	}
	if strings.Join(targets, ",") != "a,b" {
		t.Errorf("parse read measurements of %v, want a and b", targets)
	}

	report, stderr, code := runCLI(t, "audit", merged)
	if code == 2 {
		t.Fatalf("audit exit 2\n%s", stderr)
	}
	for _, rule := range []string{"dump-missing", "dump-changed", "dump-extra", "run-incomplete"} {
		if strings.Contains(report, rule) {
			t.Errorf("audit of the merged run finds %s:\n%s", rule, report)
		}
	}
	// The shards ran on two machines, and each measurement says which.
	if !strings.Contains(report, "host-pair") || !strings.Contains(report, "bench1of2") || !strings.Contains(report, "bench2of2") {
		t.Errorf("audit does not tell that a and b ran on different machines:\n%s", report)
	}
}

func TestMergeErrors(t *testing.T) {
	a := writeShard(t, "1/2", "a")
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no run dirs", []string{"merge"}, 2, "give the run dir of every shard"},
		{"a missing shard", []string{"merge", "-out", t.TempDir(), a}, 2, "fairbench: merge: not every shard is in and complete: shard 2/2 is missing"},
		{"not a run dir", []string{"merge", "-out", t.TempDir(), a, t.TempDir()}, 2, "not a run dir"},
		{"partial", []string{"merge", "-partial", "-out", t.TempDir(), a}, 1, "is failed: 1 of 2 shards merged"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := runCLI(t, tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d saying %q", code, stderr, tt.code, tt.want)
			}
		})
	}
}
