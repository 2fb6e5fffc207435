package audit

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// Rule is one audit rule: the id its findings carry, the levels they can
// have, and what it finds and what to do about it.
type Rule struct {
	ID string
	// Title is the finding in a reader's words, a few of them ("load
	// generator at its limit"): pages show it where they show the ID.
	Title  string
	Levels []Level // the levels its findings can carry, lowest first
	// Doc is what the rule finds and what to do about it, in one or two
	// plain sentences.
	Doc string
	// Table marks a rule of the published-table audit (AuditTable), which
	// Audit does not run.
	Table bool
	// check returns the findings of this rule, and of the rules after it
	// that are found in the same pass over the data and so have no check
	// of their own. It is nil for those, and for the table rules.
	check func(*input) []Finding
}

// input is what the checks read: the set, its cells and the thresholds,
// and the indexes several checks share.
type input struct {
	set       *parse.Set
	opts      AuditOptions
	th        verdict.Thresholds // opts.Thresholds, or the defaults
	cells     []*verdict.Cell
	runs      map[string]*parse.Run // by ID
	scenarios map[string]int        // run ID → its scenarios with cells
	checked   map[string]bool       // runs whose dumps Integrity re-reads
	decided   *verdict.Decided      // req/s verdicts, made on first use
}

// verdicts are the set's req/s verdicts, decided once for every rule.
func (in *input) verdicts() *verdict.Decided {
	if in.decided == nil {
		in.decided = verdict.DecideOnce(in.set, in.cells, in.cells, verdict.MetricRPS, verdict.DecideOptions{Thresholds: in.th, AAPairs: in.opts.Pairs})
	}
	return in.decided
}

func newInput(set *parse.Set, opts AuditOptions) *input {
	in := &input{set: set, opts: opts, th: opts.Thresholds,
		runs: map[string]*parse.Run{}, scenarios: map[string]int{}, checked: map[string]bool{}}
	if in.th == (verdict.Thresholds{}) {
		in.th = verdict.DefaultThresholds
	}
	in.cells = verdict.Cells(set, in.th)
	for _, r := range set.Runs {
		in.runs[r.ID] = r
		if !opts.NoIntegrity && r.Path != "" {
			in.checked[r.ID] = true
		}
	}
	for _, g := range verdict.GroupByScenario(in.cells) {
		in.scenarios[g[0].Run]++
	}
	return in
}

// eachCell runs rules that look at one cell on every cell, in order.
func (in *input) eachCell(rules func(*verdict.Cell, verdict.Thresholds) []Finding) []Finding {
	var fs []Finding
	for _, c := range in.cells {
		fs = append(fs, rules(c, in.th)...)
	}
	return fs
}

// perCell is eachCell for a rule with at most one finding per cell.
func (in *input) perCell(rule func(*verdict.Cell, verdict.Thresholds) (Finding, bool)) []Finding {
	return in.eachCell(func(c *verdict.Cell, th verdict.Thresholds) []Finding {
		if f, ok := rule(c, th); ok {
			return []Finding{f}
		}
		return nil
	})
}

// Rules returns every rule, in the order Audit runs their checks (a rule
// found with another follows it), then the rules of the published-table
// audit. The slice is a copy.
func Rules() []Rule { return slices.Clone(rules) }

// RuleByID returns the rule with id, and whether there is one.
func RuleByID(id string) (Rule, bool) {
	i := slices.IndexFunc(rules, func(r Rule) bool { return r.ID == id })
	if i < 0 {
		return Rule{}, false
	}
	return rules[i], true
}

var (
	info         = []Level{LevelInfo}
	warning      = []Level{LevelWarning}
	errorOnly    = []Level{LevelError}
	infoWarning  = []Level{LevelInfo, LevelWarning}
	infoError    = []Level{LevelInfo, LevelError}
	warningError = []Level{LevelWarning, LevelError}
	anyLevel     = []Level{LevelInfo, LevelWarning, LevelError}
)

