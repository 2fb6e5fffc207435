package render

import (
	"fmt"
	"html/template"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/rundir"
	"github.com/fairbench/fairbench/parse/runjson"
	"github.com/fairbench/fairbench/parse/verdict"
)

// MethodologyPage says how the numbers were made: the host, the tools and
// their versions, the load each scenario got, the statistics, the suite,
// and the publisher's own words (content/methodology.md).
type MethodologyPage struct {
	Page
	Run  string
	Host []Fact
	// Topology says where the servers and the load generators ran: on the
	// one machine above, or on the SSH hosts in Hosts. Shards says which
	// shard of a merged run ran where, and when.
	Topology   string
	Hosts      []TopologyHost
	Shards     []ShardRow
	Tools      []Fact
	Isolation  []Fact
	Loads      []LoadRow
	Statistics []Fact
	// Resolving is each calibration run on show: the planted costs its
	// verdicts resolved (resolving.go); nil without one.
	Resolving []ResolvingView
	// Precision is what each run on show tells apart and how its rounds
	// were planned (run_resolving.go).
	Precision []PrecisionView
	// Suites are the suite files of the runs on show, linked where the
	// site publishes them (raw/<run>/suite.toml), never pasted: a suite is
	// hundreds of lines, the page a few screens.
	Suites []SuiteFile
	Prose  template.HTML
	NoRun  bool
}

// SuiteFile is the suite file of one run on show: the suite's name, the
// run, its file as the site publishes it, the file's sha256 and the
// command that collects it again.
type SuiteFile struct {
	Suite, Run string
	File       Link // "" Href when the run dir holds no suite.toml
	SHA256     string
	Collect    string // "fairbench collect -suite site/suites/go.toml -out results"; "" when the run does not name its file
}

// TopologyHost is one SSH host of a run: its roles, what it said of
// itself, and the versions of the tools asked on it.
type TopologyHost struct {
	Name, Roles string
	Facts       []Fact
}

// ShardRow is one shard of a merged run: the machine its collector ran
// on, the hosts that served and loaded, and when.
type ShardRow struct {
	Shard, Run, Collector, Server, Client string
	Start, Took, Status                   string
}

// LoadRow is how one scenario was loaded.
type LoadRow struct {
	Scenario                           Link
	Tool, Connections, Threads, Window string
	Reps, Warmups, Request             string
	Command                            string
}

