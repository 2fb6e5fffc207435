package audit

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
)

const RuleMixedHosts = "mixed-hosts" // runs from different hosts in one set

// hostLabel names a host by what matters to its numbers.
func hostLabel(h runjson.Facts) string {
	return fmt.Sprintf("%s (%s, %d threads, %s)", h.Hostname, h.CPUModel, h.Threads, h.Kernel)
}

// mixedHostFindings fires when the runs of one set come from different hosts.
func mixedHostFindings(runs []*parse.Run) []Finding {
	hosts := map[string]bool{}
	for _, r := range runs {
		hosts[hostLabel(r.Facts)] = true
	}
	if len(hosts) < 2 {
		return nil
	}
	return []Finding{{Rule: RuleMixedHosts, Level: LevelWarning,
		Message: fmt.Sprintf("the runs come from %d different hosts: %s; numbers from different hosts are not comparable, so compare targets only within one run",
			len(hosts), strings.Join(slices.Sorted(maps.Keys(hosts)), "; "))}}
}
