package audit

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/fairbench/fairbench/parse"
)

const RuleMixedSettings = "mixed-settings" // load settings differ within a scenario

// setting is one load setting a comparison must hold fixed.
type setting struct {
	name  string
	value func(m *parse.Measurement) string // "" when the dump does not say
}

var loadSettings = []setting{
	{"tool", func(m *parse.Measurement) string { return m.Tool }},
	{"connections", func(m *parse.Measurement) string { return intSetting(m.Connections) }},
	{"threads", func(m *parse.Measurement) string { return intSetting(m.Threads) }},
	{"pipelining", func(m *parse.Measurement) string { return intSetting(max(m.Pipelining, 1)) }},
	{"duration", func(m *parse.Measurement) string {
		if m.Window <= 0 {
			return ""
		}
		return m.Window.String()
	}},
	{"rate", func(m *parse.Measurement) string {
		if m.Rate <= 0 {
			return "none"
		}
		return fmt.Sprint(m.Rate)
	}},
}

func intSetting(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprint(n)
}

// MixedSettings finds scenarios whose measurements of the closed-loop pass
// (warm-ups, latency and sweep points excluded: those vary the rate and the
// connections on purpose) were taken with different load settings: tool,
// connections, threads, pipelining, requested duration or rate. Their
// numbers cannot be compared. Pass the measurements of every set being
// compared together.
func MixedSettings(ms []*parse.Measurement) []Finding {
	byScenario := map[string][]*parse.Measurement{}
	for _, m := range ms {
		if !m.Warmup && inThroughputPass(m) {
			byScenario[m.Scenario] = append(byScenario[m.Scenario], m)
		}
	}
	var fs []Finding
	for scenario, group := range byScenario {
		for _, s := range loadSettings {
			if f, ok := mixedSetting(scenario, group, s); ok {
				fs = append(fs, f)
			}
		}
	}
	return fs
}

func mixedSetting(scenario string, ms []*parse.Measurement, s setting) (Finding, bool) {
	who := map[string]map[string]bool{} // value → targets
	runs := map[string]bool{}
	var dumps []string
	for _, m := range ms {
		v := s.value(m)
		if v == "" {
			continue
		}
		if who[v] == nil {
			who[v] = map[string]bool{}
		}
		who[v][m.Target] = true
		runs[m.Run] = true
		dumps = append(dumps, m.Source.File)
	}
	if len(who) < 2 {
		return Finding{}, false
	}
	var parts []string
	for v, targets := range who {
		parts = append(parts, fmt.Sprintf("%s (%s)", v, strings.Join(slices.Sorted(maps.Keys(targets)), ", ")))
	}
	sort.Strings(parts)
	f := Finding{Rule: RuleMixedSettings, Level: LevelError, Scenario: scenario,
		Message: fmt.Sprintf("%s differ within one comparison: %s; compare like with like: measure every target with the same settings",
			s.name, strings.Join(parts, "; ")),
		Dumps: uniqueSorted(dumps)}
	if len(runs) == 1 {
		for r := range runs {
			f.Run = r
		}
	}
	return f, true
}
