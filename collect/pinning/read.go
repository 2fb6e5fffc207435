// Package pinning reads a machine's CPU topology from sysfs and procfs,
// audits a server/client CPU pinning against it, suggests one, and reads
// per-CPU time from /proc/stat. It reads through roots that can point at a
// recorded tree (as node_exporter's --path.sysfs and --path.procfs do), and
// says "unknown" where the kernel says nothing: it never guesses. Running
// processes under the pinning is left to package collect.
package pinning

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/fairbench/fairbench/parse/runjson"
)

// Roots are the folders sysfs and procfs are read from.
type Roots struct {
	Sys  string // where sysfs is mounted, or a recorded copy of it
	Proc string // where procfs is mounted, or a recorded copy of it
}

// DefaultRoots are the machine's own /sys and /proc.
var DefaultRoots = Roots{Sys: "/sys", Proc: "/proc"}

// cpuDir is the sysfs folder of the CPUs, relative to the sysfs root.
const cpuDir = "devices/system/cpu"

// Boost knobs, relative to the sysfs root: acpi-cpufreq's and amd-pstate's
// (1: boost on), and intel_pstate's (0: turbo on).
const (
	knobBoost   = cpuDir + "/cpufreq/boost"
	knobNoTurbo = cpuDir + "/intel_pstate/no_turbo"
)

// sysFile is the first line of a file under the sysfs root, and whether
// it could be read.
func (r Roots) sysFile(rel string) (string, bool) { return firstLine(filepath.Join(r.Sys, rel)) }

func firstLine(name string) (string, bool) {
	b, err := os.ReadFile(name)
	if err != nil {
		return "", false
	}
	l, _, _ := strings.Cut(string(b), "\n")
	return strings.TrimSpace(l), true
}

// Read reads the topology under r. What cannot be read stays unknown.
func Read(r Roots) runjson.Topology {
	var t runjson.Topology
	t.Online, _ = r.sysFile(cpuDir + "/online")
	if iso, ok := r.sysFile(cpuDir + "/isolated"); ok {
		t.Isolated = &iso
	}
	t.SMTControl, _ = r.sysFile(cpuDir + "/smt/control")
	if v, ok := r.sysFile(knobBoost); ok && (v == "0" || v == "1") {
		t.Boost, t.BoostKnob = map[string]string{"0": "off", "1": "on"}[v], knobBoost
	} else if v, ok := r.sysFile(knobNoTurbo); ok && (v == "0" || v == "1") {
		t.Boost, t.BoostKnob = map[string]string{"0": "on", "1": "off"}[v], knobNoTurbo
	}
	types := map[int]string{}
	for dev, typ := range map[string]string{"cpu_core": "P", "cpu_atom": "E"} {
		if l, ok := r.sysFile("devices/" + dev + "/cpus"); ok {
			cpus, _ := runjson.ParseCPUList(l)
			for _, c := range cpus {
				types[c] = typ
			}
		}
	}
	online := map[int]bool{}
	onlineList, err := runjson.ParseCPUList(t.Online)
	if t.Online == "" || err != nil {
		onlineList = nil
	}
	for _, c := range onlineList {
		online[c] = true
	}
	info := cpuInfo(r)
	for _, id := range r.cpuIDs(info) {
		cpu := runjson.CPU{ID: id, Type: types[id]}
		if len(onlineList) == 0 || online[id] {
			r.readCPU(&cpu, info[id])
		}
		t.CPUs = append(t.CPUs, cpu)
	}
	return t
}

// cpuIDs are the CPUs present: the present list, else the cpuN folders,
// else the processors of /proc/cpuinfo.
func (r Roots) cpuIDs(info map[int]procCPU) []int {
	if l, ok := r.sysFile(cpuDir + "/present"); ok {
		if ids, err := runjson.ParseCPUList(l); err == nil && len(ids) > 0 {
			return ids
		}
	}
	var ids []int
	entries, _ := os.ReadDir(filepath.Join(r.Sys, cpuDir))
	for _, e := range entries {
		if n, ok := strings.CutPrefix(e.Name(), "cpu"); ok {
			if id, err := strconv.Atoi(n); err == nil && id >= 0 && id <= runjson.MaxCPU {
				ids = append(ids, id)
			}
		}
	}
	if len(ids) == 0 {
		for id := range info {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// readCPU fills in what sysfs (or, for package and core, /proc/cpuinfo)
// says of one online CPU.
func (r Roots) readCPU(cpu *runjson.CPU, info procCPU) {
	dir := path.Join(cpuDir, "cpu"+strconv.Itoa(cpu.ID))
	num := func(rel string) *int {
		v, ok := r.sysFile(path.Join(dir, rel))
		n, err := strconv.Atoi(v)
		if !ok || err != nil || n < 0 {
			return nil
		}
		return &n
	}
	cpu.Package = num("topology/physical_package_id")
	cpu.Die = num("topology/die_id")
	cpu.Core = num("topology/core_id")
	if cpu.Package == nil && cpu.Core == nil {
		cpu.Package, cpu.Core = info.pkg, info.core
	}
	for _, f := range []string{"topology/core_cpus_list", "topology/thread_siblings_list"} {
		if v, ok := r.sysFile(path.Join(dir, f)); ok && v != "" {
			cpu.Siblings = v
			break
		}
	}
	caches, _ := os.ReadDir(filepath.Join(r.Sys, dir, "cache"))
	for _, c := range caches {
		idx := path.Join(dir, "cache", c.Name())
		level, _ := r.sysFile(idx + "/level")
		typ, _ := r.sysFile(idx + "/type")
		if level == "3" && typ != "Instruction" {
			cpu.L3, _ = r.sysFile(idx + "/shared_cpu_list")
		}
	}
	cpu.Governor, _ = r.sysFile(path.Join(dir, "cpufreq/scaling_governor"))
	cpu.Driver, _ = r.sysFile(path.Join(dir, "cpufreq/scaling_driver"))
}

// procCPU is what /proc/cpuinfo says of one processor's place.
type procCPU struct{ pkg, core *int }

// cpuInfo reads "physical id" and "core id" of every processor in
// /proc/cpuinfo (x86 prints them; other architectures may not).
func cpuInfo(r Roots) map[int]procCPU {
	b, err := os.ReadFile(filepath.Join(r.Proc, "cpuinfo"))
	if err != nil {
		return nil
	}
	out := map[int]procCPU{}
	id := -1
	for _, l := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 {
			continue
		}
		switch strings.TrimSpace(k) {
		case "processor":
			id = n
			out[id] = procCPU{}
		case "physical id":
			if p, ok := out[id]; ok {
				p.pkg = &n
				out[id] = p
			}
		case "core id":
			if p, ok := out[id]; ok {
				p.core = &n
				out[id] = p
			}
		}
	}
	return out
}
