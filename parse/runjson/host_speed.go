package runjson

import (
	"math"
	"slices"
	"strings"
)

// HostSpeed is a fixed piece of CPU work (a POSIX shell counting loop)
// timed on the server's and on the client's CPUs just before a target's
// turn in a round (its server started, its scenarios measured, its server
// stopped) and just after it. What a CPU does in a second is not fixed on
// a shared machine: a neighbour on the same physical core, or a hypervisor
// that takes the CPU without reporting steal time, slows everything on it
// while /proc/stat shows the CPU busy with our work alone. The probe shows
// it: the same work takes longer. Before is the last turn's After where
// that ended under half a second before this turn began.
type HostSpeed struct {
	Before Probe `json:"before"`
	After  Probe `json:"after"`
	// WaitedS is how long the collector waited before the turn for the
	// probe to come back to speed (suites with retake_slow only).
	WaitedS float64 `json:"waited_s,omitempty"`
	// Dropped: the probe ran slow around the turn, so the measurement is
	// not counted (Error says so) and its turn was taken again.
	Dropped bool `json:"dropped,omitempty"`
	// Retake: the measurement's turn took the place of one dropped.
	Retake bool `json:"retake,omitempty"`
}

// ServerTurn is the probe's time on the server's CPUs around the turn:
// the geometric mean of its times before and after, in seconds; 0 where
// either was not taken. It is the covariate the verdicts take out of a
// pair's round differences (verdict.MethodBlockedSpeed).
func (h *HostSpeed) ServerTurn() float64 {
	if h == nil || h.Before.ServerS <= 0 || h.After.ServerS <= 0 {
		return 0
	}
	return math.Sqrt(h.Before.ServerS * h.After.ServerS)
}

// Probe is the seconds the probe took on the server's CPUs and on the
// client's; 0: not taken.
type Probe struct {
	ServerS float64 `json:"server_s"`
	ClientS float64 `json:"client_s"`
}

// SpeedSet names the CPU set a probe time was taken on: the side, the host
// and the CPU list. The fastest a probe ran is kept per set.
func SpeedSet(server bool, host, cpus string) string {
	side := "client"
	if server {
		side = "server"
	}
	return strings.Join([]string{side, host, cpus}, " ")
}

// Fastest is the shortest time the probe took on each CPU set (SpeedSet)
// over every probed measurement of ms, warm-ups and dropped ones too.
func Fastest(ms []Measurement) map[string]float64 {
	best := map[string]float64{}
	for _, mr := range ms {
		for _, t := range mr.probeTimes() {
			KeepFastest(best, t.set, t.s)
		}
	}
	return best
}

// Typical is the median time the probe took on each CPU set (SpeedSet)
// over the probed turns of ms, warm-ups and dropped ones too, on a set
// with at least least times (two a turn: before and after); on a set with
// fewer, the fastest (Fastest). A turn's measurements share its probe, so
// a turn of many scenarios counts once.
func Typical(ms []Measurement, least int) map[string]float64 {
	type turn struct {
		h        HostSpeed
		srv, cli string
	}
	seen := map[turn]bool{}
	times := map[string][]float64{}
	for _, mr := range ms {
		if mr.HostSpeed == nil {
			continue
		}
		key := turn{*mr.HostSpeed, mr.ServerHost + " " + mr.ServerCPUList, mr.ClientHost + " " + mr.ClientCPUList}
		if seen[key] {
			continue
		}
		seen[key] = true
		for _, t := range mr.probeTimes() {
			if t.s > 0 {
				times[t.set] = append(times[t.set], t.s)
			}
		}
	}
	typical := Fastest(ms)
	for set, ts := range times {
		if len(ts) >= least {
			slices.Sort(ts)
			typical[set] = (ts[(len(ts)-1)/2] + ts[len(ts)/2]) / 2
		}
	}
	return typical
}

// KeepFastest sets best[set] to s where s is a time (positive) shorter
// than the one best holds, or the first.
func KeepFastest(best map[string]float64, set string, s float64) {
	if b, ok := best[set]; s > 0 && (!ok || s < b) {
		best[set] = s
	}
}

// Slowdown is how much slower than the fastest of its set (best, from
// Fastest) the probe ran around mr's turn: the largest of its times, each
// divided by the fastest on its set; 0 when mr was not probed.
func (mr *Measurement) Slowdown(best map[string]float64) float64 {
	worst := 0.0
	for _, t := range mr.probeTimes() {
		if b := best[t.set]; b > 0 && t.s > 0 {
			worst = max(worst, t.s/b)
		}
	}
	return worst
}

// setTime is one probe time and the CPU set (SpeedSet) it was taken on.
type setTime struct {
	set string
	s   float64
}

// probeTimes are mr's four probe times, each with its set; none when mr
// was not probed.
func (mr *Measurement) probeTimes() []setTime {
	h := mr.HostSpeed
	if h == nil {
		return nil
	}
	srv, cli := SpeedSet(true, mr.ServerHost, mr.ServerCPUList), SpeedSet(false, mr.ClientHost, mr.ClientCPUList)
	return []setTime{{srv, h.Before.ServerS}, {srv, h.After.ServerS}, {cli, h.Before.ClientS}, {cli, h.After.ClientS}}
}