func (m *model) methodologyPage() (*MethodologyPage, error) {
	p := &MethodologyPage{}
	p.Page = m.newPage("methodology", "methodology.html", "Methodology")
	prose, file, err := m.content("methodology.md")
	if err != nil {
		return nil, err
	}
	if p.Prose, err = Markdown([]byte(prose)); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if r := m.runInfo; r != nil {
		var ids []string
		for _, run := range m.runs {
			ids = append(ids, run.ID)
		}
		p.Run = strings.Join(ids, ", ")
		p.Host = hostFacts(r)
		p.Topology, p.Hosts = m.topology()
		p.Shards = m.shards()
		p.Tools = toolFacts(m.runs)
		if r.Isolation.ServerCPUs != "" || r.Isolation.ClientCPUs != "" {
			p.Isolation = []Fact{{Label: "server CPUs", Value: r.Isolation.ServerCPUs}, {Label: "client CPUs", Value: r.Isolation.ClientCPUs}}
		}
		p.Suites = m.suiteFiles()
	} else {
		p.NoRun = true
	}
	p.Loads = m.loads()
	th := m.th
	p.Resolving = m.resolving()
	p.Precision = m.precisionViews()
	p.Statistics = []Fact{
		{Label: "req/s", Value: "completed requests ÷ the measured window, the same for every tool (bombardier's and autocannon's own req/s are means of sampled rates: dump pages and results.json keep them as the tool's figure, tool_rps)"},
		{Label: "good req/s", Value: "2xx responses ÷ the window where the tool counts status classes (bombardier, autocannon); responses with a status below 400 where it counts only the failed ones (wrk); results.json's good_basis says which"},
		{Label: "centre", Value: "median of the repetitions; warm-ups never count"},
		{Label: "interval", Value: fmt.Sprintf("%s confidence interval of the median (order statistics, golang.org/x/perf/benchmath); below the size where one exists, the min–max of the repetitions, labelled so", intervalLevelLabel(th.Confidence))},
		{Label: "difference", Value: fmt.Sprintf("every pair of targets in one scenario of one run is one family, Holm-corrected at α=%.2f; a run measured in rounds (round r: every target's r-th repetition, in a random order) tests each pair on its own differences within rounds, a paired t-test (method %q in results.json), so the host's state a round shares leaves the comparison; in a family of 4 or more targets each pair's variance is moderated toward the family's (empirical Bayes, Smyth 2004), which lends it degrees of freedom where the pairs' variances agree, never more than the family's two-way fit holds, and never to a pair of a target noisier than the family or itself in the family's top 5%%; where the host speed probe timed every repetition, β times the probe's log difference at a round's two turns comes out first (method %q; β one slope per family, its uncertainty in each interval; pages print the geometric means' own ratio beside); dumps without known rounds get Welch's t-test on log throughput (%q); the ratio shown is of geometric means, with its interval at the level of the pair's Holm step: it covers that pair, not the page; nothing with n < %d", th.Alpha, verdict.MethodBlockedLog, verdict.MethodBlockedSpeed, verdict.MethodWelchLog, th.MinReps)},
		{Label: "noise floor", Value: fmt.Sprintf("a difference is claimed only when its interval clears the larger of %.0f%% and the run's systematic A/A difference (pooled over its scenarios, sampling noise aside); otherwise ~ (within noise floor)", th.Noise*100)},
		{Label: "equivalence", Value: fmt.Sprintf("a pair claimed neither faster nor slower is called equivalent (=) when two one-sided tests on the same model, Holm-corrected over the family at α=%.2f, put its ratio within ± the run's resolve (±%.0f%% unless its suite set another); otherwise it is unresolved at this run's noise (~)", th.Alpha, th.Resolve*100)},
		{Label: "precision", Value: "a suite is collected to a precision: after its repetitions, a scenario gets more rounds while the smallest difference its verdicts would claim with 80% power on average over its pairs (each tested as the verdicts test it), computed from the rounds' noise alone, is above the suite's resolve, until its budget is spent; stopping on the noise, never on the differences, keeps each test's false-claim rate"},
		{Label: "ranks", Value: "a range from the verdicts: 1 + the targets judged faster, to the number ranked − the targets judged slower; runs are ranked each within itself"},
		{Label: "spread", Value: fmt.Sprintf("robust CV (1.4826 × MAD ÷ median) above %.0f%% is a finding", th.MaxCV*100)},
	}
	return p, nil
}

// suiteFiles lists the suite file of every run on show, in the order the
// runs are.
func (m *model) suiteFiles() []SuiteFile {
	var out []SuiteFile
	for _, run := range m.runs {
		f := SuiteFile{Suite: run.Suite, Run: run.ID, File: Link{Text: "suite.toml"}, SHA256: shortHash(run.SuiteSHA256)}
		if run.Path != "" {
			if _, err := rundir.ReadFile(run.Path, "suite.toml", rundir.KindSuite); err == nil {
				f.File.Href = "raw/" + safePath(run.ID) + "/suite.toml"
			}
		}
		if base := suiteBase(run.SuiteFile); base != "" {
			f.Collect = "go run ./cmd/fairbench collect -suite " + base + " -out site/results"
		}
		out = append(out, f)
	}
	return out
}

// suiteBase is the suite file as a publisher's checkout names it: the
// path from its site/ folder on ("site/suites/go.toml") when it has one,
// else its base name; run.json may hold the collecting machine's absolute
// path, which a page never shows.
func suiteBase(file string) string {
	if file == "" {
		return ""
	}
	file = filepath.ToSlash(file)
	if i := strings.LastIndex(file, "/site/suites/"); i >= 0 {
		return file[i+1:]
	}
	if strings.HasPrefix(file, "site/suites/") {
		return file
	}
	return path.Base(file)
}