// rules is the registry. Its order is the order Audit runs the checks in;
// findings are sorted afterwards (SortFindings), so the order matters only
// among findings of one rule, which keep the order their checks made them
// in.
var rules = []Rule{
	{ID: RuleTooFewReps, Title: "too few repetitions", Levels: warning,
		Doc:   "A cell has fewer repetitions than the threshold (MinReps), so its noise is unknown and no difference with it can be claimed. Run more repetitions.",
		check: func(in *input) []Finding { return in.perCell(tooFewReps) }},
	{ID: RuleNoisyCell, Title: "one target noisy", Levels: warning,
		Doc:   "One target's repetitions spread more than the threshold (robust CV above MaxCV) while its scenario's other targets are steadier: the target is noisy on its own. Lengthen the duration or run more repetitions.",
		check: noisyFindings},
	{ID: RuleNoisyScenario, Title: "noisy scenario", Levels: warning,
		Doc: "Most targets of a scenario are noisy (their median robust CV is above MaxCV), so the host is the likely cause; its noisy cells are named in it, and a run where most scenarios are noisy gets one finding. Quiet the host: performance governor, pinning, a fresh server per repetition, no other load."},
	{ID: RuleResponseSize, Title: "response size changed", Levels: warning,
		Doc:   "Bytes per response differ across a cell's repetitions, so the target did not send the same response every time. Check the responses with the gate and fix the target.",
		check: func(in *input) []Finding { return in.perCell(responseSize) }},
	{ID: RuleNon2xx, Title: "error responses", Levels: warningError,
		Doc:   "Responses other than 2xx or 3xx; an error when they are more than MaxErrorShare of the requests. Check the gate transcript and the server's log, and fix the target.",
		check: func(in *input) []Finding { return in.eachCell(errorFindings) }},
	{ID: RuleSocketErrors, Title: "connection errors", Levels: warningError,
		Doc: "Requests that failed at the socket (connect, read or write): the server or the host ran out of something. Raise the file-descriptor and backlog limits, or lower the connections."},
	{ID: RuleTimeouts, Title: "timed-out requests", Levels: warningError,
		Doc: "Requests that timed out: their latency is missing from the percentiles, so the tail looks better than it was. Lower the load or raise the tool's timeout, and report the timeouts beside the latency."},
	{ID: RuleNoRequests, Title: "no requests served", Levels: errorOnly,
		Doc:   "A cell none of whose repetitions completed a request: the target never answered under load, so it has no number. Read the dumps' errors and the server's log, fix the target and measure again.",
		check: func(in *input) []Finding { return in.perCell(noRequests) }},
	{ID: RuleErrorsAsThroughput, Title: "errors counted as throughput", Levels: errorOnly,
		Doc:   "The tool's req/s is above the good responses per second by more than the noise threshold: it counts failed responses as throughput. Publish good responses per second, or fix the errors first.",
		check: func(in *input) []Finding { return in.perCell(errorsAsThroughput) }},
	{ID: RuleTailSamples, Title: "too few samples for the tail", Levels: warning,
		Doc:   "A latency percentile with fewer than MinTailSamples samples beyond it, in a cell or a latency-phase point: the value is one or two slow requests. Drop that percentile or run longer.",
		check: func(in *input) []Finding { return in.eachCell(latencyFindings) }},
	{ID: RuleSlowFirstRep, Title: "first repetition slower", Levels: warning,
		Doc:   "A cell's first repetition ran well below the others, standing apart from their spread: the server was not warm yet. Lengthen the warm-up.",
		check: func(in *input) []Finding { return firstRepFindings(in.runs, in.cells, in.th) }},
	{ID: RuleHostFirstRep, Title: "host slower at the start", Levels: warning,
		Doc: "Repetition 1 was the slowest in more of a run's cells than chance allows: the host was slow at the start of the run, not one target's warm-up. Quiet the host, or discard a first round of every target."},
	{ID: RuleStillWarming, Title: "servers still warming", Levels: warning,
		Doc:   "A collect takes every repetition on a fresh server process, so each window it counts is a process's first; in the run's noise pilots, which keep two processes of one program alive for twelve windows, the first windows ran well below the later ones (a one-sided t-test at α over at least two pilots): the warm-up ended before the program was warm, so the numbers are of servers still warming, and programs that warm at different speeds are compared unequally. Lengthen [load] warmup until a first window reaches the later ones.",
		check: func(in *input) []Finding { return warmingFindings(in.set, in.th) }},
	{ID: RuleDrift, Title: "speed drifted during the run", Levels: warning,
		Doc:   "Req/s rose or fell at every repetition in more of a run's cells than chance gives: the host or the servers drift over the run (heat, frequency scaling, a leak). Quiet the host and interleave the targets.",
		check: func(in *input) []Finding { return driftFindings(in.runs, in.cells, in.th) }},
	{ID: RuleClosedLoop, Title: "latency under a closed loop", Levels: info,
		Doc:   "A run's latency is closed-loop, so its tail percentiles are understated (coordinated omission). For tail claims, read the latency phase's constant-rate numbers, or measure at a constant rate.",
		check: func(in *input) []Finding { return closedLoopFindings(in.cells, openCells(in.set)) }},
	{ID: RuleAchievedBelowOffered, Title: "served less than the rate offered", Levels: warning,
		Doc:   "A latency-phase point's achieved rate fell below the offered one, or its requests went out late, with who fell behind: the client (its latency is then not the server's) or the target. Give the load tool more CPUs or workers, or lower the rate.",
		check: func(in *input) []Finding { return openModelFindings(in.set, in.th) }},
	{ID: RuleErrorsAtRate, Title: "errors at the offered rates", Levels: warningError,
		Doc: "Failed requests at the latency phase's offered rates, from the lowest rate where they start: the latency there mixes answers and failures. Report that rate beside the latency, and fix the target or lower the rates."},
	{ID: RuleClientCeiling, Title: "load generator at its limit", Levels: infoWarning,
		Doc:   "What the calibration before a scenario's latency points found: the client's own CPU set the ceiling rate, or the target held it back; a warning when points were left out for the client's limit. Give the load tool more CPUs (or more workers) to measure them.",
		check: func(in *input) []Finding { return ceilingFindings(in.set, in.th) }},
	{ID: RuleSweepPoints, Title: "too few load points", Levels: warning,
		Doc:   "A saturation curve measured on fewer than four connection counts, or with one repetition at some count, cannot show its knee. Sweep more counts, each repeated.",
		check: func(in *input) []Finding { return sweepFindings(in.set) }},
	{ID: RuleOutlierRep, Title: "an outlying repetition", Levels: warning,
		Doc:   "One repetition lies far from the others of its cell, beyond their spread and the scenario's noise: a stall or a burst. Read its dump, and run the cell again.",
		check: func(in *input) []Finding { return outlierFindings(in.cells, in.th) }},
	{ID: RuleProcess, Title: "one server process ran off", Levels: warning,
		Doc:   "In a collected run, one repetition of a target (one server process) ran slower or faster on every scenario than the target's other repetitions allow. Look at what that process did, and run more repetitions so one process weighs less.",
		check: func(in *input) []Finding { return processFindings(in.set, in.cells, in.opts.Pairs, in.th) }},
	{ID: RuleHostPair, Title: "measured on other machines", Levels: warning,
		Doc:   "Targets of one scenario, or one target's repetitions, ran on different server and client machines, so their numbers compare machines too; the verdicts judge each host pair apart, and a target on several pairs against none. Measure every target of a comparison on one host pair.",
		check: func(in *input) []Finding { return hostPairFindings(in.cells) }},
	{ID: RuleNodeEnv, Title: "JavaScript not in production mode", Levels: warning,
		Doc:   "A Node or Bun target ran without NODE_ENV=production, so its framework behaved as in development (Express answers an error with a stack trace, view caches off): a server its users do not deploy. Set env = { NODE_ENV = \"production\" } on the target.",
		check: func(in *input) []Finding { return nodeEnvFindings(in.set) }},
	{ID: RuleNotInterleaved, Title: "targets not interleaved", Levels: warning,
		Doc:   "A target's repetitions ran back to back, so a slow spell of the host lands on it alone (needs the run order). Interleave the targets across repetitions, as fairbench collect does.",
		check: func(in *input) []Finding { return interleaveFindings(in.set) }},
	{ID: RuleClientSaturated, Title: "load generator saturated", Levels: warning,
		Doc:   "The load generator kept nearly all the CPUs it could use busy, so the number is a lower bound of the target's capacity; folded to one finding per run or target where all its cells show it. Give the client more CPUs, or use a lighter load generator.",
		check: func(in *input) []Finding { return saturationFindings(in.set, in.cells, in.th) }},
	{ID: RuleServerNotSaturated, Title: "server not fully loaded", Levels: infoWarning,
		Doc: "The server kept well below its CPUs busy, so the number describes the load generator or the network more than the framework; a warning when the client was saturated too. Add connections or client CPUs, or give the server one CPU per thread it runs."},
	{ID: RuleMixedSettings, Title: "mixes load settings", Levels: errorOnly,
		Doc:   "Load settings (tool, connections, threads, pipelining, duration, rate) differ within one scenario, so its numbers cannot be compared. Measure every target with the same settings.",
		check: func(in *input) []Finding { return MixedSettings(in.set.Measurements) }},
	{ID: RuleMixedHosts, Title: "mixes machines", Levels: warning,
		Doc:   "The set's runs come from different hosts, whose numbers are not comparable. Compare targets only within one run.",
		check: func(in *input) []Finding { return mixedHostFindings(in.set.Runs) }},
	{ID: RuleCompareRequest, Title: "the two runs sent different requests", Levels: errorOnly,
		Doc: "fairbench compare only: a target's scenario was sent a different request in the two runs (the method and path the dumps record, or the scenario's request in each run's suite), so that row is shown but not compared. Compare runs of one suite, or rename a scenario whose request changed."},
	{ID: RuleCompareSuites, Title: "the two runs measured different suites", Levels: warning,
		Doc: "fairbench compare only: the two runs ran different suites (suite_sha256) and a suite could not be read, so a scenario of one name may send different headers or a different body, which the dumps do not record. Compare runs of one suite, or check the scenarios' requests by hand."},
	{ID: RuleRunIncomplete, Title: "run not finished", Levels: warning,
		Doc:   "A run whose status in run.json is not complete: some measurements may be missing. Finish it with fairbench collect -resume.",
		check: func(in *input) []Finding { return runIncompleteFindings(in.set) }},
	{ID: RuleToolFailed, Title: "load generator failed", Levels: infoError,
		Doc:   "A measurement whose tool exited non-zero or failed, as run.json records: its numbers are not counted; a note when it was taken again. Read the dump's .stderr and run again.",
		check: func(in *input) []Finding { return toolFailedFindings(in.set) }},
	{ID: RuleGateFailed, Title: "wrong answers: not measured", Levels: warning,
		Doc:   "A target failed the conformance gate, so the scenarios it failed were not measured. Read its transcript and fix the target.",
		check: func(in *input) []Finding { return gateFailedFindings(in.set) }},
	{ID: RuleGateMissing, Title: "answers not checked", Levels: errorOnly,
		Doc:   "A measured target of a collected run has no gate record in run.json that passed it on the scenario, so nothing shows it answered the request its peers answered; it is not ranked. Run fairbench verify on it, or collect again.",
		check: func(in *input) []Finding { return in.perCell(gateMissing) }},
	{ID: RulePinning, Title: "CPU pinning", Levels: anyLevel,
		Doc:   "What collect's pinning audit recorded: server and client sharing a core, a server across L3 domains or on E-cores, an offline CPU, no pinning. Pin server and client to separate physical cores.",
		check: func(in *input) []Finding { return pinningFindings(in.set) }},
	{ID: RuleCPUGovernor, Title: "CPU frequency governor", Levels: warning,
		Doc: "A cpufreq governor other than performance, so the clock follows the load. Set the performance governor for the run."},
	{ID: RuleCPUBoost, Title: "CPU boost", Levels: warning,
		Doc: "CPU boost (turbo) was on, so the clock follows temperature and how many cores are busy and drifts during a run. Turn boost off for the run."},
	{ID: RuleLoadAverage, Title: "host busy while measuring", Levels: warning,
		Doc: "The load average was high when the run started, so other work may have run on the benchmark's CPUs (not reported where the run measured interference itself). Stop that work and start when the host is idle."},
	{ID: RuleCPUInterference, Title: "other work on the pinned CPUs", Levels: warning,
		Doc:   "Other processes, or the hypervisor's steal, took more than a share of the server's or the client's CPUs during the measured windows. Stop or move that load, or run on dedicated CPUs, and run again.",
		check: func(in *input) []Finding { return interferenceFindings(in.set, in.th) }},
	{ID: RuleHostSlow, Title: "host ran slow", Levels: infoWarning,
		Doc:   "The host speed probe (fixed CPU work timed around each turn) ran slow around some turns, so those cells come from a slower machine; a note names the turns the collector took again. Collect again when the host is quiet, with retake_slow set.",
		check: func(in *input) []Finding { return hostSpeedFindings(in.set, in.th) }},
	{ID: RuleAAPair, Title: "twins differ", Levels: warningError,
		Doc:   "The A/A pair (one program under two names) differs by more than the noise threshold, which raises the scenario's noise floor, or was not measured. Find the cause (other load, CPU placement, frequency scaling) and run again.",
		check: func(in *input) []Finding { return aaFindings(in.set.Runs, in.cells, in.opts.Pairs, in.th) }},
	{ID: RulePower, Title: "what this run can tell apart", Levels: info,
		Doc: "The smallest difference each scenario of a run could claim, and about how many repetitions 5% and 10% need. Run more repetitions, or quiet the host, to resolve smaller differences.",
		check: func(in *input) []Finding {
			return powerFindings(in.verdicts())
		}},
	{ID: RuleResolving, Title: "what the planted differences showed", Levels: anyLevel,
		Doc:   "A calibration run (targets with planted_on: one server and copies of it with a known cost per request) states the smallest planted cost its verdicts resolved; a run of the same host with fewer repetitions or shorter windows is warned that it can miss differences of that size. An error: a copy claimed faster than its base, or twins claimed apart. A warning: a larger planted cost missed than one resolved (the verdicts are not monotone in the cost, so they bound nothing), or a planted copy not measured against its base. Collect at the calibration's settings or above.",
		check: func(in *input) []Finding { return resolvingFindings(in.set, in.verdicts()) }},
	{ID: RuleDumpMissing, Title: "raw output missing", Levels: errorOnly,
		Doc: "A dump run.json lists is missing or cannot be read, so its numbers cannot be checked. Restore it from a copy, or measure again.",
		check: func(in *input) []Finding {
			var fs []Finding
			for _, r := range in.set.Runs {
				if in.checked[r.ID] {
					fs = append(fs, Integrity(r)...)
				}
			}
			return fs
		}},
	{ID: RuleDumpChanged, Title: "raw output changed since collected", Levels: errorOnly,
		Doc: "A dump whose sha256 differs from the one run.json recorded: it changed after the tool wrote it. Restore the original, or measure again."},
	{ID: RuleDumpUnverified, Title: "raw output without a checksum", Levels: warning,
		Doc: "Dumps for which run.json records no sha256, so a change after they were written would go unnoticed. Collect again; collect records a sha256 for every dump."},
	{ID: RuleFileRefused, Title: "a file was refused", Levels: errorOnly,
		Doc: "A file of a run dir the reader refuses (a link out of the run dir, a special file, a file over its limit), so it is neither shown nor published. Make it a regular file inside the run dir."},
	{ID: RuleDumpOrphan, Title: "raw output without a measurement", Levels: info,
		Doc: "A dump the collector stored but did not record before it stopped; it is kept and not counted, as the measurement was taken again. Nothing to do."},
	{ID: RuleDumpExtra, Title: "raw output not in the run's record", Levels: warning,
		Doc: "A file under dumps/ that run.json does not list, so nothing says how it was made. Remove it, or finish the run with fairbench collect -resume."},
	{ID: RuleReadWarning, Title: "read with a warning", Levels: warning,
		Doc:   "A reader's warning about a dump, passed on (sha256 warnings aside where the run's dumps were checked). Read the warning and the dump.",
		check: func(in *input) []Finding { return readWarningFindings(in.set, in.checked) }},
	{ID: RuleInputUnreadable, Title: "a file could not be read", Levels: errorOnly,
		Doc:   "A file met in a folder or a run dir that could not be read: empty (as a framework that failed leaves it), not a dump, or refused. Its numbers are missing from the audit. Remove the file, or replace it with the tool's whole output.",
		check: inputFindings},
	{ID: RuleInputWarning, Title: "a file read with a warning", Levels: warning,
		Doc: "A note about the input that changes no number: a run met twice (named twice, copied, or under a rendered site's raw/) with the same run.json, read once; a run.json aa_pair naming one target twice, ignored. Name one copy only; name two targets in aa_pair."},
	{ID: RuleSettingsUnknown, Title: "load settings unknown", Levels: warning,
		Doc:   "A dump does not say a load setting a comparison depends on (URL, connections, pipelining, duration), as when a post pastes a tool's tables alone. Publish the tool's whole output with its command line.",
		check: func(in *input) []Finding { return pastedFindings(in.set) }},

	{ID: RuleTableMismatch, Title: "table differs from its raw output", Levels: errorOnly, Table: true,
		Doc: "A number in a published table is not what the dumps say. Correct the table, or publish the dumps it was made from."},
	{ID: RuleTableRowWithoutDump, Title: "table row without raw output", Levels: errorOnly, Table: true,
		Doc: "A table row whose target has no dump at all. Publish its dumps, or drop the row."},
	{ID: RuleTableNumberWithoutDump, Title: "table number without raw output", Levels: errorOnly, Table: true,
		Doc: "A table number whose target and scenario have no dump. Publish the dump, or drop the number."},
	{ID: RuleTableDumpWithoutRow, Title: "raw output missing from the table", Levels: warning, Table: true,
		Doc: "A measured target that the table leaves out. Add its row, or say why it is left out."},
	{ID: RuleTableRowOrder, Title: "table order not supported", Levels: errorOnly, Table: true,
		Doc: "The table's rows follow the order of none of its number columns (nor their mean, nor the names, nor these within each runtime): its first row reads as the fastest while it is not. Sort the rows by one column."},
	{ID: RuleTableUnchecked, Title: "table not checked", Levels: info, Table: true,
		Doc: "A table column no dump could check. Check it by hand."},
	{ID: RuleTableAveragedPercentile, Title: "percentiles averaged", Levels: warning, Table: true,
		Doc: "A latency percentile in the table is the mean of the repetitions' percentiles, which is not a percentile of any distribution. Publish the median of the repetitions, or the percentile of all requests."},
}

// WriteRulesMarkdown writes the rules as markdown, in registry order: the
// audit's rules, then the published-table audit's, each with its id, the
// levels it can raise and its Doc. `fairbench help rules` prints it.
func WriteRulesMarkdown(w io.Writer) error {
	var b strings.Builder
	b.WriteString("# Audit rules\n\nEach finding names one of these rules and has a level: an error means a number or a claim is wrong as published, a warning that it holds only with the caveat, info is context. `fairbench audit` exits 1 on any error.\n")
	section := ""
	for _, r := range rules {
		s := "## Rules of the audit\n"
		if r.Table {
			s = "## Rules of the published-table audit\n"
		}
		if s != section {
			section = s
			b.WriteString("\n" + s)
		}
		levels := make([]string, len(r.Levels))
		for i, l := range r.Levels {
			levels[i] = l.String()
		}
		label := "Level"
		if len(levels) > 1 {
			label = "Levels"
		}
		fmt.Fprintf(&b, "\n### %s\n\n%s. %s: %s.\n\n%s\n", r.ID, upperFirst(r.Title), label, strings.Join(levels, ", "), r.Doc)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// upperFirst is s with its first letter upper-case, for a title said as
// a sentence.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
