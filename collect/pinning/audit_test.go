package pinning

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse/runjson"
)

func TestAudit(t *testing.T) {
	for _, tc := range []struct {
		tree, server, client string
		online               string // overrides the tree's online list
		want                 []string
		usage                string
	}{
		// The benchmark page's own pinning: wrk on the SMT siblings of
		// every server core.
		{tree: "ryzen-16c32t", server: "0-7", client: "16-31", want: []string{"error: the server and the client share physical cores (server/client SMT siblings: 0/16 1/17 2/18 3/19 4/20 5/21 6/22 7/23)"}},
		{tree: "ryzen-16c32t", server: "0-7,16-23", client: "1-7,17-23", want: []string{"error: CPU 1-7,17-23 is in both"}},
		{tree: "ryzen-16c32t", server: "0-3,16-19", client: "4-7,20-23", want: []string{"info: the load tool shares the server's L3 cache (0-7,16-23) while another L3 domain holds none of the server"}},
		{tree: "ryzen-16c32t", server: "0-7,16-23", client: "8-15,24-31", want: nil},
		{tree: "ryzen-16c32t", server: "0-3,8-11,16-19,24-27", client: "4-7,20-23", want: []string{"error: the server's CPUs 0-3,8-11,16-19,24-27 span 2 L3 domains (0-7,16-23 and 8-15,24-31)"}},
		{tree: "ryzen-16c32t", server: "0-7", client: "8-15", want: []string{`warning: the server's CPUs 0-7 leave their SMT siblings 16-23 to anything else the machine runs, which then shares the server's cores; give the server whole cores (server_cpus = "0-7,16-23")`}},
		{tree: "ryzen-16c32t", server: "0-7,16-23", client: "8-15,24-31", online: "0-30", want: []string{"error: client CPUs 8-15,24-31: CPU 31 is offline (online: 0-30)"}},
		{tree: "ryzen-16c32t", server: "0-7,16-23", client: "32", usage: "client CPUs 32: this machine has no CPU 32 (it has 0-31)"},
		{tree: "ryzen-16c32t", server: "0-7,", client: "8", usage: `server CPUs: CPU list "0-7,": "": "" is not a CPU number; write a list like 0-3,8 or 0,2`},
		{tree: "intel-hybrid", server: "16-19", client: "0-7", want: []string{"error: the server runs on E-cores 16-19: they are slower than the P-cores (0-15)"}},
		{tree: "intel-hybrid", server: "2-9", client: "10-15", want: nil},
		{tree: "vm", server: "0", client: "1", want: []string{"info: topology unknown here: L3 domains"}},
		{tree: "vm", server: "0-1", client: "1", want: []string{"error: CPU 1 is in both the server's and the client's set", "info: topology unknown here: L3 domains"}},
		{tree: "vm", server: "", client: "", want: []string{`warning: no pinning: the server and the load tool share every CPU, so each measures the other too; pin them (fairbench pin suggests server_cpus = "0", client_cpus = "1" here)`}},
		{tree: "vm", server: "0", client: "", want: []string{"warning: the load tool is not pinned: it may run on the server's CPUs 0", "info: topology unknown here: L3 domains"}},
		{tree: "vm", server: "0", client: "2", usage: "client CPUs 2: this machine has no CPU 2 (it has 0-1)"},
	} {
		name := fmt.Sprintf("%s %q %q", tc.tree, tc.server, tc.client)
		topo := tree(t, tc.tree)
		if tc.online != "" {
			topo.Online = tc.online
		}
		fs, err := Audit(topo, tc.server, tc.client)
		if tc.usage != "" {
			if err == nil || err.Error() != tc.usage {
				t.Errorf("%s: error %v, want %q", name, err, tc.usage)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !findingsMatch(fs, tc.want) {
			t.Errorf("%s:\n got %s\nwant %q", name, findingLines(fs), tc.want)
		}
		if Problem(fs) != strings.HasPrefix(strings.Join(tc.want, ""), "error") {
			t.Errorf("%s: Problem = %v", name, Problem(fs))
		}
	}
}

// findingsMatch reports whether each finding, as "level: message", starts
// with or contains the wanted text at its index, and there are as many.
func findingsMatch(fs []runjson.PinFinding, want []string) bool {
	if len(fs) != len(want) {
		return false
	}
	for i, f := range fs {
		if !strings.Contains(f.Level+": "+f.Message, want[i]) {
			return false
		}
	}
	return true
}

func findingLines(fs []runjson.PinFinding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "\n  %s %s: %s", f.Level, f.Rule, f.Message)
	}
	return b.String()
}

