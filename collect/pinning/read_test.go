package pinning

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/fairbench/fairbench/parse/runjson"
)

// tree reads the recorded machine under testdata/name.
func tree(t *testing.T, name string) runjson.Topology {
	t.Helper()
	return Read(treeRoots(name))
}

func treeRoots(name string) Roots {
	dir := filepath.Join("testdata", name)
	return Roots{Sys: filepath.Join(dir, "sys"), Proc: filepath.Join(dir, "proc")}
}

func intp(n int) *int { return &n }

func TestReadTrees(t *testing.T) {
	for _, tc := range []struct {
		tree                    string
		cpus                    int
		online, smt, boost      string
		cpu                     int
		want                    runjson.CPU
		wantBoostKnob, isolated string
	}{
		{"ryzen-16c32t", 32, "0-31", "on", "on", 20,
			runjson.CPU{ID: 20, Package: intp(0), Die: intp(0), Core: intp(4), Siblings: "4,20", L3: "0-7,16-23", Governor: "schedutil", Driver: "acpi-cpufreq"},
			knobBoost, ""},
		{"intel-hybrid", 24, "0-23", "on", "on", 17,
			runjson.CPU{ID: 17, Package: intp(0), Die: intp(0), Core: intp(33), Siblings: "17", L3: "0-23", Type: "E", Governor: "powersave", Driver: "intel_pstate"},
			knobNoTurbo, ""},
		{"intel-hybrid", 24, "0-23", "on", "on", 3,
			runjson.CPU{ID: 3, Package: intp(0), Die: intp(0), Core: intp(4), Siblings: "2-3", L3: "0-23", Type: "P", Governor: "powersave", Driver: "intel_pstate"},
			knobNoTurbo, ""},
		// This VM: topology without caches or cpufreq; L3, governor and
		// boost stay unknown.
		{"vm", 2, "0-1", "notsupported", "", 1,
			runjson.CPU{ID: 1, Package: intp(0), Die: intp(0), Core: intp(1), Siblings: "1"},
			"", ""},
	} {
		topo := tree(t, tc.tree)
		if len(topo.CPUs) != tc.cpus || topo.Online != tc.online || topo.SMTControl != tc.smt || topo.Boost != tc.boost || topo.BoostKnob != tc.wantBoostKnob {
			t.Errorf("%s: %d CPUs, online %q, smt %q, boost %q (%q); want %d, %q, %q, %q (%q)", tc.tree, len(topo.CPUs), topo.Online, topo.SMTControl, topo.Boost, topo.BoostKnob, tc.cpus, tc.online, tc.smt, tc.boost, tc.wantBoostKnob)
		}
		if topo.Isolated == nil || *topo.Isolated != tc.isolated {
			t.Errorf("%s: isolated %v, want %q", tc.tree, topo.Isolated, tc.isolated)
		}
		if got, want := jsonOf(t, topo.CPUs[tc.cpu]), jsonOf(t, tc.want); got != want {
			t.Errorf("%s: CPU %d\n got %s\nwant %s", tc.tree, tc.cpu, got, want)
		}
	}
}

// TestReadMissing: a tree with nothing in it is all unknown, and a CPU the
// online list leaves out is listed with its number alone.
func TestReadMissing(t *testing.T) {
	topo := Read(Roots{Sys: t.TempDir(), Proc: t.TempDir()})
	if got := jsonOf(t, topo); got != `{"cpus":null}` {
		t.Errorf("empty tree: %s", got)
	}
	sys := t.TempDir()
	cpu := filepath.Join(sys, cpuDir)
	for f, v := range map[string]string{"present": "0-1", "online": "0", "cpu0/topology/core_id": "0", "cpu1/topology/core_id": "1"} {
		os.MkdirAll(filepath.Dir(filepath.Join(cpu, f)), 0o755)
		os.WriteFile(filepath.Join(cpu, f), []byte(v+"\n"), 0o644)
	}
	topo = Read(Roots{Sys: sys, Proc: t.TempDir()})
	if got, want := jsonOf(t, topo.CPUs), `[{"cpu":0,"core":0},{"cpu":1}]`; got != want {
		t.Errorf("CPU 1 offline: %s, want %s", got, want)
	}
}

// TestReadCPUInfo: without sysfs topology, package and core come from
// /proc/cpuinfo.
func TestReadCPUInfo(t *testing.T) {
	topo := Read(Roots{Sys: t.TempDir(), Proc: filepath.Join("testdata", "ryzen-16c32t", "proc")})
	if len(topo.CPUs) != 32 || topo.CPUs[17].Core == nil || *topo.CPUs[17].Core != 1 || topo.CPUs[17].Siblings != "" {
		t.Errorf("from cpuinfo: %s", jsonOf(t, topo.CPUs[17]))
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
