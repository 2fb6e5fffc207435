// Package render builds the static website from parsed measurements: pages
// through html/template from a theme (an fs.FS), SVG charts whose geometry is
// computed here, and nothing that needs a server or a request to elsewhere.
// It scales numbers for display only; the model stays in base units.
//
// render does not collect or parse: it takes a *parse.Set.
package render

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/themes"
)

// Options say where and how to build a site.
type Options struct {
	Out   string // folder to write; created if needed
	Title string // "" uses DefaultTitle
	Theme fs.FS  // nil uses themes.Default
}

// DefaultTitle is the site title when none is given.
const DefaultTitle = "HTTP framework benchmark"

// Build writes the site for set into opt.Out and returns the path of its
// index.html. The same set renders byte-identical files.
func Build(set *parse.Set, opt Options) (string, error) {
	if opt.Theme == nil {
		opt.Theme = themes.Default
	}
	if opt.Title == "" {
		opt.Title = DefaultTitle
	}
	tmpl, err := template.New("site").ParseFS(opt.Theme, "*.html", "*.svg")
	if err != nil {
		return "", fmt.Errorf("theme: %w", err)
	}
	if err := os.MkdirAll(opt.Out, 0o755); err != nil {
		return "", err
	}
	var page bytes.Buffer
	if err := tmpl.ExecuteTemplate(&page, "index", indexPage(set, opt.Title)); err != nil {
		return "", fmt.Errorf("render index: %w", err)
	}
	index := filepath.Join(opt.Out, "index.html")
	if err := os.WriteFile(index, page.Bytes(), 0o644); err != nil {
		return "", err
	}
	css, err := fs.ReadFile(opt.Theme, "style.css")
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(opt.Out, "style.css"), css, 0o644); err != nil {
		return "", err
	}
	return index, nil
}

// IndexPage is what the index template receives.
type IndexPage struct {
	Title       string
	Runs        []string
	Targets     []string
	Dumps       int
	Scenarios   []ScenarioSection
	Conformance []ConformanceRow
}

// ScenarioSection is one scenario's chart and table.
type ScenarioSection struct {
	Name  string
	Chart BarChart
	Rows  []Row
}

// Row is one target in a scenario table, formatted for display.
type Row struct {
	Target, Median, Good, Min, Max, Latency, Errors string
	N                                               int
}

// ConformanceRow is one target's gate verdict.
type ConformanceRow struct {
	Target, Verdict, Failed string
}

// cell gathers the repetitions of one target in one scenario.
type cell struct {
	target  string
	rps     []float64
	good    []float64
	latency []float64 // mean latency, seconds
	errors  int64
}

func indexPage(set *parse.Set, title string) IndexPage {
	p := IndexPage{Title: title}
	cells := map[string]map[string]*cell{} // scenario → target → cell
	targets := map[string]bool{}
	for _, m := range set.Measurements {
		if m.Warmup {
			continue
		}
		p.Dumps++
		sc := m.Scenario
		if sc == "" {
			sc = "(unnamed)"
		}
		if cells[sc] == nil {
			cells[sc] = map[string]*cell{}
		}
		c := cells[sc][m.Target]
		if c == nil {
			c = &cell{target: m.Target}
			cells[sc][m.Target] = c
		}
		c.rps = append(c.rps, m.RPS)
		c.good = append(c.good, m.GoodRPS())
		c.latency = append(c.latency, m.Latency.Mean.Seconds())
		c.errors += m.Errors.Total()
		targets[m.Target] = true
	}
	for _, r := range set.Runs {
		p.Runs = append(p.Runs, r.ID)
	}
	p.Targets = sortedSet(targets)
	for _, name := range sortedKeys(cells) {
		p.Scenarios = append(p.Scenarios, scenarioSection(name, cells[name]))
	}
	for _, t := range set.Targets {
		if t.Conformance == "" {
			continue
		}
		p.Conformance = append(p.Conformance, ConformanceRow{Target: t.Name, Verdict: t.Conformance, Failed: strings.Join(t.Failed, ", ")})
	}
	return p
}

func scenarioSection(name string, byTarget map[string]*cell) ScenarioSection {
	var cs []*cell
	for _, k := range sortedKeys(byTarget) {
		cs = append(cs, byTarget[k])
	}
	sort.SliceStable(cs, func(i, j int) bool { return median(cs[i].rps) > median(cs[j].rps) })
	s := ScenarioSection{Name: name}
	var bars []BarInput
	for _, c := range cs {
		lo, hi := minMax(c.rps)
		s.Rows = append(s.Rows, Row{
			Target: c.target, Median: Count(median(c.rps)), Good: Count(median(c.good)),
			Min: Count(lo), Max: Count(hi), Latency: Latency(seconds(median(c.latency))),
			Errors: group(c.errors), N: len(c.rps),
		})
		bars = append(bars, BarInput{Label: c.target, Median: median(c.rps), Reps: c.rps, Unit: "req/s"})
	}
	s.Chart = NewBarChart("chart-"+name, name+": requests per second (median of repetitions)", bars)
	return s
}