func hostFacts(r *parse.Run) []Fact {
	h := r.Facts
	facts := []Fact{
		{Label: "run", Value: r.ID},
		{Label: "started", Value: r.Start.UTC().Format(time.RFC3339)},
	}
	if r.End != nil {
		facts = append(facts, Fact{Label: "took", Value: r.End.Sub(r.Start).Round(time.Second).String()})
	}
	add := func(label, value string) {
		if value != "" && value != "0" {
			facts = append(facts, Fact{Label: label, Value: value})
		}
	}
	add("suite", r.Suite)
	add("suite sha256", r.SuiteSHA256)
	facts = append(facts, hardwareFacts(h)...)
	if len(h.LoadAvg) > 0 {
		var ls []string
		for _, l := range h.LoadAvg {
			ls = append(ls, fmt.Sprintf("%.2f", l))
		}
		add("load average at start", strings.Join(ls, " "))
	}
	add("shard", r.Shard)
	add("status", r.Status)
	return facts
}

// machineFacts are what a machine said of itself, as the methodology page
// lists them.
func machineFacts(h runjson.Facts) []Fact {
	var facts []Fact
	if h.Hostname != "" {
		facts = append(facts, Fact{Label: "host name", Value: h.Hostname})
	}
	return append(facts, hardwareFacts(h)...)
}

// hardwareFacts are a machine's CPU, memory, OS and kernel, those it said.
func hardwareFacts(h runjson.Facts) []Fact {
	var facts []Fact
	add := func(label, value string) {
		if value != "" && value != "0 / 0" {
			facts = append(facts, Fact{Label: label, Value: value})
		}
	}
	add("CPU", h.CPUModel)
	add("cores / threads", fmt.Sprintf("%d / %d", h.Cores, h.Threads))
	add("CPU topology", topologySummary(h))
	if h.MemoryBytes > 0 {
		add("memory", Bytes(h.MemoryBytes))
	}
	add("OS", h.OS)
	add("kernel", h.Kernel)
	add("architecture", h.Arch)
	add("CPU governor", h.Governor)
	return facts
}

// topology says which machines served and which loaded, from the
// measurements of the runs on show, and lists the runs' SSH hosts.
func (m *model) topology() (string, []TopologyHost) {
	servers, clients := map[string]bool{}, map[string]bool{}
	for _, meas := range m.set.Measurements {
		if m.primary[meas.Run] && meas.Run != "" {
			if meas.ServerHost != "" {
				servers[meas.ServerHost] = true
			}
			if meas.ClientHost != "" {
				clients[meas.ClientHost] = true
			}
		}
	}
	var hosts []TopologyHost
	seen := map[string]bool{}
	for _, r := range m.runs {
		for _, h := range r.Hosts {
			key := fmt.Sprint(h.Name, "\x00", h.Destination, "\x00", machineFacts(h.Facts))
			if seen[key] {
				continue
			}
			seen[key] = true
			th := TopologyHost{Name: h.Name, Roles: strings.Join(h.Roles, ", ")}
			if h.Destination != "" {
				th.Facts = append(th.Facts, Fact{Label: "reached with", Value: "ssh " + h.Destination})
			}
			th.Facts = append(th.Facts, machineFacts(h.Facts)...)
			for _, name := range slices.Sorted(maps.Keys(h.Tools)) {
				v := h.Tools[name]
				th.Facts = append(th.Facts, Fact{Label: name, Value: v.Version, Title: "asked on " + h.Name + " with: " + argv(v.Asked)})
			}
			hosts = append(hosts, th)
		}
	}
	if len(hosts) == 0 {
		// No SSH host: each run's servers and load generator ran on the
		// machine that collected it.
		return "The servers and the load generator shared one machine, the host above; the isolation below says which CPUs each could use.", nil
	}
	return fmt.Sprintf("The servers ran on %s; the load generator on %s. Numbers taken across a network include it: compare them only with numbers from the same hosts.",
		orNone(strings.Join(slices.Sorted(maps.Keys(servers)), ", ")), orNone(strings.Join(slices.Sorted(maps.Keys(clients)), ", "))), hosts
}