func TestSuggest(t *testing.T) {
	for _, tc := range []struct {
		tree, server, client string
	}{
		{"ryzen-16c32t", "8-15,24-31", "1-7,17-23"},
		{"intel-hybrid", "2-9", "10-15"},
		{"vm", "0", "1"},
	} {
		topo := tree(t, tc.tree)
		s := Suggest(topo)
		if s.Server != tc.server || s.Client != tc.client {
			t.Errorf("%s: suggested %q / %q, want %q / %q (%q)", tc.tree, s.Server, s.Client, tc.server, tc.client, s.Notes)
		}
		// The suggestion passes its own audit: nothing but what is unknown.
		fs, err := Audit(topo, s.Server, s.Client)
		for _, f := range fs {
			if err != nil || f.Level != LevelInfo {
				t.Errorf("%s: the suggestion's audit: %v%s", tc.tree, err, findingLines(fs))
			}
		}
	}
}

// TestAuditIsolated: a set of several isolated CPUs gets no load
// balancing.
func TestAuditIsolated(t *testing.T) {
	topo := tree(t, "ryzen-16c32t")
	iso := "8-15,24-31"
	topo.Isolated = &iso
	fs, err := Audit(topo, "8-15,24-31", "1-7,17-23")
	if err != nil || !findingsMatch(fs, []string{"warning: the server's CPUs 8-15,24-31 are isolated (isolcpus=): the scheduler does not spread threads"}) {
		t.Errorf("%v%s", err, findingLines(fs))
	}
}

// TestSuggestUnknown: with no CPUs listed at all, nothing is suggested and
// the note says why.
func TestSuggestUnknown(t *testing.T) {
	s := Suggest(Read(Roots{Sys: t.TempDir(), Proc: t.TempDir()}))
	if s.Server != "" || s.Client != "" || len(s.Notes) != 1 || !strings.HasPrefix(s.Notes[0], "topology unknown") {
		t.Errorf("%+v", s)
	}
}

func TestSuggestOneCore(t *testing.T) {
	topo := tree(t, "ryzen-16c32t")
	topo.Online = "0,16"
	s := Suggest(topo)
	if s.Server != "0,16" || s.Client != "" || !strings.Contains(strings.Join(s.Notes, "\n"), "fewer than two physical cores") {
		t.Errorf("one core online: %+v", s)
	}
}

func TestMachine(t *testing.T) {
	for _, tc := range []struct {
		tree, server, client string
		want                 []string
	}{
		{"ryzen-16c32t", "8-15,24-31", "1-7,17-23", []string{
			"warning: CPUs 1-15,17-31 run schedutil (acpi-cpufreq), not performance", "sudo cpupower -c 1-15,17-31 frequency-set -g performance",
			"warning: boost is on (/sys/devices/system/cpu/cpufreq/boost)", "echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost"}},
		{"intel-hybrid", "", "", []string{
			"warning: CPUs 0-23 run powersave (intel_pstate), not performance", "",
			"warning: boost is on (/sys/devices/system/cpu/intel_pstate/no_turbo)", "echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo"}},
		// No cpufreq here: no governor or boost advice at all.
		{"vm", "0", "1", nil},
	} {
		fs := Machine(tree(t, tc.tree), tc.server, tc.client)
		if len(fs)*2 != len(tc.want) {
			t.Errorf("%s: %s", tc.tree, findingLines(fs))
			continue
		}
		for i, f := range fs {
			if line := f.Level + ": " + f.Message; !strings.HasPrefix(line, tc.want[2*i]) || !strings.Contains(line, tc.want[2*i+1]) {
				t.Errorf("%s: %s\nwant %q ... %q", tc.tree, line, tc.want[2*i], tc.want[2*i+1])
			}
		}
	}
}
