package pinning

import (
	"fmt"
	"slices"

	"github.com/fairbench/fairbench/parse/runjson"
)

// minCoresForHousekeeping is the number of physical cores from which the
// core of CPU 0 is left to the kernel, its interrupts and fairbench itself.
const minCoresForHousekeeping = 4

// Suggestion is a pinning for a machine: CPU lists for the suite's
// [isolation], and why they were chosen. Server or Client is "" when the
// machine has no way to keep them apart.
type Suggestion struct {
	Server string   `json:"server_cpus"`
	Client string   `json:"client_cpus"`
	Notes  []string `json:"notes,omitempty"`
}

// Suggest picks a pinning for t: the server on whole physical cores (both
// SMT siblings) within one L3 domain and on P-cores, the client on other
// physical cores, in another L3 domain where there is one. With four
// physical cores or more, the core of CPU 0 is left out of both.
func Suggest(t runjson.Topology) Suggestion { return newLayout(t).suggest() }

func (l *layout) suggest() Suggestion {
	var s Suggestion
	note := func(format string, args ...any) { s.Notes = append(s.Notes, fmt.Sprintf(format, args...)) }
	online := l.onlineCPUs()
	if len(online) == 0 {
		note("topology unknown: the kernel lists no CPUs here, so there is nothing to suggest from")
		return s
	}
	cores := l.physicalCores(online)
	if p := l.ofType(online, "P"); len(p) > 0 {
		if pc := l.physicalCores(p); len(pc) >= 2 {
			cores = pc
			note("hybrid CPU: P-cores %s only; the E-cores %s are left to the rest of the machine", runjson.FormatCPUList(p), runjson.FormatCPUList(l.ofType(online, "E")))
		}
	}
	if len(cores) >= minCoresForHousekeeping && slices.Contains(cores[0], 0) {
		note("the core of CPU 0 (%s) is left to the kernel, its interrupts and fairbench", runjson.FormatCPUList(cores[0]))
		cores = cores[1:]
	}
	if !l.smtKnown(online) {
		note("SMT siblings unknown: each CPU is taken as a core of its own")
	}
	if len(cores) < 2 {
		note("fewer than two physical cores: no pinning keeps the server and the load tool apart")
		if len(cores) == 1 {
			s.Server = runjson.FormatCPUList(cores[0])
		}
		return s
	}
	groups := l.byDomain(cores)
	var srv, cli [][]int
	if len(groups) >= 2 {
		srv, cli = groups[0], groups[1]
		note("server and client in different L3 domains (%s and %s)", l.l3[srv[0][0]], l.l3[cli[0][0]])
	} else {
		n := (len(cores) + 1) / 2
		srv, cli = cores[:n], cores[n:]
		if l.l3Known(online) {
			note("one L3 domain (%s): server and client share it", l.l3[cores[0][0]])
		} else {
			note("L3 domains unknown: server and client may share one")
		}
	}
	s.Server, s.Client = runjson.FormatCPUList(slices.Concat(srv...)), runjson.FormatCPUList(slices.Concat(cli...))
	return s
}

// byDomain groups cores by L3 domain, the domain with the most cores first
// (the lower first CPU on a tie); one group when any domain is unknown.
func (l *layout) byDomain(cores [][]int) [][][]int {
	if !l.l3Known(slices.Concat(cores...)) {
		return [][][]int{cores}
	}
	var keys []string
	groups := map[string][][]int{}
	for _, c := range cores {
		d := l.l3[c[0]]
		if groups[d] == nil {
			keys = append(keys, d)
		}
		groups[d] = append(groups[d], c)
	}
	var out [][][]int
	for _, k := range keys {
		out = append(out, groups[k])
	}
	slices.SortStableFunc(out, func(a, b [][]int) int { return len(b) - len(a) })
	return out
}
