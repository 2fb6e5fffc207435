package audit

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fairbench/fairbench/parse"

	"github.com/fairbench/fairbench/parse/runjson"
	"github.com/fairbench/fairbench/parse/verdict"
)

// Rules about how a run was set up, and what came with it.
const (
	RuleMixedSettings = "mixed-settings" // load settings differ within a scenario
	RuleMixedHosts    = "mixed-hosts"    // runs from different hosts in one set
	RuleToolFailed    = "tool-failed"    // a tool exited non-zero or failed (run.json)
	RuleRunIncomplete = "run-incomplete" // a run whose status is not "complete"
	RuleGateFailed    = "gate-failed"    // a target failed the conformance gate
	RuleReadWarning   = "read-warning"   // a reader's warning about a dump
)

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
		parts = append(parts, fmt.Sprintf("%s (%s)", v, strings.Join(sortedKeys(targets), ", ")))
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

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

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
			len(hosts), strings.Join(sortedKeys(hosts), "; "))}}
}

// runFindings reports what run.json says went wrong: failed tool runs,
// an unfinished run, targets that failed the gate.
func runFindings(set *parse.Set) []Finding {
	var fs []Finding
	for _, r := range set.Runs {
		runJSON := filepath.Join(r.Path, "run.json")
		if r.Status != "" && r.Status != "complete" {
			fs = append(fs, Finding{Rule: RuleRunIncomplete, Level: LevelWarning, Run: r.ID,
				Message: fmt.Sprintf("the run's status is %q: some measurements may be missing; finish it with fairbench collect -resume %s", r.Status, r.Path),
				Dumps:   []string{runJSON}})
		}
		retaken := map[verdict.RecordKey]bool{} // a latency or sweep point is not a retake of the throughput cell
		for _, mr := range r.Measurements {
			if mr.ExitStatus == 0 && mr.Error == "" {
				retaken[verdict.KeyOfRecord(r.ID, &mr)] = true
			}
		}
		for _, mr := range r.Measurements {
			if mr.ExitStatus == 0 && mr.Error == "" || mr.HostSpeed != nil && mr.HostSpeed.Dropped {
				continue // a turn dropped for a slow host: host-slow reports it
			}
			f := Finding{Rule: RuleToolFailed, Level: LevelError, Run: r.ID, Target: mr.Target, Scenario: mr.Scenario,
				Message: fmt.Sprintf("%s rep %d%s: %s exited with status %d (%s): its numbers, if any, are not a full measurement and are not counted; read the dump's .stderr and run again (fairbench collect -resume)",
					warmupLabel(mr.Warmup), mr.Rep, phasePoint(&mr), mr.Tool, mr.ExitStatus, mr.Error),
				Dumps: []string{filepath.Join(r.Path, filepath.FromSlash(mr.Dump))}}
			if retaken[verdict.KeyOfRecord(r.ID, &mr)] {
				f.Level = LevelInfo
				f.Message = fmt.Sprintf("%s rep %d%s failed once (%s exited with status %d: %s) and was taken again; the failed dump is kept and not counted",
					warmupLabel(mr.Warmup), mr.Rep, phasePoint(&mr), mr.Tool, mr.ExitStatus, mr.Error)
			}
			fs = append(fs, f)
		}
	}
	for _, t := range set.Targets {
		if t.Conformance != "fail" {
			continue
		}
		fs = append(fs, Finding{Rule: RuleGateFailed, Level: LevelWarning, Run: t.Run, Target: t.Name,
			Message: fmt.Sprintf("the target failed the conformance gate in %s, which were not measured: it answers differently from its peers; see %s and fix the target",
				strings.Join(t.Failed, ", "), t.Transcript),
			Dumps: []string{t.Source.File}})
	}
	return fs
}

func warmupLabel(w bool) string {
	if w {
		return "warm-up"
	}
	return "measurement"
}

// readWarningFindings passes on what readers noticed. The sha256 warnings
// of runs whose integrity was checked are left out: Integrity reports them.
func readWarningFindings(set *parse.Set, checked map[string]bool) []Finding {
	var fs []Finding
	for _, m := range set.Measurements {
		for _, w := range m.Warnings {
			if checked[m.Run] && strings.Contains(w, "sha256") {
				continue
			}
			fs = append(fs, Finding{Rule: RuleReadWarning, Level: LevelWarning, Run: m.Run, Target: m.Target, Scenario: m.Scenario,
				Message: w, Dumps: []string{m.Source.File}})
		}
	}
	return fs
}
