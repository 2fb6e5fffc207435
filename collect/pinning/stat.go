package pinning

import (
	"bufio"
	"bytes"
	"fmt"
	"github.com/fairbench/fairbench/parse/runjson"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// userHZ is the unit of /proc/stat's times: clock ticks of 1/100 s. The
// kernel fixes USER_HZ at 100 for user space on every architecture Linux
// runs fairbench on (sysconf(_SC_CLK_TCK)).
const userHZ = 100

// CPUTime is one CPU's time since boot from /proc/stat, in clock ticks
// (1/100 s), by kind. Guest time is inside User and Nice already.
type CPUTime struct {
	User, Nice, System, Idle, IOWait, IRQ, SoftIRQ, Steal uint64
}

// Stat is a snapshot of /proc/stat: each online CPU's time by CPU number,
// and All, the machine's line ("cpu").
type Stat struct {
	CPUs map[int]CPUTime
	All  CPUTime
}

// ReadStat reads /proc/stat under r.
func ReadStat(r Roots) (Stat, error) {
	name := filepath.Join(r.Proc, "stat")
	b, err := os.ReadFile(name)
	if err != nil {
		return Stat{}, err
	}
	return ParseStat(b, name)
}

// ParseStat reads the cpu lines of /proc/stat's text; name is for errors
// (file:line: message). Lines other than cpu lines are skipped.
func ParseStat(text []byte, name string) (Stat, error) {
	s := Stat{CPUs: map[int]CPUTime{}}
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(nil, 1<<20) // the intr line lists every interrupt
	seenAll := false
	for n := 1; sc.Scan(); n++ {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || !strings.HasPrefix(fields[0], "cpu") {
			continue
		}
		t, err := cpuTime(fields[1:])
		if err != nil {
			return Stat{}, fmt.Errorf("%s:%d: %s: %w", name, n, fields[0], err)
		}
		if fields[0] == "cpu" {
			s.All, seenAll = t, true
			continue
		}
		id, err := strconv.Atoi(fields[0][3:])
		if err != nil || id < 0 || id > runjson.MaxCPU {
			return Stat{}, fmt.Errorf("%s:%d: %q is not a CPU", name, n, fields[0])
		}
		s.CPUs[id] = t
	}
	if err := sc.Err(); err != nil {
		return Stat{}, fmt.Errorf("%s: %w", name, err)
	}
	if !seenAll {
		return Stat{}, fmt.Errorf("%s: no cpu line: not /proc/stat", name)
	}
	return s, nil
}

// cpuTime reads the numbers of a cpu line: user nice system idle, then,
// where the kernel has them, iowait irq softirq steal (guest and
// guest_nice are counted in user and nice already).
func cpuTime(fields []string) (CPUTime, error) {
	if len(fields) < 4 {
		return CPUTime{}, fmt.Errorf("%d numbers, want at least 4 (user nice system idle)", len(fields))
	}
	var v [8]uint64
	for i := 0; i < len(fields) && i < len(v); i++ {
		n, err := strconv.ParseUint(fields[i], 10, 64)
		if err != nil {
			return CPUTime{}, fmt.Errorf("%q is not a count of clock ticks", fields[i])
		}
		v[i] = n
	}
	return CPUTime{User: v[0], Nice: v[1], System: v[2], Idle: v[3], IOWait: v[4], IRQ: v[5], SoftIRQ: v[6], Steal: v[7]}, nil
}

// Usage is the CPU time a set of CPUs spent between two snapshots, in
// seconds, by kind: Busy is user + nice + system (the processes'), kept
// apart from IRQ and SoftIRQ (interrupts: loopback traffic lands in
// softirq) and Steal (the hypervisor ran something else); Idle includes
// iowait. Total is their sum: the CPUs' share of the wall-clock window.
type Usage struct {
	CPUs                            string // the set, as a CPU list; "" the whole machine
	Busy, IRQ, SoftIRQ, Steal, Idle float64
	Total                           float64
	Missing                         []int // CPUs of the set absent from a snapshot (offline): not counted
}

// Delta is what the CPUs of cpus (nil: the whole machine) spent from a to
// b. A counter that went backwards (iowait does, on some kernels) counts
// as zero.
func Delta(a, b Stat, cpus []int) Usage {
	u := Usage{CPUs: runjson.FormatCPUList(cpus)}
	if len(cpus) == 0 {
		u.add(a.All, b.All)
		return u
	}
	for _, c := range slices.Compact(slices.Sorted(slices.Values(cpus))) {
		ta, okA := a.CPUs[c]
		tb, okB := b.CPUs[c]
		if !okA || !okB {
			u.Missing = append(u.Missing, c)
			continue
		}
		u.add(ta, tb)
	}
	return u
}

func (u *Usage) add(a, b CPUTime) {
	d := func(x, y uint64) float64 {
		if y < x {
			return 0
		}
		return float64(y-x) / userHZ
	}
	busy := d(a.User, b.User) + d(a.Nice, b.Nice) + d(a.System, b.System)
	idle := d(a.Idle, b.Idle) + d(a.IOWait, b.IOWait)
	irq, soft, steal := d(a.IRQ, b.IRQ), d(a.SoftIRQ, b.SoftIRQ), d(a.Steal, b.Steal)
	u.Busy += busy
	u.Idle += idle
	u.IRQ += irq
	u.SoftIRQ += soft
	u.Steal += steal
	u.Total += busy + idle + irq + soft + steal
}
