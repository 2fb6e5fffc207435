package verdict

import (
	"math"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
)

// RunIndex finds the run.json record behind a measurement.
type RunIndex struct {
	Runs    map[string]*parse.Run
	Records map[RecordKey]*runjson.Measurement
}

// RecordKey is a measurement's place in its run: its cell and repetition,
// and for a latency or sweep point its phase, connections and offered rate,
// so that a point is never taken for the throughput repetition it shares
// a number with.
type RecordKey struct {
	run, target, scenario, phase string
	rep, connections             int
	rate                         float64
	warmup                       bool
}

// KeyOfRecord is the place of run.json's record mr in run id.
func KeyOfRecord(id string, mr *runjson.Measurement) RecordKey {
	k := RecordKey{id, mr.Target, mr.Scenario, mr.Phase, mr.Rep, mr.Connections, mr.Rate, mr.Warmup}
	if mr.Phase == parse.PhaseLatency {
		k.connections = 0 // a latency point is known by its rate; its workers were recorded only later
	}
	return k
}

// KeyOfMeasurement is the place of m, as keyOfRecord keys its record: a
// throughput measurement's connections and rate are the suite's (0 in
// run.json), a sweep point's connections, a latency point's rate and a
// ceiling point's workers their own.
func KeyOfMeasurement(m *parse.Measurement) RecordKey {
	k := RecordKey{run: m.Run, target: m.Target, scenario: m.Scenario, phase: m.Phase, rep: m.Rep, warmup: m.Warmup}
	switch m.Phase {
	case parse.PhaseSweep, parse.PhaseCeiling:
		k.connections = m.Connections
	case parse.PhaseLatency:
		k.rate = m.Rate
	}
	return k
}

func NewRunIndex(runs []*parse.Run) RunIndex {
	ix := RunIndex{Runs: map[string]*parse.Run{}, Records: map[RecordKey]*runjson.Measurement{}}
	for _, r := range runs {
		ix.Runs[r.ID] = r
		for i := range r.Measurements {
			mr := &r.Measurements[i]
			ix.Records[KeyOfRecord(r.ID, mr)] = mr
		}
	}
	return ix
}

// CPUs is how many CPUs the client and the server of m could use, 0 if
// unknown: the measurement's CPU sets, else the run's isolation, else the
// host's threads. The client is further capped by what the tool can use:
// wrk uses its threads, autocannon one thread per worker (one without).
func (ix RunIndex) CPUs(m *parse.Measurement) (client, server int) {
	r := ix.Runs[m.Run]
	if r == nil {
		return 0, 0
	}
	client, server = cpuCount(r.Isolation.ClientCPUs), cpuCount(r.Isolation.ServerCPUs)
	if mr := ix.Records[KeyOfMeasurement(m)]; mr != nil {
		client = firstPositive(cpuCount(mr.ClientCPUList), client)
		server = firstPositive(cpuCount(mr.ServerCPUList), server)
	}
	client, server = firstPositive(client, r.Facts.Threads), firstPositive(server, r.Facts.Threads)
	switch m.Tool {
	case parse.ToolWrk, parse.ToolWrk2:
		if m.Threads > 0 {
			client = min(client, m.Threads)
		}
	case parse.ToolAutocannon:
		client = min(client, max(m.Threads, 1))
	}
	return client, server
}

func firstPositive(a, b int) int {
	if a > 0 {
		return a
	}
	return b
}

// cpuCount counts the CPUs of a Linux CPU list ("0-3,6"), 0 if empty or bad.
func cpuCount(list string) int {
	cpus, err := runjson.ParseCPUList(list)
	if err != nil {
		return 0
	}
	return len(cpus)
}

// RanFor is how long m ran: the measured duration, else the requested one.
func RanFor(m *parse.Measurement) time.Duration {
	if m.Duration > 0 {
		return m.Duration
	}
	return m.Window
}

// Share is the share of its CPUs the client and the server of m kept
// busy in m's window, NaN where the collector recorded no CPU seconds.
// The CPU seconds are the whole process's, its start and exit around the
// window too, so a process busy throughout can come out above its CPUs
// (101%): a share is at most 1, all of them.
func (ix RunIndex) Share(m *parse.Measurement) (client, server float64) {
	client, server = math.NaN(), math.NaN()
	cc, sc := ix.CPUs(m)
	d := RanFor(m).Seconds()
	if d <= 0 {
		return client, server
	}
	if m.ClientCPU > 0 && cc > 0 {
		client = min(m.ClientCPU/d/float64(cc), 1)
	}
	if m.ServerCPU > 0 && sc > 0 {
		server = min(m.ServerCPU/d/float64(sc), 1)
	}
	return client, server
}

// CellLoad is the median share of its CPUs the client and the server of
// cell c kept busy, NaN where the collector recorded no CPU seconds.
func (ix RunIndex) CellLoad(c *Cell) (client, server float64) {
	var cs, ss []float64
	for _, m := range c.Reps {
		cu, su := ix.Share(m)
		if !math.IsNaN(cu) {
			cs = append(cs, cu)
		}
		if !math.IsNaN(su) {
			ss = append(ss, su)
		}
	}
	return MedianOf(cs), MedianOf(ss)
}

// ClientBound is the cells whose load generator was saturated while their
// server was not (the client-saturated rule): their number measures the
// client and is a lower bound of the target's capacity. A server that kept
// its CPUs as busy as the client did was at its own capacity, so its
// number is the target's whatever the client did. Pairs with a bound side
// are decided on efficiency where the server's CPU was recorded, else a
// verdict in a bound side's favour reads "at least" (ReasonAtLeast) and
// any other "~" (ReasonClientBound).
func ClientBound(set *parse.Set, cells []*Cell, th Thresholds) map[*Cell]bool {
	out := map[*Cell]bool{}
	if set == nil {
		return out
	}
	ix := NewRunIndex(set.Runs)
	for _, c := range cells {
		if cu, su := ix.CellLoad(c); cu >= th.ClientSaturation && !(su >= th.ClientSaturation) {
			out[c] = true
		}
	}
	return out
}
