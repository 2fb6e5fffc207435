package audit

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// RuleHostPair: within one run and scenario, targets measured on different
// (server host, client host) pairs, or one target's repetitions split
// across pairs. A merged run of shards on several machines has this.
const RuleHostPair = "host-pair"

// hostPair is the machine a server ran on and the one its load tool ran on.
type hostPair struct{ server, client string }

// String is "srv1→cli1".
func (p hostPair) String() string { return p.server + "→" + p.client }

// scenarioHosts is where the cells of one run and scenario were measured.
type scenarioHosts struct {
	run, scenario string
	names         map[string]bool                  // cells with a known pair, by Name
	onPair        map[hostPair]map[string]bool     // pair → cell names
	shards        map[hostPair]map[string]bool     // pair → shards ("I/N")
	reps          map[string]map[hostPair][]int    // cell name → pair → reps
	dumps         map[string]map[hostPair][]string // cell name → pair → dumps
}

// hostPairFindings fires, per run and scenario, when its targets ran on
// more than one host pair: a ratio between two of them then compares
// machines as well as frameworks. It also fires for each target whose
// repetitions ran on more than one pair: its median mixes machines.
// Repetitions without host names (dumps read outside a run dir) are left out.
func hostPairFindings(cells []*verdict.Cell) []Finding {
	groups := map[[2]string]*scenarioHosts{}
	var order []*scenarioHosts
	for _, c := range cells {
		k := [2]string{c.Run, c.Scenario}
		g := groups[k]
		if g == nil {
			g = &scenarioHosts{run: c.Run, scenario: c.Scenario, names: map[string]bool{},
				onPair: map[hostPair]map[string]bool{}, shards: map[hostPair]map[string]bool{},
				reps: map[string]map[hostPair][]int{}, dumps: map[string]map[hostPair][]string{}}
			groups[k] = g
			order = append(order, g)
		}
		for _, m := range c.Reps {
			if m.ServerHost != "" || m.ClientHost != "" {
				g.add(c.Name, m)
			}
		}
	}
	var fs []Finding
	for _, g := range order {
		if len(g.onPair) > 1 && len(g.names) > 1 {
			fs = append(fs, g.scenarioFinding())
		}
		for _, name := range slices.Sorted(maps.Keys(g.names)) {
			if len(g.reps[name]) > 1 {
				fs = append(fs, g.targetFinding(name))
			}
		}
	}
	return fs
}

func (g *scenarioHosts) add(name string, m *parse.Measurement) {
	pair := hostPair{m.ServerHost, m.ClientHost}
	g.names[name] = true
	if g.onPair[pair] == nil {
		g.onPair[pair], g.shards[pair] = map[string]bool{}, map[string]bool{}
	}
	g.onPair[pair][name] = true
	if m.Shard != "" {
		g.shards[pair][m.Shard] = true
	}
	if g.reps[name] == nil {
		g.reps[name], g.dumps[name] = map[hostPair][]int{}, map[hostPair][]string{}
	}
	g.reps[name][pair] = append(g.reps[name][pair], m.Rep)
	if m.Source.File != "" {
		g.dumps[name][pair] = append(g.dumps[name][pair], m.Source.File)
	}
}

// pairs are g's host pairs, sorted by their first target, then by name.
func (g *scenarioHosts) pairs() []hostPair {
	var ps []hostPair
	for p := range g.onPair {
		ps = append(ps, p)
	}
	sort.Slice(ps, func(i, j int) bool {
		a, b := slices.Sorted(maps.Keys(g.onPair[ps[i]]))[0], slices.Sorted(maps.Keys(g.onPair[ps[j]]))[0]
		if a != b {
			return a < b
		}
		return ps[i].String() < ps[j].String()
	})
	return ps
}

// pairLabel is "srv1→cli1", with the shards that ran there: "srv1→cli1 (shard 1/2)".
func (g *scenarioHosts) pairLabel(p hostPair) string {
	shards := slices.Sorted(maps.Keys(g.shards[p]))
	switch len(shards) {
	case 0:
		return p.String()
	case 1:
		return fmt.Sprintf("%s (shard %s)", p, shards[0])
	}
	return fmt.Sprintf("%s (shards %s)", p, strings.Join(shards, ", "))
}

// allDumps are the dumps of the cell called name ("" for every cell) on every pair.
func (g *scenarioHosts) allDumps(name string) []string {
	var dumps []string
	for n, byPair := range g.dumps {
		if name != "" && n != name {
			continue
		}
		for _, d := range byPair {
			dumps = append(dumps, d...)
		}
	}
	return uniqueSorted(dumps)
}

// scenarioFinding names the targets on each host pair of the scenario.
func (g *scenarioHosts) scenarioFinding() Finding {
	var parts []string
	for i, p := range g.pairs() {
		on := "ran on "
		if i > 0 {
			on = "on "
		}
		parts = append(parts, strings.Join(slices.Sorted(maps.Keys(g.onPair[p])), ", ")+" "+on+g.pairLabel(p))
	}
	return Finding{Rule: RuleHostPair, Level: LevelWarning, Run: g.run, Scenario: g.scenario, Dumps: g.allDumps(""),
		Message: fmt.Sprintf("%s: %s: they were measured on different hosts, and a ratio between them compares machines as well as frameworks, so each host pair is ranked and judged only within itself (no verdict crosses machines); to compare them, measure every target of the comparison on one server and client pair",
			g.scenario, strings.Join(parts, "; "))}
}

// targetFinding names the reps of one cell on each of its host pairs.
func (g *scenarioHosts) targetFinding(name string) Finding {
	byPair := g.reps[name]
	var parts []string
	for _, p := range g.pairs() {
		reps := byPair[p]
		if len(reps) == 0 {
			continue
		}
		sort.Ints(reps)
		parts = append(parts, fmt.Sprintf("%s on %s", repList(reps), g.pairLabel(p)))
	}
	return Finding{Rule: RuleHostPair, Level: LevelWarning, Run: g.run, Target: name, Scenario: g.scenario, Dumps: g.allDumps(name),
		Message: fmt.Sprintf("the repetitions ran on %d host pairs: %s: its median and spread mix machines, so it is judged against no other target; take every repetition of a target on the same server and client pair",
			len(byPair), strings.Join(parts, "; "))}
}

// repList is "rep 2", "reps 1, 3".
func repList(reps []int) string {
	s := make([]string, len(reps))
	for i, r := range reps {
		s[i] = fmt.Sprint(r)
	}
	if len(reps) == 1 {
		return "rep " + s[0]
	}
	return "reps " + strings.Join(s, ", ")
}
