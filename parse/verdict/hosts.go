package verdict

import (
	"slices"
	"strings"

	"github.com/fairbench/fairbench/parse"
)

// A ratio between two targets measured on different machines compares the
// machines as well as the frameworks, and no test on the repetitions can
// tell the two apart. So a family of verdicts is one run, one scenario and
// one host pair: a run merged from shards collected on several server and
// client hosts is decided host pair by host pair, and no verdict crosses
// machines. A target whose repetitions ran on several pairs is a family of
// its own: its median mixes machines, so it is compared with nothing.

// ReasonOtherHosts: the cells are of one run and scenario but were
// measured on different server/client host pairs, which are ranked each
// on its own; no verdict across machines exists.
const ReasonOtherHosts = "other-hosts"

// HostPair is "server→client": the machines a repetition's server and load
// tool ran on, "" when the measurement names neither (dumps outside a run
// dir, or a run on this machine alone).
func HostPair(m *parse.Measurement) string {
	if m.ServerHost == "" && m.ClientHost == "" {
		return ""
	}
	return orHere(m.ServerHost) + "→" + orHere(m.ClientHost)
}

// orHere names a host left empty: the collector's own machine.
func orHere(host string) string {
	if host == "" {
		return "this machine"
	}
	return host
}

// hostsOf is where the repetitions ran: their one host pair, or, when they
// ran on several, the pairs sorted and joined by " + " ("" counted as an
// unnamed pair).
func hostsOf(ms []*parse.Measurement) string {
	var pairs []string
	for _, m := range ms {
		if p := HostPair(m); !slices.Contains(pairs, p) {
			pairs = append(pairs, p)
		}
	}
	if len(pairs) == 1 {
		return pairs[0]
	}
	for i, p := range pairs {
		if p == "" {
			pairs[i] = "unnamed hosts"
		}
	}
	slices.Sort(pairs)
	return strings.Join(pairs, " + ")
}

// MixedHosts reports whether the cell's repetitions ran on more than one
// host pair.
func (c *Cell) MixedHosts() bool { return strings.Contains(c.Hosts, " + ") }

// KeyOf is the family a cell belongs to: its run, scenario and host pair;
// a cell on mixed host pairs is keyed by its name too, alone in its family.
func KeyOf(c *Cell) ScenarioKey {
	k := ScenarioKey{Run: c.Run, Scenario: c.Scenario, Hosts: c.Hosts}
	if c.MixedHosts() {
		k.Alone = c.Name
	}
	return k
}

// Families are the families of one scenario of one run, one per host pair,
// in the order of Scenarios; none when the run did not measure it.
func (d *Verdicts) Families(run, scenario string) []*ScenarioVerdicts {
	var out []*ScenarioVerdicts
	for _, sv := range d.Scenarios {
		if sv.Run == run && sv.Scenario == scenario {
			out = append(out, sv)
		}
	}
	return out
}

// HostPairs are the distinct host pairs of the families, in order: more
// than one means a run was measured on several machines and is decided
// machine by machine.
func HostPairs(svs []*ScenarioVerdicts) []string {
	var out []string
	for _, sv := range svs {
		if !slices.Contains(out, sv.Hosts) {
			out = append(out, sv.Hosts)
		}
	}
	return out
}
