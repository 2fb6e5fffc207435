package render

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
	"github.com/fairbench/fairbench/parse/verdict"
)

// loadRuns is one request measured by two suites: "plain" by bombardier at
// 64 connections (targets x and y), "post" by autocannon at 100
// connections pipelining 10 (x and z), under another scenario name, on
// another node.
func loadRuns() *parse.Set {
	set := &parse.Set{Runs: []*parse.Run{
		{Manifest: runjson.Manifest{ID: "r1", Suite: "plain", Start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
			Tools: map[string]runjson.Version{"node": {Version: "v20.20.2"}}}},
		{Manifest: runjson.Manifest{ID: "r2", Suite: "post", Start: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC),
			Tools: map[string]runjson.Version{"node": {Version: "v26.10.0"}}}},
	}}
	for _, c := range []struct {
		run, target, scenario, tool string
		conns, pipe                 int
		rps                         float64
	}{
		{"r1", "x", "plaintext", "bombardier", 64, 0, 1000},
		{"r1", "y", "plaintext", "bombardier", 64, 0, 3000},
		{"r2", "x", "plaintext-pipelined", "autocannon", 100, 10, 2500},
		{"r2", "z", "plaintext-pipelined", "autocannon", 100, 10, 9000},
	} {
		for i, w := range []float64{1, 1.01, 0.99, 1.005, 0.995} {
			set.Measurements = append(set.Measurements, &parse.Measurement{Run: c.run, Target: c.target, Runtime: "node",
				Scenario: c.scenario, Tool: c.tool, Connections: c.conns, Pipelining: c.pipe, URL: "http://127.0.0.1:8080/plaintext",
				Rep: i + 1, Order: i + 1, RPS: c.rps * w, Source: parse.Source{File: fmt.Sprintf("%s-%s-%d.txt", c.run, c.target, i+1)}})
		}
	}
	return set
}

// TestLoadTables checks that a request measured under two load
// configurations is set side by side on both scenario pages, the
// unpipelined one as the reference, only over the targets both measured,
// with the pipelining note and the runtime whose version changed.
func TestLoadTables(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "content"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "content", "pipelining.md"), []byte("## What pipelining does\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	site := &Site{Title: "t", Theme: "default", Metric: "rps", Dir: dir}
	m := newModel(fromSet(loadRuns(), Options{Site: site, Thresholds: verdict.DefaultThresholds}), site)
	for _, s := range []string{"plaintext", "plaintext-pipelined"} {
		p, err := m.scenarioPage(s)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Loads) != 1 {
			t.Fatalf("%s: %d load tables, want 1", s, len(p.Loads))
		}
		lt := p.Loads[0]
		if lt.Ref.Scenario.Text != "plaintext" || lt.Other.Scenario.Text != "plaintext-pipelined" {
			t.Errorf("%s: reference %s, other %s; want the unpipelined plaintext first", s, lt.Ref.Scenario.Text, lt.Other.Scenario.Text)
		}
		if lt.Ref.Load != "bombardier, 64 connections" || lt.Other.Load != "autocannon, 100 connections, pipelining 10" {
			t.Errorf("%s: loads %q and %q", s, lt.Ref.Load, lt.Other.Load)
		}
		if len(lt.Rows) != 1 || lt.Rows[0].Target.Text != "x" || lt.Rows[0].Ratio.Text != "2.50×" {
			t.Errorf("%s: rows %+v, want x alone at 2.50×", s, lt.Rows)
		}
		if !strings.Contains(string(lt.Prose), "What pipelining does") {
			t.Errorf("%s: no pipelining note: %q", s, lt.Prose)
		}
		if len(lt.Changed) != 1 || !strings.Contains(lt.Changed[0], "v20.20.2") || !strings.Contains(lt.Changed[0], "v26.10.0") {
			t.Errorf("%s: changed %q, want node's two versions", s, lt.Changed)
		}
	}
}

// TestLoadTablesOneConfiguration checks that scenarios loaded alike get no
// table.
func TestLoadTablesOneConfiguration(t *testing.T) {
	set := loadRuns()
	for _, ms := range set.Measurements {
		ms.Tool, ms.Connections, ms.Pipelining = "bombardier", 64, 0
	}
	site := &Site{Title: "t", Theme: "default", Metric: "rps"}
	m := newModel(fromSet(set, Options{Site: site, Thresholds: verdict.DefaultThresholds}), site)
	p, err := m.scenarioPage("plaintext")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Loads) != 0 {
		t.Errorf("one load configuration made %d tables", len(p.Loads))
	}
}
