package render

import (
	"maps"
	"math"
	"path/filepath"
	"slices"
	"sort"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/audit"
	"github.com/fairbench/fairbench/parse/verdict"
)

// model is everything the pages are made from, computed once: the cells of
// the run on show (the primary run) with their statistics, tiers and
// findings, the other runs for history, and the links between pages.
type model struct {
	site *Site
	in   *Input
	set  *parse.Set // the runs on show, and dumps from outside run dirs
	// closed is set with only its closed-loop measurements (Phase ""):
	// what cells, verdicts, cards and tables are made from.
	closed *parse.Set
	// points are the latency and sweep measurements of the runs on show,
	// warm-ups left out (latency.go).
	points []*parse.Measurement
	// openScenarios and openNames are the scenarios and targets with
	// points but no closed-loop cell, which get pages of their points.
	openScenarios, openNames []string
	// resultsMD is results.md as written, for a README's table.
	resultsMD []byte
	th        verdict.Thresholds
	metric    verdict.Metric

	// The runs on show are the newest run of each suite (a site may publish
	// several suites: Go and JavaScript, say); older runs make the history.
	primary map[string]bool // run IDs on show; "" for dumps outside run dirs
	runs    []*parse.Run    // the runs on show, oldest first
	run     string          // the newest run on show, "" for dumps outside run dirs
	runInfo *parse.Run      // the newest run on show; nil for dumps outside run dirs
	all     []*verdict.Cell
	cells   []*verdict.Cell // the primary run's

	scenarios []string // in the order they ran
	names     []string // cell names, sorted
	byKey     map[[2]string]*verdict.Cell
	byRun     map[[3]string]*verdict.Cell // run, scenario, name → cell, for the runs on show
	// dec is every pairwise verdict, made once by the decision layer: the
	// family is all pairs of targets in one scenario of one run, so cells
	// of different runs are ranked each within its run.
	dec      *verdict.Decided
	ranks    map[*verdict.Cell]verdict.Rank       // rank range within its family
	vsLeader map[*verdict.Cell]verdict.Comparison // the family's leader against the cell
	leader   map[*verdict.Cell]*verdict.Cell      // cell → its family's first (highest geometric mean)
	findings []audit.Finding                      // the audit of the runs on show; older runs are not audited
	facts    map[string]*parse.Target             // cell name → the target's facts
	geo      verdict.GeoMean

	links   *linker
	runDirs map[string]string // run ID → its dir, cleaned, for every run read
	// warnings are what render says of the site's own files beside the
	// pages it wrote (a figure the runs on show cannot answer).
	warnings []string
}

func newModel(in *Input, site *Site) *model {
	set := in.set()
	m := &model{site: site, in: in, set: set, th: in.th, metric: in.metric}
	th := m.th
	m.closed = closedLoop(set)
	m.all = verdict.Cells(m.closed, th)
	m.runs, m.primary = primaryRuns(set, m.all)
	if hasLoosePoints(set) {
		m.primary[""] = true
	}
	if n := len(m.runs); n > 0 {
		m.runInfo, m.run = m.runs[n-1], m.runs[n-1].ID
	}
	for _, c := range m.all {
		if m.primary[c.Run] {
			m.cells = append(m.cells, c)
		}
	}
	m.byKey = map[[2]string]*verdict.Cell{}
	m.byRun = map[[3]string]*verdict.Cell{}
	names := map[string]bool{}
	for _, c := range m.cells {
		m.byRun[[3]string{c.Run, c.Scenario, c.Name}] = c
		// A name measured in one scenario by two runs on show (two suites
		// that share a scenario name) is looked up in the oldest of them:
		// deterministic, whichever run came last.
		if k := [2]string{c.Scenario, c.Name}; m.byKey[k] == nil {
			m.byKey[k] = c
		}
		names[c.Name] = true
	}
	m.names = slices.Sorted(maps.Keys(names))
	runRank := map[string]int{}
	for i, r := range m.runs {
		runRank[r.ID] = i
	}
	m.scenarios = scenarioOrder(m.cells, runRank)
	var pairs [][2]string
	for _, p := range site.AAPairs {
		if len(p) == 2 {
			pairs = append(pairs, [2]string{p[0], p[1]})
		}
	}
	m.rankCells(pairs)
	// The audit sees every measurement: its rules keep latency and sweep
	// points apart from the throughput cells themselves, and its open-model
	// rules read the points.
	m.findings = audit.Audit(set, audit.AuditOptions{Thresholds: th, Pairs: pairs})
	m.facts = targetFacts(set, m.cells)
	m.points = m.openPoints(set)
	// One geometric mean over every run on show, as one group.
	for _, g := range verdict.GeoMeans(withoutRun(m.cells), m.metric) {
		m.geo = g
	}
	m.runDirs = map[string]string{}
	for _, r := range in.runs {
		if _, ok := m.runDirs[r.id]; !ok && r.path != "" {
			m.runDirs[r.id] = filepath.Clean(r.path)
		}
	}
	m.openScenarios, m.openNames = m.openOnly()
	m.links = newLinker(set, append(slices.Clip(m.scenarios), m.openScenarios...), append(slices.Clip(m.names), m.openNames...))
	for f := range m.dumpFiles() {
		m.links.viewed[f] = true
	}
	return m
}

