package audit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fairbench/fairbench/parse/verdict"
)

// runGroups splits cells by run, the runs sorted.
func runGroups(cells []*verdict.Cell) (ids []string, byRun map[string][]*verdict.Cell) {
	return groupCells(cells, func(c *verdict.Cell) string { return c.Run })
}

// groupCells splits cells by key, keeping their order within a group; the
// keys come sorted.
func groupCells(cells []*verdict.Cell, key func(*verdict.Cell) string) (keys []string, by map[string][]*verdict.Cell) {
	by = map[string][]*verdict.Cell{}
	for _, c := range cells {
		k := key(c)
		if by[k] == nil {
			keys = append(keys, k)
		}
		by[k] = append(by[k], c)
	}
	sort.Strings(keys)
	return keys, by
}

// cellList names cells for a message: "a/ping, b/json and 3 more".
func cellList(cells []*verdict.Cell) string {
	var names []string
	for _, c := range cells {
		names = append(names, c.Name+"/"+c.Scenario)
	}
	sort.Strings(names)
	if len(names) > 8 {
		return strings.Join(names[:8], ", ") + fmt.Sprintf(" and %d more", len(names)-8)
	}
	return strings.Join(names, ", ")
}

// dumpsOfCells is every dump of cells, sorted, each once.
func dumpsOfCells(cells []*verdict.Cell) []string {
	var d []string
	for _, c := range cells {
		d = append(d, c.Dumps()...)
	}
	return uniqueSorted(d)
}

// cellFinding starts a finding about one cell.
func cellFinding(c *verdict.Cell, rule string, level Level, msg string, dumps []string) Finding {
	if dumps == nil {
		dumps = c.Dumps()
	}
	return Finding{Rule: rule, Level: level, Run: c.Run, Target: c.Name, Scenario: c.Scenario, Message: msg, Dumps: dumps}
}
