package audit

import (
	"fmt"

	"github.com/fairbench/fairbench/parse"
)

// RuleSettingsUnknown fires for a measurement whose dump does not say a load
// setting a comparison depends on: a post that pasted autocannon's tables
// without the lines above them and without a command line leaves the URL,
// the connections, the pipelining factor and the requested duration
// unknown. The values stay empty (never guessed); the finding names them.
const RuleSettingsUnknown = "settings-unknown"

// pastedFindings reports, per measurement (warm-ups aside), the load
// settings its dump leaves unknown.
func pastedFindings(set *parse.Set) []Finding {
	var fs []Finding
	for _, m := range set.Measurements {
		if m.Warmup || !inThroughputPass(m) { // a latency point's settings are the run's (the open-model rules)
			continue
		}
		missing := unknownSettings(m.Settings)
		if len(missing) == 0 {
			continue
		}
		fs = append(fs, Finding{
			Rule: RuleSettingsUnknown, Level: LevelWarning,
			Run: m.Run, Target: m.Target, Scenario: m.Scenario,
			Message: fmt.Sprintf("%s:%d-%d: %s run does not say its %s; these stay empty and its numbers cannot be set beside runs whose settings are known: publish the tool's whole output with its command line",
				m.Source.File, m.Source.LineStart, m.Source.LineEnd, m.Tool, joinWords(missing)),
			Dumps: []string{m.Source.File},
		})
	}
	return fs
}

// unknownSettings names the settings a comparison depends on that are
// unknown: the URL, connections, pipelining and requested duration.
// Threads are left out: they change the client, not the load.
func unknownSettings(s parse.SettingSources) []string {
	var out []string
	for _, kv := range [...][2]string{{"URL", s.URL}, {"connections", s.Connections},
		{"pipelining", s.Pipelining}, {"requested duration", s.Duration}} {
		if kv[1] == parse.FromUnknown {
			out = append(out, kv[0])
		}
	}
	return out
}
