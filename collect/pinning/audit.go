package pinning

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fairbench/fairbench/parse/runjson"
)

// Audit checks a server and a client CPU set (CPU lists, "" unpinned)
// against t. The error is a usage error: a malformed list, or a CPU the
// machine does not have. The findings (rule "pinning") say what is wrong
// (level error, a problem: the sets share a physical core, the server spans
// L3 domains or sits on E-cores, a set names an offline CPU), weak
// (warning) or could not be checked (info). Each ends with its fix.
func Audit(t runjson.Topology, server, client string) ([]runjson.PinFinding, error) {
	srv, err := runjson.ParseCPUList(server)
	if err != nil {
		return nil, fmt.Errorf("server CPUs: %w", err)
	}
	cli, err := runjson.ParseCPUList(client)
	if err != nil {
		return nil, fmt.Errorf("client CPUs: %w", err)
	}
	l := newLayout(t)
	if err := l.exist("server", srv); err != nil {
		return nil, err
	}
	if err := l.exist("client", cli); err != nil {
		return nil, err
	}
	var fs []runjson.PinFinding
	add := func(level, format string, args ...any) {
		fs = append(fs, runjson.PinFinding{Rule: RulePinning, Level: level, Message: fmt.Sprintf(format, args...)})
	}
	hint := l.suggestion()
	switch {
	case len(srv) == 0 && len(cli) == 0:
		add(LevelWarning, "no pinning: the server and the load tool share every CPU, so each measures the other too; pin them (%s)", hint)
		return fs, nil
	case len(cli) == 0:
		add(LevelWarning, "the load tool is not pinned: it may run on the server's CPUs %s; pin it (%s)", runjson.FormatCPUList(srv), hint)
	case len(srv) == 0:
		add(LevelWarning, "the server is not pinned: it may run on the load tool's CPUs %s; pin it (%s)", runjson.FormatCPUList(cli), hint)
	}
	for _, set := range []struct {
		name string
		cpus []int
	}{{"server", srv}, {"client", cli}} {
		if off := slices.DeleteFunc(slices.Clone(set.cpus), l.isOnline); len(off) > 0 {
			add(LevelError, "%s CPUs %s: CPU %s is offline (online: %s), so taskset refuses it or the %s runs on fewer CPUs than the suite says; bring it online (echo 1 | sudo tee /sys/devices/system/cpu/cpu%d/online, for each) or drop it from the list", set.name, runjson.FormatCPUList(set.cpus), runjson.FormatCPUList(off), l.t.Online, set.name, off[0])
		}
	}
	l.auditIsolated(srv, "server", add)
	l.auditIsolated(cli, "client", add)
	shared := l.auditShared(srv, cli, add, hint)
	l.auditServer(srv, cli, !shared, add, hint)
	l.auditUnknown(slices.DeleteFunc(append(slices.Clone(srv), cli...), func(c int) bool { return !l.isOnline(c) }), add)
	return fs, nil
}

