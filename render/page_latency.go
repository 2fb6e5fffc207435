package render

import (
	"maps"
	"slices"

	"github.com/fairbench/fairbench/parse"
)

// The scenarios and targets that have latency or sweep points but no
// closed-loop cell (a wrk2 -R dump read alone, say) get pages of their
// own, made of their points only: no cell, verdict or card counts them.

// openOnly are the scenarios and target names of the points on show that
// no closed-loop cell has, each sorted.
func (m *model) openOnly() (scenarios, names []string) {
	ss, ns := map[string]bool{}, map[string]bool{}
	for _, meas := range m.points {
		if !slices.Contains(m.scenarios, meas.Scenario) {
			ss[meas.Scenario] = true
		}
		if n := m.pointName(meas); !slices.Contains(m.names, n) {
			ns[n] = true
		}
	}
	return slices.Sorted(maps.Keys(ss)), slices.Sorted(maps.Keys(ns))
}

// hasLoosePoints says whether some point was read from outside a run dir,
// which puts such dumps on show even where no closed-loop dump was.
func hasLoosePoints(set *parse.Set) bool {
	for _, meas := range set.Measurements {
		if meas.Run == "" && !meas.Warmup && meas.AfterThroughput() {
			return true
		}
	}
	return false
}

// OpenScenarioPage is a scenario measured only in the latency phase or
// the sweep.
type OpenScenarioPage struct {
	Page
	Name string
	Open *OpenSection
}

func (m *model) openScenarioPage(s string) *OpenScenarioPage {
	p := &OpenScenarioPage{Name: s}
	p.Page = m.newPage("open-scenario", m.links.Scenario(s), s)
	p.Script = true
	p.Open = m.openSection(p.Page, s)
	return p
}

// OpenTargetPage is a target measured only in the latency phase or the
// sweep: what it is, and its points.
type OpenTargetPage struct {
	Page
	Name   string
	Facts  []Fact
	Points *PointTable
}

func (m *model) openTargetPage(name string) *OpenTargetPage {
	p := &OpenTargetPage{Name: name}
	p.Page = m.newPage("open-target", m.links.Target(name), name)
	p.Script = true
	p.Facts = m.targetFacts(name)
	p.Points = m.targetPoints(p.Page, name)
	return p
}

// writeOpenPages writes the pages of openOnly.
func (m *model) writeOpenPages(put func(interface{ page() Page }, error) error) error {
	for _, s := range m.openScenarios {
		if err := put(m.openScenarioPage(s), nil); err != nil {
			return err
		}
	}
	for _, name := range m.openNames {
		if err := put(m.openTargetPage(name), nil); err != nil {
			return err
		}
	}
	return nil
}