// primaryRuns picks the runs on show: the newest run of each suite that
// has cells, oldest first, and the set of their IDs. Cells read from dumps
// outside run dirs (run "") are always on show.
func primaryRuns(set *parse.Set, cells []*verdict.Cell) ([]*parse.Run, map[string]bool) {
	has := map[string]bool{}
	for _, c := range cells {
		has[c.Run] = true
	}
	newest := map[string]*parse.Run{} // suite → run
	for _, r := range set.Runs {
		if !has[r.ID] {
			continue
		}
		key := r.Suite
		if key == "" {
			key = "run " + r.ID
		}
		if b := newest[key]; b == nil || r.Start.After(b.Start) || (r.Start.Equal(b.Start) && r.ID > b.ID) {
			newest[key] = r
		}
	}
	primary := map[string]bool{"": has[""]}
	var runs []*parse.Run
	for _, r := range newest {
		runs = append(runs, r)
		primary[r.ID] = true
	}
	sort.Slice(runs, func(i, j int) bool {
		if !runs[i].Start.Equal(runs[j].Start) {
			return runs[i].Start.Before(runs[j].Start)
		}
		return runs[i].ID < runs[j].ID
	})
	if len(runs) == 0 {
		// Cells that name runs no run.json describes: show them all.
		for id := range has {
			primary[id] = true
		}
	}
	return runs, primary
}

// scenarioOrder lists scenarios in the order they first ran (runs in the
// order of runRank, then each run's own order), by name where the order is
// unknown.
func scenarioOrder(cells []*verdict.Cell, runRank map[string]int) []string {
	first := map[string]int{}
	for _, c := range cells {
		o := math.MaxInt
		for _, r := range c.Reps {
			if r.Order > 0 {
				o = min(o, runRank[c.Run]<<32+r.Order)
			}
		}
		if f, ok := first[c.Scenario]; !ok || o < f {
			first[c.Scenario] = o
		}
	}
	out := slices.Sorted(maps.Keys(first))
	sort.SliceStable(out, func(i, j int) bool { return first[out[i]] < first[out[j]] })
	return out
}

// rankCells asks the decision layer for every verdict of the runs on show
// and keeps, per cell, its rank range, its family's leader and the
// leader's verdict against it. Nothing is decided here.
func (m *model) rankCells(aaPairs [][2]string) {
	m.dec = verdict.DecideOnce(m.closed, m.cells, m.all, m.metric, verdict.DecideOptions{Thresholds: m.th, AAPairs: aaPairs})
	m.ranks = map[*verdict.Cell]verdict.Rank{}
	m.vsLeader = map[*verdict.Cell]verdict.Comparison{}
	m.leader = map[*verdict.Cell]*verdict.Cell{}
	for _, sv := range m.dec.Scenarios {
		for _, r := range sv.Ranks {
			m.ranks[r.Cell] = r
		}
		if len(sv.Cells) == 0 {
			continue
		}
		lead := sv.Cells[0]
		for _, c := range sv.Cells {
			m.leader[c] = lead
			if c == lead {
				continue
			}
			if cmp, ok := m.dec.Versus(lead, c); ok {
				m.vsLeader[c] = cmp
			}
		}
	}
}

