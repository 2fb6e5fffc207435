package history

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/fairbench/fairbench/parse"
)

// Field is one part of a comparability key: what it is and its value in
// words ("" when the run does not say).
type Field struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Key is what makes two runs' numbers comparable: the load tools and
// their versions, the load settings, the isolation, the host's
// fingerprint and the runtimes' versions. Two runs whose keys differ are
// not one line of history: the difference is a change of setting, not of
// the targets. Fields are in a fixed order.
type Key []Field

// KeyOf is the key of run, read from its run.json and from its
// measurements (those of set whose Run is run's id, warm-ups included:
// they ran at the same settings).
func KeyOf(run *parse.Run, set *parse.Set) Key {
	var tools, conns, pipes, windows, threads []string
	for _, m := range set.Measurements {
		if m.Run != run.ID {
			continue
		}
		tools = append(tools, strings.TrimSpace(m.Tool+" "+m.ToolVersion))
		conns = append(conns, strconv.Itoa(m.Connections))
		pipes = append(pipes, strconv.Itoa(max(1, m.Pipelining)))
		windows = append(windows, m.Window.String())
		threads = append(threads, strconv.Itoa(m.Threads))
	}
	f := run.Facts
	k := Key{
		{"load tool", words(tools)},
		{"connections", words(conns)},
		{"pipelining", words(pipes)},
		{"window", words(windows)},
		{"client threads", words(threads)},
		{"server cpus", run.Isolation.ServerCPUs},
		{"client cpus", run.Isolation.ClientCPUs},
		{"cpu", f.CPUModel},
		{"cores", fmt.Sprintf("%d/%d", f.Cores, f.Threads)},
		{"kernel", f.Kernel},
		{"arch", f.Arch},
		{"governor", f.Governor},
	}
	for _, h := range run.Hosts {
		k = append(k, Field{"host " + h.Name, fmt.Sprintf("%s %d/%d %s", h.Facts.CPUModel, h.Facts.Cores, h.Facts.Threads, h.Facts.Kernel)})
	}
	for _, name := range slices.Sorted(maps.Keys(run.Tools)) {
		k = append(k, Field{"version " + name, run.Tools[name].Version})
	}
	return k
}

// words is the distinct values of v, sorted, joined by ", ".
func words(v []string) string {
	slices.Sort(v)
	return strings.Join(slices.Compact(v), ", ")
}

// Diff says what differs from k to o, one line per field: "kernel: 6.1 →
// 6.8". Only the fields both keys hold are compared: a runtime one run
// did not use (its version absent) changes no number of the other run's
// targets. Empty when the keys match.
func (k Key) Diff(o Key) []string {
	var out []string
	ov := map[string]string{}
	for _, f := range o {
		ov[f.Name] = f.Value
	}
	for _, f := range k {
		if v, ok := ov[f.Name]; ok && v != f.Value {
			out = append(out, fmt.Sprintf("%s: %s → %s", f.Name, orNone(f.Value), orNone(v)))
		}
	}
	return out
}

// orNone is v, or "(none)" when empty.
func orNone(v string) string {
	if v == "" {
		return "(none)"
	}
	return v
}