// exist is a usage error when set names a CPU the machine does not have.
func (l *layout) exist(name string, set []int) error {
	if len(l.t.CPUs) == 0 {
		return nil // unknown: the CPUs could not be listed
	}
	var missing []int
	for _, c := range set {
		if _, ok := l.cpus[c]; !ok {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		var all []int
		for _, c := range l.t.CPUs {
			all = append(all, c.ID)
		}
		return fmt.Errorf("%s CPUs %s: this machine has no CPU %s (it has %s)", name, runjson.FormatCPUList(set), runjson.FormatCPUList(missing), runjson.FormatCPUList(all))
	}
	return nil
}

type addFunc func(level, format string, args ...any)

// auditIsolated warns of a set with more than one CPU kept from the
// scheduler (isolcpus=): the kernel does not balance threads across
// isolated CPUs, so the threads of a process pinned to several of them may
// all stay on one.
func (l *layout) auditIsolated(set []int, name string, add addFunc) {
	if l.t.Isolated == nil || len(set) < 2 {
		return
	}
	iso, _ := runjson.ParseCPUList(*l.t.Isolated)
	in := slices.DeleteFunc(slices.Clone(set), func(c int) bool { return !slices.Contains(iso, c) })
	if len(in) > 1 {
		add(LevelWarning, "the %s's CPUs %s are isolated (isolcpus=): the scheduler does not spread threads across isolated CPUs, so the %s's threads may all run on one of them; pin each thread yourself, or use CPUs that are not isolated (nohz_full without isolcpus keeps the balancing)", name, runjson.FormatCPUList(in), name)
	}
}

// auditShared finds the CPUs and physical cores the server and client
// share, and reports whether there are any.
func (l *layout) auditShared(srv, cli []int, add addFunc, hint string) bool {
	var both []int
	var pairs []string
	for _, c := range srv {
		if slices.Contains(cli, c) {
			both = append(both, c)
			continue
		}
		for _, s := range l.siblings(c) {
			if s != c && slices.Contains(cli, s) && !slices.Contains(srv, s) {
				pairs = append(pairs, fmt.Sprintf("%d/%d", c, s))
			}
		}
	}
	if len(both) > 0 {
		add(LevelError, "CPU %s is in both the server's and the client's set: the load tool takes CPU time from the server it measures; give them separate physical cores (%s)", runjson.FormatCPUList(both), hint)
	}
	if len(pairs) > 0 {
		add(LevelError, "the server and the client share physical cores (server/client SMT siblings: %s): the two threads of a core share its execution units and caches, so the load tool slows the server down; give them separate physical cores (%s)", strings.Join(pairs, " "), hint)
	}
	return len(both)+len(pairs) > 0
}

// auditServer checks that the server sits on whole P-cores of one L3
// domain, and, with checkL3 (the sets share no core, which says it
// already), that the client is in another L3 domain where there is one.
func (l *layout) auditServer(srv, cli []int, checkL3 bool, add addFunc, hint string) {
	if len(srv) == 0 {
		return
	}
	if ds := l.domains(srv); len(ds) > 1 {
		add(LevelError, "the server's CPUs %s span %d L3 domains (%s): its threads reach each other's data across the dies, which is slower and varies with where the scheduler puts them; keep the server in one (%s)", runjson.FormatCPUList(srv), len(ds), strings.Join(ds, " and "), hint)
	}
	if e := l.ofType(srv, "E"); len(e) > 0 {
		add(LevelError, "the server runs on E-cores %s: they are slower than the P-cores (%s), so its speed depends on where the scheduler puts each thread; keep the server on P-cores (%s)", runjson.FormatCPUList(e), runjson.FormatCPUList(l.ofType(l.onlineCPUs(), "P")), hint)
	}
	var idle []int
	for _, c := range srv {
		for _, s := range l.siblings(c) {
			if !slices.Contains(srv, s) && !slices.Contains(cli, s) {
				idle = append(idle, s)
			}
		}
	}
	if len(idle) > 0 {
		whole := append(slices.Clone(srv), idle...)
		add(LevelWarning, "the server's CPUs %s leave their SMT siblings %s to anything else the machine runs, which then shares the server's cores; give the server whole cores (server_cpus = %q)", runjson.FormatCPUList(srv), runjson.FormatCPUList(idle), runjson.FormatCPUList(whole))
	}
	if checkL3 && len(cli) > 0 && l.l3Known(srv) && l.l3Known(cli) {
		ds := l.domains(srv)
		if slices.ContainsFunc(l.domains(cli), func(d string) bool { return slices.Contains(ds, d) }) && len(l.domains(l.onlineCPUs())) > len(ds) {
			add(LevelInfo, "the load tool shares the server's L3 cache (%s) while another L3 domain holds none of the server: the two evict each other's data; move the client to another L3 domain (%s)", strings.Join(ds, ", "), hint)
		}
	}
}

// auditUnknown says what could not be checked for lack of topology.
func (l *layout) auditUnknown(cpus []int, add addFunc) {
	if len(l.t.CPUs) == 0 {
		add(LevelInfo, "topology unknown: the kernel lists no CPUs under %s, so nothing but the lists' syntax was checked", cpuDir)
		return
	}
	var unknown []string
	if !l.smtKnown(cpus) {
		unknown = append(unknown, "SMT siblings (no core given for every CPU)")
	}
	if !l.l3Known(cpus) {
		unknown = append(unknown, "L3 domains (no level-3 cache entries, as in many VMs)")
	}
	if len(unknown) > 0 {
		add(LevelInfo, "topology unknown here: %s; these were not checked", strings.Join(unknown, " and "))
	}
}

// Problem reports whether any finding is at level error.
func Problem(fs []runjson.PinFinding) bool {
	return slices.ContainsFunc(fs, func(f runjson.PinFinding) bool { return f.Level == LevelError })
}

// suggestion is the suggested pinning as a hint inside a message.
func (l *layout) suggestion() string {
	s := l.suggest()
	if s.Server == "" || s.Client == "" {
		return "fairbench pin shows why none fits this machine"
	}
	return fmt.Sprintf("fairbench pin suggests server_cpus = %q, client_cpus = %q here", s.Server, s.Client)
}
