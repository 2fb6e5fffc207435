package hostcheck

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fairbench/fairbench/collect/machine"
	"github.com/fairbench/fairbench/collect/pinning"
	"github.com/fairbench/fairbench/parse/runjson"
)

// AskFacts reads this machine's facts from /proc, /sys and /etc, and its
// CPU topology. A fact that cannot be read is left empty.
func AskFacts() runjson.Facts {
	h, _ := Facts(context.Background(), &machine.Local{}) // local reads do not fail
	h.Pinning = &runjson.Pinning{Topology: pinning.Read(pinning.DefaultRoots)}
	return h
}

// Facts reads the facts of m from its own /proc, /sys and /etc, here
// or on an SSH host alike. A file that cannot be read leaves its facts
// empty; only a machine that cannot be asked at all is an error.
func Facts(ctx context.Context, m machine.Machine) (runjson.Facts, error) {
	files, err := m.ReadFiles(ctx, append(slices.Clone(factFiles), hostnameFile))
	if err != nil {
		return runjson.Facts{}, fmt.Errorf("host %s: facts: %w", m.Name(), err)
	}
	h := readFacts(func(p string) string { return files[p] })
	h.Hostname = strings.TrimSpace(files[hostnameFile])
	h.Arch = m.GoArch()
	return h, nil
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
