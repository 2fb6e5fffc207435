package audit

import (
	"fmt"
	"github.com/fairbench/fairbench/parse"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/fairbench/fairbench/parse/manifest"
)

// Rules about who was the bottleneck, and what the latency means.
const (
	RuleClientSaturated    = "client-saturated"     // the load generator near the CPUs it could use
	RuleServerNotSaturated = "server-not-saturated" // the server well below its CPUs
	RuleClosedLoop         = "closed-loop-latency"  // tail percentiles of closed-loop latency (coordinated omission)
	RuleTailSamples        = "percentile-samples"   // a percentile with fewer than MinTailSamples beyond it
)

// runIndex finds the run.json record behind a measurement.
type runIndex struct {
	runs    map[string]*parse.Run
	records map[recordKey]*manifest.Measurement
}

// recordKey is a measurement's place in its run: its cell and repetition,
// and for a latency or sweep point its phase, connections and offered rate,
// so that a point is never taken for the throughput repetition it shares
// a number with.
type recordKey struct {
	run, target, scenario, phase string
	rep, connections             int
	rate                         float64
	warmup                       bool
}

// keyOfRecord is the place of run.json's record mr in run id.
func keyOfRecord(id string, mr *manifest.Measurement) recordKey {
	k := recordKey{id, mr.Target, mr.Scenario, mr.Phase, mr.Rep, mr.Connections, mr.Rate, mr.Warmup}
	if mr.Phase == parse.PhaseLatency {
		k.connections = 0 // a latency point is known by its rate; its workers were recorded only later
	}
	return k
}

// keyOfMeasurement is the place of m, as keyOfRecord keys its record: a
// throughput measurement's connections and rate are the suite's (0 in
// run.json), a sweep point's connections, a latency point's rate and a
// ceiling point's workers their own.
func keyOfMeasurement(m *parse.Measurement) recordKey {
	k := recordKey{run: m.Run, target: m.Target, scenario: m.Scenario, phase: m.Phase, rep: m.Rep, warmup: m.Warmup}
	switch m.Phase {
	case parse.PhaseSweep, parse.PhaseCeiling:
		k.connections = m.Connections
	case parse.PhaseLatency:
		k.rate = m.Rate
	}
	return k
}

func newRunIndex(runs []*parse.Run) runIndex {
	ix := runIndex{runs: map[string]*parse.Run{}, records: map[recordKey]*manifest.Measurement{}}
	for _, r := range runs {
		ix.runs[r.ID] = r
		for i := range r.Measurements {
			mr := &r.Measurements[i]
			ix.records[keyOfRecord(r.ID, mr)] = mr
		}
	}
	return ix
}

// cpus is how many CPUs the client and the server of m could use, 0 if
// unknown: the measurement's CPU sets, else the run's isolation, else the
// host's threads. The client is further capped by what the tool can use:
// wrk uses its threads, autocannon one thread per worker (one without).
func (ix runIndex) cpus(m *parse.Measurement) (client, server int) {
	r := ix.runs[m.Run]
	if r == nil {
		return 0, 0
	}
	client, server = cpuCount(r.Isolation.ClientCPUs), cpuCount(r.Isolation.ServerCPUs)
	if mr := ix.records[keyOfMeasurement(m)]; mr != nil {
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
	n := 0
	for _, part := range strings.Split(strings.TrimSpace(list), ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return 0
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return 0
			}
		}
		n += b - a + 1
	}
	return n
}

// ranFor is how long m ran: the measured duration, else the requested one.
func ranFor(m *parse.Measurement) time.Duration {
	if m.Duration > 0 {
		return m.Duration
	}
	return m.Window
}

