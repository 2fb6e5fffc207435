package collect

import (
	"context"
	"fmt"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/fairbench/fairbench/collect/machine"
	"github.com/fairbench/fairbench/collect/pinning"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

// AskFacts reads this machine's facts from /proc, /sys and /etc, and its
// CPU topology. A fact that cannot be read is left empty.
func AskFacts() runjson.Facts {
	h, _ := askFacts(context.Background(), &machine.Local{}) // local reads do not fail
	h.Pinning = &runjson.Pinning{Topology: pinning.Read(pinning.DefaultRoots)}
	return h
}

// askFacts reads the facts of m from its own /proc, /sys and /etc, here
// or on an SSH host alike. A file that cannot be read leaves its facts
// empty; only a machine that cannot be asked at all is an error.
func askFacts(ctx context.Context, m machine.Machine) (runjson.Facts, error) {
	files, err := m.ReadFiles(ctx, append(slices.Clone(factFiles), hostnameFile))
	if err != nil {
		return runjson.Facts{}, fmt.Errorf("host %s: facts: %w", m.Name(), err)
	}
	h := readFacts(func(p string) string { return files[p] })
	h.Hostname = strings.TrimSpace(files[hostnameFile])
	h.Arch = m.GoArch()
	return h, nil
}

// localFacts are this machine's facts with its topology and, when the
// suite runs here, the audit of the suite's [isolation] on it (with SSH
// hosts the sets apply to the hosts, whose topology is not read).
func (c *collector) localFacts(ctx context.Context) runjson.Facts {
	h, _ := askFacts(ctx, c.here)
	h.Pinning = &runjson.Pinning{Topology: pinning.Read(c.here.Roots)}
	if len(c.suite.Hosts) > 0 {
		return h
	}
	p := h.Pinning
	p.ServerCPUs, p.ClientCPUs = c.suite.Isolation.ServerCPUs, c.suite.Isolation.ClientCPUs
	p.Findings, _ = pinning.Audit(p.Topology, p.ServerCPUs, p.ClientCPUs) // a usage error stopped the run in preflight
	p.Forced = c.opt.ForcePinning && pinning.Problem(p.Findings)
	p.Findings = append(p.Findings, pinning.Machine(p.Topology, p.ServerCPUs, p.ClientCPUs)...)
	return h
}

// hostnameFile holds the machine's name (os.Hostname reads it too).
const hostnameFile = "/proc/sys/kernel/hostname"

// factFiles are the files host facts are read from.
var factFiles = []string{
	"/proc/sys/kernel/osrelease",
	"/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
	"/etc/os-release",
	"/proc/meminfo",
	"/proc/cpuinfo",
	"/proc/loadavg",
}

// readFacts reads the facts of a machine through read, which returns a
// file's text or "" when it cannot be read.
func readFacts(read func(path string) string) runjson.Facts {
	var h runjson.Facts
	first := func(path string) string {
		l, _, _ := strings.Cut(read(path), "\n")
		return strings.TrimSpace(l)
	}
	h.Kernel = first("/proc/sys/kernel/osrelease")
	h.Governor = first("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")
	for _, l := range strings.Split(read("/etc/os-release"), "\n") {
		if v, ok := strings.CutPrefix(l, "PRETTY_NAME="); ok {
			h.OS = strings.Trim(v, `"`)
		}
	}
	for _, l := range strings.Split(read("/proc/meminfo"), "\n") {
		if v, ok := strings.CutPrefix(l, "MemTotal:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			h.MemoryBytes = kb << 10
		}
	}
	h.CPUModel, h.Cores, h.Threads = cpuInfo(read("/proc/cpuinfo"))
	for _, f := range strings.Fields(first("/proc/loadavg")) {
		if len(h.LoadAvg) == 3 {
			break
		}
		v, _ := strconv.ParseFloat(f, 64)
		h.LoadAvg = append(h.LoadAvg, v)
	}
	return h
}

// cpuInfo reads the model name and counts physical cores and logical CPUs
// in the text of /proc/cpuinfo.
func cpuInfo(text string) (model string, cores, threads int) {
	physical := map[string]bool{}
	var phys, core string
	for _, l := range strings.Split(text, "\n") {
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			if phys != "" || core != "" {
				physical[phys+"/"+core] = true
			}
			phys, core = "", ""
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch k {
		case "processor":
			threads++
		case "model name":
			model = v
		case "physical id":
			phys = v
		case "core id":
			core = v
		}
	}
	cores = len(physical)
	if cores == 0 {
		cores = threads
	}
	return model, cores, threads
}

func firstLine(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	l, _, _ := strings.Cut(string(b), "\n")
	return strings.TrimSpace(l)
}

// runtimeFlags is how each runtime is asked its version.
var runtimeFlags = map[string]string{"go": "version", "node": "--version", "bun": "--version", "deno": "--version"}

// runtimeVersion asks a target's runtime ("go", "node", "bun", "deno") on
// m for its version.
func runtimeVersion(ctx context.Context, m machine.Machine, t suite.Target, dir string) (runjson.Version, bool) {
	argv, ok := runtimeArgv(t, dir)
	if !ok {
		return runjson.Version{}, false
	}
	v, err := m.Version(ctx, argv)
	return v, err == nil
}

// askRuntimes asks the runtime of each target on m its version, which m
// remembers, each binary once: four Go targets ask `go version` once.
func askRuntimes(ctx context.Context, m machine.Machine, targets []suite.Target, dir func(suite.Target) string) {
	asked := map[string]bool{}
	for _, t := range targets {
		argv, ok := runtimeArgv(t, dir(t))
		key := strings.Join(argv, "\x00")
		if !ok || asked[key] {
			continue
		}
		asked[key] = true
		if v, err := m.Version(ctx, argv); err == nil {
			m.Remember(t.Runtime, v)
		}
	}
}

// runtimeArgv is how a target's runtime is asked its version. When the
// target starts the runtime by a path of its own (node_modules/.bin/bun,
// relative to dir), that binary is asked; otherwise the one on the
// machine's PATH. ok is false for a target without a known runtime.
func runtimeArgv(t suite.Target, dir string) (argv []string, ok bool) {
	flag := runtimeFlags[t.Runtime]
	if flag == "" {
		return nil, false
	}
	bin := t.Runtime
	if len(t.Start) > 0 && strings.Contains(t.Start[0], "/") && path.Base(t.Start[0]) == t.Runtime {
		bin = t.Start[0]
		if !path.IsAbs(bin) {
			bin = path.Join(dir, bin)
		}
	}
	return []string{bin, flag}, true
}
