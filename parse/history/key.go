package history

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
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
	var tools, conns, pipes, windows, threads, alive []string
	for _, m := range set.Measurements {
		if m.Run != run.ID {
			continue
		}
		tools = append(tools, strings.TrimSpace(m.Tool+" "+m.ToolVersion))
		conns = append(conns, strconv.Itoa(m.Connections))
		pipes = append(pipes, strconv.Itoa(max(1, m.Pipelining)))
		windows = append(windows, m.Window.String())
		threads = append(threads, strconv.Itoa(m.Threads))
		if m.Argv != nil {
			alive = append(alive, keepAlive(m.Tool, m.Argv))
		}
	}
	f := run.Facts
	k := Key{
		{"load tool", words(tools)},
		{"connections", words(conns)},
		{"pipelining", words(pipes)},
		{"window", words(windows)},
		{"client threads", words(threads)},
		{keepAliveField, words(alive)},
		{"server cpus", run.Isolation.ServerCPUs},
		{"client cpus", run.Isolation.ClientCPUs},
		{"cpu", f.CPUModel},
		{"cores", fmt.Sprintf("%d/%d", f.Cores, f.Threads)},
		{"kernel", f.Kernel},
		{"arch", f.Arch},
		{"governor", f.Governor},
		{speedField, fastestServer(run.Measurements)},
	}
	for _, h := range run.Hosts {
		k = append(k, Field{"host " + h.Name, fmt.Sprintf("%s %d/%d %s", h.Facts.CPUModel, h.Facts.Cores, h.Facts.Threads, h.Facts.Kernel)})
	}
	for _, name := range slices.Sorted(maps.Keys(run.Tools)) {
		k = append(k, Field{"version " + name, run.Tools[name].Version})
	}
	return k
}

// keepAliveField and speedField are compared only where both runs state
// them: runs collected before they were recorded say nothing either way.
// The speed probe's fastest time differs only beyond speedRatio: on one
// host it moves by up to a fifth or so between days, while a different
// host or CPU setting moves it by more.
const (
	keepAliveField = "keep-alive"
	speedField     = "speed probe (fastest, server)"
	speedRatio     = 1.5
)

// keepAlive is "off" where argv turns HTTP keep-alive off (bombardier -a
// or --disableKeepAlives, vegeta -keepalive=false, a "Connection: close"
// header of any tool), else "on": every tool here keeps connections alive
// by default.
func keepAlive(tool string, argv []string) string {
	for i, a := range argv {
		switch {
		case tool == "bombardier" && (a == "-a" || strings.HasPrefix(a, "--disableKeepAlives")),
			a == "-keepalive=false" || a == "--keepalive=false":
			return "off"
		case i > 0 && isHeaderFlag(argv[i-1]) && isClose(a),
			strings.HasPrefix(a, "--header=") && isClose(strings.TrimPrefix(a, "--header=")):
			return "off"
		}
	}
	return "on"
}

// isHeaderFlag reports whether a is a header flag of wrk, bombardier,
// autocannon or vegeta.
func isHeaderFlag(a string) bool {
	return a == "-H" || a == "--header" || a == "--headers" || a == "-header"
}

// isClose reports whether the header h asks to close the connection.
func isClose(h string) bool {
	name, value, ok := strings.Cut(h, ":")
	if !ok {
		name, value, ok = strings.Cut(h, "=") // autocannon's -H name=value
	}
	return ok && strings.EqualFold(strings.TrimSpace(name), "connection") && strings.EqualFold(strings.TrimSpace(value), "close")
}

// fastestServer is the fastest the host speed probe ran on the server's
// CPUs in seconds ("0.235 s"), "" when none was probed.
func fastestServer(ms []runjson.Measurement) string {
	best := 0.0
	for set, s := range runjson.Fastest(ms) {
		if strings.HasPrefix(set, "server ") && (best == 0 || s < best) {
			best = s
		}
	}
	if best == 0 {
		return ""
	}
	return strconv.FormatFloat(best, 'f', 3, 64) + " s"
}

// same reports whether a field's values a and b count as one: equal, one
// of them unstated for a field recorded only lately, or speed probe times
// within speedRatio of each other.
func same(name, a, b string) bool {
	if a == b {
		return true
	}
	if name != keepAliveField && name != speedField {
		return false
	}
	if a == "" || b == "" {
		return true
	}
	if name == speedField {
		x, errx := strconv.ParseFloat(strings.TrimSuffix(a, " s"), 64)
		y, erry := strconv.ParseFloat(strings.TrimSuffix(b, " s"), 64)
		return errx == nil && erry == nil && max(x, y) < speedRatio*min(x, y)
	}
	return false
}

// words is the distinct values of v, sorted, joined by ", ".
func words(v []string) string {
	slices.Sort(v)
	return strings.Join(slices.Compact(v), ", ")
}

// Diff says what differs from k to o, one line per field: "kernel: 6.1 →
// 6.8". Only the fields both keys hold are compared: a runtime one run
// did not use (its version absent) changes no number of the other run's
// targets; fields recorded only lately, where one run does not state them,
// and speed probes within speedRatio count as the same (same). Empty when
// the keys match.
func (k Key) Diff(o Key) []string {
	var out []string
	ov := map[string]string{}
	for _, f := range o {
		ov[f.Name] = f.Value
	}
	for _, f := range k {
		if v, ok := ov[f.Name]; ok && !same(f.Name, f.Value, v) {
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
