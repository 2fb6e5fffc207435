package pinning

import (
	"slices"

	"github.com/fairbench/fairbench/parse/runjson"
)

// Levels of a finding, as parse's audit names them.
const (
	LevelInfo    = "info"
	LevelWarning = "warning"
	LevelError   = "error"
)

// Rules of the findings this package makes.
const (
	RulePinning     = "pinning"      // the server and client CPU sets
	RuleCPUGovernor = "cpu-governor" // a cpufreq governor other than performance
	RuleCPUBoost    = "cpu-boost"    // boost (turbo) on
)

// layout is a topology seen as physical cores and L3 domains.
type layout struct {
	t      runjson.Topology
	cpus   map[int]runjson.CPU // present CPUs by number
	online map[int]bool        // nil: unknown, every present CPU taken as online
	core   map[int]string      // CPU → its physical core; absent: unknown
	cores  map[string][]int    // physical core → its online CPUs
	l3     map[int]string      // CPU → its L3 domain; absent: unknown
}

func newLayout(t runjson.Topology) *layout {
	l := &layout{t: t, cpus: map[int]runjson.CPU{}, core: map[int]string{}, cores: map[string][]int{}, l3: map[int]string{}}
	if ids, err := runjson.ParseCPUList(t.Online); err == nil && len(ids) > 0 {
		l.online = map[int]bool{}
		for _, c := range ids {
			l.online[c] = true
		}
	}
	for _, c := range t.CPUs {
		l.cpus[c.ID] = c
		if !l.isOnline(c.ID) {
			continue
		}
		if key := c.PhysicalCore(); key != "" {
			l.core[c.ID] = key
			l.cores[key] = append(l.cores[key], c.ID)
		}
		if ids, err := runjson.ParseCPUList(c.L3); err == nil && len(ids) > 0 {
			l.l3[c.ID] = runjson.FormatCPUList(ids)
		}
	}
	return l
}

func (l *layout) isOnline(cpu int) bool { return l.online == nil || l.online[cpu] }

// onlineCPUs are the online CPUs, or every present one when that is unknown.
func (l *layout) onlineCPUs() []int {
	var out []int
	for _, c := range l.t.CPUs {
		if l.isOnline(c.ID) {
			out = append(out, c.ID)
		}
	}
	return out
}

// siblings are the online CPUs of cpu's physical core, cpu included; just
// cpu when its core is unknown.
func (l *layout) siblings(cpu int) []int {
	if key, ok := l.core[cpu]; ok {
		return l.cores[key]
	}
	return []int{cpu}
}

// smtKnown reports whether the physical core of every CPU in cpus is known.
func (l *layout) smtKnown(cpus []int) bool {
	return !slices.ContainsFunc(cpus, func(c int) bool { _, ok := l.core[c]; return !ok })
}

// l3Known reports whether the L3 domain of every CPU in cpus is known.
func (l *layout) l3Known(cpus []int) bool {
	return len(cpus) > 0 && !slices.ContainsFunc(cpus, func(c int) bool { _, ok := l.l3[c]; return !ok })
}

// domains are the distinct L3 domains of cpus, in order of their first CPU.
func (l *layout) domains(cpus []int) []string {
	var out []string
	for _, c := range cpus {
		if d, ok := l.l3[c]; ok && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// ofType are the CPUs of cpus whose hybrid type is typ.
func (l *layout) ofType(cpus []int, typ string) []int {
	var out []int
	for _, c := range cpus {
		if l.cpus[c].Type == typ {
			out = append(out, c)
		}
	}
	return out
}

// physicalCores groups cpus into physical cores (a CPU of unknown core is
// a core of its own), each sorted, in order of their first CPU.
func (l *layout) physicalCores(cpus []int) [][]int {
	var out [][]int
	seen := map[string]bool{}
	for _, c := range cpus {
		key, ok := l.core[c]
		switch {
		case !ok:
			out = append(out, []int{c})
		case !seen[key]:
			seen[key] = true
			var in []int
			for _, s := range l.cores[key] {
				if slices.Contains(cpus, s) {
					in = append(in, s)
				}
			}
			out = append(out, in)
		}
	}
	slices.SortFunc(out, func(a, b []int) int { return a[0] - b[0] })
	return out
}
