package hostcheck

import (
	"context"
	"errors"
	"math"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/fairbench/fairbench/collect/machine"
	"github.com/fairbench/fairbench/collect/pinning"
	"github.com/fairbench/fairbench/parse/runjson"
)

// Interference: /proc/stat is read just before and just after each window
// on the server's and the client's machines (here, or an SSH host, through
// cat), the time the server's and the client's CPU sets spent is taken
// apart (busy, irq, softirq, steal), and the CPU time of everything
// fairbench started on that machine is subtracted from busy: what remains
// ran beside the benchmark (a build, an indexer, another test).

// statRead bounds one read of /proc/stat on a host: a cat over a standing
// master connection takes milliseconds.
const statRead = 5 * time.Second

// Window is /proc/stat read around a window on the server's and the
// client's machines, with the CPU time fairbench's own processes had used
// when it started.
type Window struct {
	machines       []machine.Machine // the server's, then the client's when another
	before, after  []pinning.Stat    // by machines
	at             time.Time
	window         float64        // seconds between the reads
	ok             bool           // every read succeeded
	servicesCPU    func() float64 // the CPU seconds the services have used
	services, self float64        // CPU seconds of the services and of fairbench itself
}

// cpuGroup is CPU time fairbench's own work spent in a window, the machine
// it ran on and the CPUs it was pinned to there ("": any).
type cpuGroup struct {
	m       machine.Machine
	cpus    string
	seconds float64
}

// StartWindow reads /proc/stat on server and client and fairbench's own
// CPU time before a window; servicesCPU is the CPU seconds the services
// (on the server's machine) have used, asked now and as the window ends.
// It returns nil when /proc/stat cannot be read.
func StartWindow(ctx context.Context, server, client machine.Machine, servicesCPU func() float64) *Window {
	w := &Window{machines: []machine.Machine{server}, servicesCPU: servicesCPU}
	if client != server {
		w.machines = append(w.machines, client)
	}
	w.services, w.self = servicesCPU(), selfCPU()
	var ok bool
	if w.before, ok = readStats(ctx, w.machines); !ok {
		return nil
	}
	w.at = time.Now()
	return w
}

// End reads /proc/stat again as the window ends, before the CPU time of
// fairbench's groups is read: their time then covers the window and a
// little more, so foreign load is never overstated by it.
func (w *Window) End(ctx context.Context) {
	if w == nil {
		return
	}
	w.after, w.ok = readStats(ctx, w.machines)
	w.window = time.Since(w.at).Seconds()
}

// readStats reads /proc/stat on each machine, all at once: two hosts cost
// one round trip, not two.
func readStats(ctx context.Context, ms []machine.Machine) ([]pinning.Stat, bool) {
	out := make([]pinning.Stat, len(ms))
	errs := make([]error, len(ms))
	var wg sync.WaitGroup
	for i, m := range ms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], errs[i] = readStat(ctx, m)
		}()
	}
	wg.Wait()
	if errors.Join(errs...) != nil {
		return nil, false
	}
	return out, true
}

// readStat reads /proc/stat on m.
func readStat(ctx context.Context, m machine.Machine) (pinning.Stat, error) {
	ctx, cancel := context.WithTimeout(ctx, statRead)
	defer cancel()
	files, err := m.ReadFiles(ctx, []string{"/proc/stat"})
	if err != nil {
		return pinning.Stat{}, err
	}
	return pinning.ParseStat([]byte(files["/proc/stat"]), "/proc/stat"+machine.OnMachine(m))
}

// Interference returns the load on each set from the two reads, nil
// when a read failed: here is fairbench's own machine, serverCPUs and
// clientCPUs the sets ("": the whole machine), target and tool the CPU
// seconds the target's group and the load tool spent in the window.
func (w *Window) Interference(here machine.Machine, serverCPUs, clientCPUs string, target, tool float64) *runjson.Interference {
	if w == nil || !w.ok {
		return nil
	}
	last := len(w.machines) - 1
	server, client := w.machines[0], w.machines[last]
	groups := []cpuGroup{
		{here, "", max(0, selfCPU()-w.self)},
		{server, serverCPUs, target},
		{server, "", max(0, w.servicesCPU()-w.services)},
		{client, clientCPUs, tool},
	}
	in := &runjson.Interference{WindowS: Round3(w.window)}
	in.Server = setLoad(w.before[0], w.after[0], server, serverCPUs, groups)
	in.Client = setLoad(w.before[last], w.after[last], client, clientCPUs, groups)
	return in
}

// setLoad is what the CPUs of list ("" the whole machine) on m spent from
// a to b, and how much of the busy time was not fairbench's: a group counts
// as fairbench's on the set when it ran on m and may have run there (it was
// not pinned, or pinned to CPUs the set shares). Nil when list cannot be
// read.
func setLoad(a, b pinning.Stat, m machine.Machine, list string, groups []cpuGroup) *runjson.CPUSetLoad {
	set, err := runjson.ParseCPUList(list)
	if err != nil {
		return nil
	}
	u := pinning.Delta(a, b, set)
	l := &runjson.CPUSetLoad{CPUs: list, CapacityS: Round3(u.Total), BusyS: Round3(u.Busy),
		IRQS: Round3(u.IRQ), SoftIRQS: Round3(u.SoftIRQ), StealS: Round3(u.Steal), Missing: u.Missing}
	var ours float64
	for _, g := range groups {
		if g.m != m {
			continue
		}
		pin, err := runjson.ParseCPUList(g.cpus)
		if err != nil || len(pin) == 0 || len(set) == 0 || slices.ContainsFunc(pin, func(cpu int) bool { return slices.Contains(set, cpu) }) {
			ours += g.seconds
		}
	}
	l.OursS = Round3(ours)
	l.ForeignS = Round3(max(0, u.Busy-ours))
	return l
}

// selfCPU is the user+system time of fairbench's own process.
func selfCPU() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// Round3 rounds seconds to the millisecond: /proc/stat counts in 10 ms.
func Round3(s float64) float64 { return math.Round(s*1000) / 1000 }
