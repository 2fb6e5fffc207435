package collect

import (
	"math"
	"slices"
	"syscall"
	"time"

	"github.com/fairbench/fairbench/collect/pinning"
	"github.com/fairbench/fairbench/parse/manifest"
)

// Interference: /proc/stat is read just before and just after each window,
// the time the server's and the client's CPU sets spent is taken apart
// (busy, irq, softirq, steal), and the CPU time of everything fairbench
// started there is subtracted from busy: what remains ran beside the
// benchmark (a build, an indexer, another test). Only this machine's
// /proc/stat is read: a side on an SSH host is not recorded.

// windowStart is /proc/stat read around a window, with the CPU time
// fairbench's own processes had used when it started.
type windowStart struct {
	before, after  pinning.Stat
	at             time.Time
	window         float64 // seconds between the reads
	ok             bool    // both reads succeeded
	services, self float64 // CPU seconds of the local services and of fairbench itself
	server, client bool    // the side runs here and is recorded
}

// cpuGroup is CPU time fairbench's own work spent in a window and the CPUs
// it was pinned to ("": any).
type cpuGroup struct {
	cpus    string
	seconds float64
}

// startWindow reads /proc/stat and fairbench's own CPU time before a
// window; nil when neither side runs here or /proc/stat cannot be read.
func (c *collector) startWindow() *windowStart {
	w := &windowStart{server: c.server.name() == "", client: c.client.name() == ""}
	if !w.server && !w.client {
		return nil
	}
	w.services, w.self = c.servicesCPU(), selfCPU()
	var err error
	if w.before, err = pinning.ReadStat(pinning.DefaultRoots); err != nil {
		return nil
	}
	w.at = time.Now()
	return w
}

// end reads /proc/stat again as the window ends, before the CPU time of
// fairbench's groups is read: their time then covers the window and a
// little more, so foreign load is never overstated by it.
func (w *windowStart) end() {
	if w == nil {
		return
	}
	var err error
	w.after, err = pinning.ReadStat(pinning.DefaultRoots)
	w.window, w.ok = time.Since(w.at).Seconds(), err == nil
}

// endWindow returns the load on each set from the two reads; target and
// tool are the CPU seconds the target's group and the load tool spent in
// the window.
func (c *collector) endWindow(w *windowStart, target, tool float64) *manifest.Interference {
	if w == nil || !w.ok {
		return nil
	}
	iso := c.suite.Isolation
	groups := []cpuGroup{{"", max(0, selfCPU()-w.self)}}
	if w.server {
		groups = append(groups, cpuGroup{iso.ServerCPUs, target}, cpuGroup{"", max(0, c.servicesCPU()-w.services)})
	}
	if w.client {
		groups = append(groups, cpuGroup{iso.ClientCPUs, tool})
	}
	in := &manifest.Interference{WindowS: round3(w.window)}
	if w.server {
		in.Server = setLoad(w.before, w.after, iso.ServerCPUs, groups)
	}
	if w.client {
		in.Client = setLoad(w.before, w.after, iso.ClientCPUs, groups)
	}
	return in
}

// setLoad is what the CPUs of list ("" the whole machine) spent from a to
// b, and how much of the busy time was not fairbench's: a group counts as
// fairbench's on the set when it may have run there (it was not pinned, or
// pinned to CPUs the set shares). Nil when list cannot be read.
func setLoad(a, b pinning.Stat, list string, groups []cpuGroup) *manifest.CPUSetLoad {
	set, err := pinning.ParseList(list)
	if err != nil {
		return nil
	}
	u := pinning.Delta(a, b, set)
	l := &manifest.CPUSetLoad{CPUs: list, CapacityS: round3(u.Total), BusyS: round3(u.Busy),
		IRQS: round3(u.IRQ), SoftIRQS: round3(u.SoftIRQ), StealS: round3(u.Steal), Missing: u.Missing}
	var ours float64
	for _, g := range groups {
		pin, err := pinning.ParseList(g.cpus)
		if err != nil || len(pin) == 0 || len(set) == 0 || slices.ContainsFunc(pin, func(cpu int) bool { return slices.Contains(set, cpu) }) {
			ours += g.seconds
		}
	}
	l.OursS = round3(ours)
	l.ForeignS = round3(max(0, u.Busy-ours))
	return l
}

// servicesCPU is the CPU seconds the services running here have used.
func (c *collector) servicesCPU() float64 {
	var s float64
	for _, rs := range c.services {
		if rs.proc != nil && rs.m.name() == "" {
			s += rs.proc.CPUSeconds()
		}
	}
	return s
}

// selfCPU is the user+system time of fairbench's own process.
func selfCPU() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// round3 rounds seconds to the millisecond: /proc/stat counts in 10 ms.
func round3(s float64) float64 { return math.Round(s*1000) / 1000 }
