package collect

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// Host is what the machine says about itself, asked at the start of a run.
type Host struct {
	Hostname    string    `json:"hostname"`
	CPUModel    string    `json:"cpu_model"`
	Cores       int       `json:"cores"`   // physical cores
	Threads     int       `json:"threads"` // logical CPUs
	MemoryBytes int64     `json:"memory_bytes"`
	Kernel      string    `json:"kernel"`
	OS          string    `json:"os"`
	Arch        string    `json:"arch"`
	Governor    string    `json:"governor,omitempty"`
	LoadAvg     []float64 `json:"loadavg,omitempty"` // 1, 5 and 15 minutes, at the start
}

// AskHost reads the host facts from /proc, /sys and /etc. A fact that cannot
// be read is left empty.
func AskHost() Host {
	h := Host{Arch: runtime.GOARCH, Threads: runtime.NumCPU()}
	h.Hostname, _ = os.Hostname()
	h.Kernel = firstLine("/proc/sys/kernel/osrelease")
	h.Governor = firstLine("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")
	if b, err := os.ReadFile("/etc/os-release"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "PRETTY_NAME="); ok {
				h.OS = strings.Trim(v, `"`)
			}
		}
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "MemTotal:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
				h.MemoryBytes = kb << 10
			}
		}
	}
	h.CPUModel, h.Cores, h.Threads = cpuInfo(h.Threads)
	for _, f := range strings.Fields(firstLine("/proc/loadavg")) {
		if len(h.LoadAvg) == 3 {
			break
		}
		v, _ := strconv.ParseFloat(f, 64)
		h.LoadAvg = append(h.LoadAvg, v)
	}
	return h
}

// cpuInfo reads the model name and counts physical cores and logical CPUs.
func cpuInfo(fallbackThreads int) (model string, cores, threads int) {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "", 0, fallbackThreads
	}
	physical := map[string]bool{}
	var phys, core string
	for _, l := range strings.Split(string(b), "\n") {
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
	if threads == 0 {
		threads = fallbackThreads
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

// runtimeVersion asks a target's runtime for its version ("go", "node",
// "bun", "deno"). When the target starts the runtime by a path of its own
// (node_modules/.bin/bun), that binary is asked; otherwise the one on PATH.
func runtimeVersion(ctx context.Context, t Target, dir string) (Version, bool) {
	var flag string
	switch t.Runtime {
	case "go":
		flag = "version"
	case "node", "bun", "deno":
		flag = "--version"
	default:
		return Version{}, false
	}
	path, err := exec.LookPath(t.Runtime)
	if len(t.Start) > 0 && strings.Contains(t.Start[0], "/") && filepath.Base(t.Start[0]) == t.Runtime {
		path, err = t.Start[0], nil
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
	}
	if err != nil {
		return Version{}, false
	}
	out, err := exec.CommandContext(ctx, path, flag).Output()
	if err != nil {
		return Version{}, false
	}
	first, _, _ := strings.Cut(string(out), "\n")
	return Version{Path: path, Version: strings.TrimSpace(first), Asked: []string{path, flag}}, true
}