// shards lists the shards of the merged runs on show: the collector's
// machine, the hosts its measurements name, and when it ran.
func (m *model) shards() []ShardRow {
	type hostsOf struct{ server, client map[string]bool }
	used := map[[2]string]*hostsOf{} // run, shard
	for _, meas := range m.set.Measurements {
		if meas.Shard == "" || !m.primary[meas.Run] {
			continue
		}
		k := [2]string{meas.Run, meas.Shard}
		if used[k] == nil {
			used[k] = &hostsOf{map[string]bool{}, map[string]bool{}}
		}
		if meas.ServerHost != "" {
			used[k].server[meas.ServerHost] = true
		}
		if meas.ClientHost != "" {
			used[k].client[meas.ClientHost] = true
		}
	}
	var rows []ShardRow
	for _, r := range m.runs {
		for _, sh := range r.Merged {
			row := ShardRow{Shard: sh.Shard, Run: sh.ID, Collector: sh.Facts.Hostname, Status: sh.Status,
				Start: sh.Start.UTC().Format(time.RFC3339), Server: "–", Client: "–"}
			if sh.End != nil {
				row.Took = sh.End.Sub(sh.Start).Round(time.Second).String()
			}
			if h := used[[2]string{r.ID, sh.Shard}]; h != nil {
				row.Server = orNone(strings.Join(slices.Sorted(maps.Keys(h.server)), ", "))
				row.Client = orNone(strings.Join(slices.Sorted(maps.Keys(h.client)), ", "))
			}
			rows = append(rows, row)
		}
	}
	return rows
}

// loads describes each scenario's load from its measurements.
func (m *model) loads() []LoadRow {
	var rows []LoadRow
	for _, s := range m.scenarios {
		row := LoadRow{Scenario: Link{Href: m.links.Scenario(s), Text: s}}
		tools, conns, threads, windows := map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
		reps, warm := 0, 0
		for _, c := range m.scenarioCells(s) {
			for _, r := range c.Reps {
				reps++
				tools[strings.TrimSpace(r.Tool+" "+r.ToolVersion)] = true
				conns[fmt.Sprint(r.Connections)] = true
				if r.Threads > 0 {
					threads[fmt.Sprint(r.Threads)] = true
				}
				if r.Window > 0 {
					windows[r.Window.String()] = true
				}
				if row.Command == "" {
					row.Command = argv(r.Argv)
				}
			}
		}
		for _, meas := range m.set.Measurements {
			if meas.Warmup && m.primary[meas.Run] && meas.Scenario == s && meas.Phase == parse.PhaseThroughput {
				warm++
			}
		}
		row.Request, _ = describeLoad(m.scenarioCells(s))
		row.Tool = joinSorted(tools)
		row.Connections = joinSorted(conns)
		row.Threads = joinSorted(threads)
		row.Window = joinSorted(windows)
		row.Reps = fmt.Sprint(reps)
		row.Warmups = fmt.Sprint(warm)
		rows = append(rows, row)
	}
	return rows
}

func joinSorted(set map[string]bool) string {
	keys := slices.Sorted(maps.Keys(set))
	if len(keys) == 0 {
		return "–"
	}
	return strings.Join(keys, ", ")
}

// toolFacts lists every tool and runtime the runs on show asked for its
// version; a tool whose runs disagree shows each version.
func toolFacts(runs []*parse.Run) []Fact {
	versions := map[string][]string{}
	asked := map[string]string{}
	for _, r := range runs {
		for name, v := range r.Tools {
			if !slices.Contains(versions[name], v.Version) {
				versions[name] = append(versions[name], v.Version)
			}
			if asked[name] == "" {
				asked[name] = argv(v.Asked)
			}
		}
	}
	var facts []Fact
	for _, name := range slices.Sorted(maps.Keys(versions)) {
		facts = append(facts, Fact{Label: name, Value: strings.Join(versions[name], " / "), Title: "asked with: " + asked[name]})
	}
	return facts
}
