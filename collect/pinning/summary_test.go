package pinning

import "testing"

// TestSummary reads the recorded trees and checks the one-line summary the
// methodology page and fairbench pin show.
func TestSummary(t *testing.T) {
	for _, tc := range []struct{ tree, online, want string }{
		{"vm", "", "2 CPUs, 1 package, no SMT, L3 unknown, governor unknown, boost unknown"},
		{"ryzen-16c32t", "", "32 CPUs, 1 package, 16 cores, SMT (32 threads), 2 L3 domains, governor schedutil (acpi-cpufreq), boost on"},
		{"ryzen-16c32t", "0-30", "32 CPUs (1 offline), 1 package, 16 cores, SMT (31 threads), 2 L3 domains, governor schedutil (acpi-cpufreq), boost on"},
		{"intel-hybrid", "", "24 CPUs, 1 package, 16 cores, SMT (24 threads), hybrid: 16 P and 8 E threads, 1 L3 domain, governor powersave (intel_pstate), boost on"},
	} {
		topo := tree(t, tc.tree)
		if tc.online != "" {
			topo.Online = tc.online
		}
		if got := topo.Summary(); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.tree, got, tc.want)
		}
	}
}