// runByID is the run on show with that ID, nil if none.
func (m *model) runByID(id string) *parse.Run {
	for _, r := range m.runs {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// family is the verdicts of cell c's scenario in c's run, nil if none.
func (m *model) family(c *verdict.Cell) *verdict.ScenarioVerdicts { return m.dec.Scenario(c) }

// suiteName is the suite of a run on show, or its ID where it names none.
func (m *model) suiteName(run string) string {
	if info := m.runByID(run); info != nil && info.Suite != "" {
		return info.Suite
	}
	return run
}

// runWords names a run on show for a reader: its suite and when it
// started ("js-frameworks, collected 2026-12-03 09:28 UTC"); the ID, which
// pages keep for titles and folds, where the run says neither.
func (m *model) runWords(run string) string {
	info := m.runByID(run)
	if info == nil || info.Suite == "" {
		return run
	}
	if info.Start.IsZero() {
		return info.Suite
	}
	return info.Suite + ", collected " + m.runStart(run)
}

// runStart is when a run on show started, "2026-12-03 09:28 UTC"; its ID
// where it does not say.
func (m *model) runStart(run string) string {
	if info := m.runByID(run); info != nil && !info.Start.IsZero() {
		return info.Start.UTC().Format("2006-01-02 15:04 MST")
	}
	return run
}

// runsIn are the runs on show with cells in scenario s, in the order of
// m.runs; more than one means the scenario page ranks each apart.
func (m *model) runsIn(s string) []string {
	has := map[string]bool{}
	for _, c := range m.cells {
		if c.Scenario == s {
			has[c.Run] = true
		}
	}
	var out []string
	for _, r := range m.runs {
		if has[r.ID] {
			out = append(out, r.ID)
		}
	}
	if has[""] {
		out = append(out, "")
	}
	return out
}

// scenarioCells are the primary runs' cells of scenario s: run by run (in
// the order of m.runs), each run's cells family by family (host pair by
// host pair), in its family's order (highest geometric mean first,
// untested cells last).
func (m *model) scenarioCells(s string) []*verdict.Cell {
	var cs []*verdict.Cell
	for _, run := range m.runsIn(s) {
		for _, sv := range m.dec.Families(run, s) {
			cs = append(cs, sv.Cells...)
		}
	}
	return cs
}

// cell is the primary run's cell of a name in a scenario, nil if none.
func (m *model) cell(scenario, name string) *verdict.Cell {
	return m.byKey[[2]string{scenario, name}]
}

// sharedRun is the newest run on show in which every one of names has a
// cell in scenario, "" and false when no run has them all. A comparison
// takes its cells from one run where it can: no verdict crosses runs, and
// a target published by two suites is then compared where it was measured
// beside the other.
func (m *model) sharedRun(scenario string, names ...string) (string, bool) {
	for i := len(m.runs) - 1; i >= 0; i-- {
		id := m.runs[i].ID
		if !slices.ContainsFunc(names, func(n string) bool { return m.byRun[[3]string{id, scenario, n}] == nil }) {
			return id, true
		}
	}
	if m.primary[""] && !slices.ContainsFunc(names, func(n string) bool { return m.byRun[[3]string{"", scenario, n}] == nil }) {
		return "", true
	}
	return "", false
}

// resolve finds the cell name a site.toml name means: a cell name, or a
// target name that only one cell name carries.
func (m *model) resolve(name string) (string, bool) {
	if slices.Contains(m.names, name) {
		return name, true
	}
	var found []string
	for _, c := range m.cells {
		if c.Target == name && !slices.Contains(found, c.Name) {
			found = append(found, c.Name)
		}
	}
	if len(found) == 1 {
		return found[0], true
	}
	return "", false
}

// targetFacts maps each cell name to the facts recorded for its target in
// the same run: build, startup, memory, artifact, conformance.
func targetFacts(set *parse.Set, cells []*verdict.Cell) map[string]*parse.Target {
	out := map[string]*parse.Target{}
	for _, c := range cells {
		if _, done := out[c.Name]; done {
			continue
		}
		for _, t := range set.Targets {
			if t.Run == c.Run && t.Name == c.Target && (t.Runtime == c.Runtime || t.Runtime == "" || c.Runtime == "") {
				out[c.Name] = t
				break
			}
		}
	}
	return out
}

// cellFindings are the findings about one cell.
func (m *model) cellFindings(c *verdict.Cell) []audit.Finding {
	var out []audit.Finding
	for _, f := range m.findings {
		if f.Run == c.Run && f.Target == c.Name && f.Scenario == c.Scenario {
			out = append(out, f)
		}
	}
	return out
}

// scenarioFindings are the findings about a scenario as a whole.
func (m *model) scenarioFindings(s string) []audit.Finding {
	var out []audit.Finding
	for _, f := range m.findings {
		if m.primary[f.Run] && f.Target == "" && f.Scenario == s {
			out = append(out, f)
		}
	}
	return out
}

// targetFindings are the findings about a target as a whole, on no one
// scenario (process-rep, a run-wide client-saturated), in the runs on show.
func (m *model) targetFindings(name string) []audit.Finding {
	var out []audit.Finding
	for _, f := range m.findings {
		if f.Target == name && f.Scenario == "" && m.primary[f.Run] {
			out = append(out, f)
		}
	}
	return out
}

// targetNames are the distinct target names of the primary run with their
// runtime, for tables that show them apart.
func (m *model) runtimeOf(name string) string {
	for _, c := range m.cells {
		if c.Name == name {
			return c.Runtime
		}
	}
	return ""
}

func (m *model) targetOf(name string) string {
	for _, c := range m.cells {
		if c.Name == name {
			return c.Target
		}
	}
	return name
}

// withoutRun returns copies of cells with the run left out, so that the
// statistics that group by run take every run on show as one.
func withoutRun(cells []*verdict.Cell) []*verdict.Cell {
	out := make([]*verdict.Cell, len(cells))
	for i, c := range cells {
		cc := *c
		cc.Run = ""
		out[i] = &cc
	}
	return out
}