// share is the share of its CPUs the client and the server of m kept
// busy in m's window, NaN where the collector recorded no CPU seconds.
// The CPU seconds are the whole process's, its start and exit around the
// window too, so a process busy throughout can come out above its CPUs
// (101%): a share is at most 1, all of them.
func (ix runIndex) share(m *parse.Measurement) (client, server float64) {
	client, server = math.NaN(), math.NaN()
	cc, sc := ix.cpus(m)
	d := ranFor(m).Seconds()
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

// cellLoad is the median share of its CPUs the client and the server of
// cell c kept busy, NaN where the collector recorded no CPU seconds.
func (ix runIndex) cellLoad(c *Cell) (client, server float64) {
	var cs, ss []float64
	for _, m := range c.Reps {
		cu, su := ix.share(m)
		if !math.IsNaN(cu) {
			cs = append(cs, cu)
		}
		if !math.IsNaN(su) {
			ss = append(ss, su)
		}
	}
	return medianOf(cs), medianOf(ss)
}

// clientBound is the cells whose load generator was saturated (the
// client-saturated rule): their number measures the client and is a lower
// bound of the target's capacity, so a verdict in their favour reads "at
// least" (ReasonAtLeast) and any other "~" (ReasonClientBound).
func clientBound(set *parse.Set, cells []*Cell, th Thresholds) map[*Cell]bool {
	out := map[*Cell]bool{}
	if set == nil {
		return out
	}
	ix := newRunIndex(set.Runs)
	for _, c := range cells {
		if cu, _ := ix.cellLoad(c); cu >= th.ClientSaturation {
			out[c] = true
		}
	}
	return out
}

// saturationFindings compares each cell's client and server CPU use with
// the CPUs they had, where the collector recorded CPU seconds. A saturated
// client is one cause for every cell it shows in: one finding for the run
// where every cell with CPU seconds has it, one per target where all that
// target's cells have it, one per cell otherwise (fold); each names the
// cells and their shares.
func saturationFindings(set *parse.Set, cells []*Cell, th Thresholds) []Finding {
	ix := newRunIndex(set.Runs)
	var fs []Finding
	var seen, hits []place
	for _, c := range cells {
		cu, su := ix.cellLoad(c)
		clientBusy := cu >= th.ClientSaturation
		if !math.IsNaN(cu) {
			p := place{run: c.Run, target: c.Name, scenario: c.Scenario, dumps: c.Dumps()}
			seen = append(seen, p)
			if clientBusy {
				p.evidence = fmt.Sprintf("%.0f%%", cu*100)
				hits = append(hits, p)
			}
		}
		if su < th.ServerSaturation {
			level := LevelInfo
			if clientBusy {
				level = LevelWarning
			}
			fs = append(fs, cellFinding(c, RuleServerNotSaturated, level, fmt.Sprintf(
				"the server kept only %.0f%% of its CPUs busy: it was waiting, not working, so the number describes the load generator or the network more than the framework (a single-threaded runtime on several CPUs also shows this); add connections or client CPUs, or give the server one CPU per thread it runs",
				su*100), nil))
		}
	}
	return append(fs, fold(clientSaturatedSpec("", th), seen, hits)...)
}

// clientSaturatedSpec folds client-saturated findings; phase is "" for
// the closed-loop pass, else what the message calls the points' pass.
func clientSaturatedSpec(phase string, th Thresholds) foldSpec {
	return foldSpec{rule: RuleClientSaturated, level: LevelWarning, byTarget: true,
		message: func(scope string, ev []string) string {
			if phase != "" {
				return fmt.Sprintf("the load generator kept at least %.0f%% of the CPUs it could use busy in the %s %s(%s): the client, not the server, may have set those points' pace and latency; give the client more CPUs or keep the rates below what it sustains",
					th.ClientSaturation*100, phase, scopeSpace(scope), evidenceList(ev))
			}
			if scope == "" {
				return fmt.Sprintf("the load generator kept %s of the CPUs it could use busy: the number measures the client as much as the server: it is a lower bound of the target's capacity, so a comparison it wins reads \"at least\" and one it loses reads \"~\" (client-bound); give the client more CPUs (or wrk more threads) or use a lighter load generator",
					ev[0])
			}
			return fmt.Sprintf("the load generator kept at least %.0f%% of the CPUs it could use busy %s (%s): the numbers measure the client as much as the servers: each is a lower bound of its target's capacity, so a comparison one wins reads \"at least\" and one it loses reads \"~\" (client-bound); give the client more CPUs (or wrk more threads) or use a lighter load generator",
				th.ClientSaturation*100, scope, evidenceList(ev))
		}}
}

// scopeSpace is scope and a space, or "" when scope is "".
func scopeSpace(scope string) string {
	if scope == "" {
		return ""
	}
	return scope + " "
}

// medianOf is the median of v, NaN for none. v is not modified.
func medianOf(v []float64) float64 {
	s := slices.Clone(v)
	sort.Float64s(s)
	return medianSorted(s)
}

// latencyFindings runs the latency rules on one cell.
func latencyFindings(c *Cell, th Thresholds) []Finding {
	var fs []Finding
	thin := map[float64]int64{} // percentile → fewest samples behind it
	var thinDumps []string
	for _, m := range c.Reps {
		samples := m.Latency.Samples
		if samples <= 0 {
			samples = m.Requests - m.Errors.Timeout
		}
		for _, p := range m.Latency.Percentiles {
			// beyond is rounded to 1e-6 of a sample: 10,000 × (1 − 0.999) is
			// 9.9999…, which is 10 samples, not fewer.
			beyond := math.Round(float64(samples)*(100-p.P)/100*1e6) / 1e6
			if samples <= 0 || beyond >= float64(th.MinTailSamples) {
				continue
			}
			if old, ok := thin[p.P]; !ok || samples < old {
				thin[p.P] = samples
			}
			thinDumps = append(thinDumps, m.Source.File)
		}
	}
	if len(thin) > 0 {
		ps := make([]float64, 0, len(thin))
		for p := range thin {
			ps = append(ps, p)
		}
		sort.Float64s(ps)
		var parts []string
		for _, p := range ps {
			parts = append(parts, fmt.Sprintf("p%s of %s samples", strconv.FormatFloat(p, 'f', -1, 64), formatCount(float64(thin[p]))))
		}
		fs = append(fs, cellFinding(c, RuleTailSamples, LevelWarning, fmt.Sprintf(
			"%s: fewer than %d samples lie beyond each, so the value is one or two slow requests, not a percentile; drop it or run longer",
			strings.Join(parts, ", "), th.MinTailSamples), uniqueSorted(thinDumps)))
	}
	return fs
}
