package runjson

import "time"

// SchemaVersion is the run.json schema this package writes and the newest
// it reads; every earlier version is read too.
const SchemaVersion = 1

// Run status values in Manifest.Status.
const (
	StatusRunning     = "running"
	StatusComplete    = "complete"
	StatusInterrupted = "interrupted"
	StatusFailed      = "failed"
)

// Manifest is run.json: everything about a run except the dumps themselves.
// Collect rewrites it atomically as the run advances.
type Manifest struct {
	Schema      int         `json:"schema"`
	ID          string      `json:"id"`
	Suite       string      `json:"suite"`
	SuiteFile   string      `json:"suite_file,omitempty"` // where the suite was read from
	SuiteSHA256 string      `json:"suite_sha256"`
	Status      string      `json:"status"`
	Start       time.Time   `json:"start"`
	End         *time.Time  `json:"end,omitempty"`
	Resumed     []time.Time `json:"resumed,omitempty"` // when each -resume began
	// Facts are what the machine that ran the collector said of itself.
	Facts     Facts              `json:"host"`
	Tools     map[string]Version `json:"tools"` // load tools, runtimes and services, by name
	Isolation Isolation          `json:"isolation"`
	// AAPair names two targets of the suite that are one program under two
	// names (the suite's aa_pair): their difference is the run's noise.
	AAPair []string `json:"aa_pair,omitempty"`
	// AAPairs are the suite's aa_pairs where it set them: a pair per
	// runtime, the first of them AAPair again. Each target is
	// read against the pair of its own runtime across runs (history's
	// gate); the noise floor of a run pools every pair (verdict.Floor).
	AAPairs [][]string `json:"aa_pairs,omitempty"`
	// Planted maps each calibration target (the suite's planted_on) to the
	// target it is plus a known cost per request.
	Planted map[string]string `json:"planted,omitempty"`
	// Shard is "I/N" when the run took the I-th of N deterministic shares
	// of the suite's targets (collect -shard).
	Shard string `json:"shard,omitempty"`
	// Schedule is the order of the targets' turns in each round; nil in
	// runs written before it, whose rounds rotated.
	Schedule *Schedule `json:"schedule,omitempty"`
	// Precision is how the run was collected to a precision; nil for a
	// run collected to a fixed count of rounds.
	Precision *Precision `json:"precision,omitempty"`
	// Hosts are the SSH hosts the run used, with what each said of itself.
	// Empty: everything ran on the collector's machine.
	Hosts []Host `json:"hosts,omitempty"`
	// Merged lists the shard runs a merged run was made of (fairbench merge).
	Merged       []Shard       `json:"merged,omitempty"`
	Services     []Service     `json:"services,omitempty"`
	Targets      []Target      `json:"targets"`
	Measurements []Measurement `json:"measurements"`
	// Orphans are dumps found on disk on resume that run.json did not list
	// (a crash between storing and recording): kept, never measurements.
	Orphans []Orphan `json:"orphans,omitempty"`
	// Leftovers are the process groups fairbench started on SSH hosts and
	// has not seen end: the server running now, or one left when its host
	// was out of reach (or the collector died). The next connection to the
	// host, or -resume, ends them over a fresh connection.
	Leftovers []Leftover `json:"leftovers,omitempty"`
	// NotOffered are the latency points the run did not take because
	// their offered rate was above what the client was measured to send
	// on the scenario (a "ceiling" measurement): each once, repetitions
	// aside.
	NotOffered []NotOffered `json:"not_offered,omitempty"`
	Errors     []string     `json:"errors,omitempty"`
}

// NotOffered is a latency point left out because the load tool could not
// be relied on to send its rate: Rate is above Limit, the share of the
// client's measured ceiling on the scenario that a point may ask for.
type NotOffered struct {
	Target   string `json:"target"`
	Scenario string `json:"scenario"`
	// Rate is the rate the point would have offered, req/s; RateFraction
	// and Capacity say how it was set, as in Measurement (0 for a fixed
	// rate).
	Rate         float64 `json:"rate"`
	RateFraction float64 `json:"rate_fraction,omitempty"`
	Capacity     float64 `json:"capacity,omitempty"`
	// Ceiling is the rate the client sent at when sending as fast as it
	// could (the ceiling measurement's send_rate), req/s; ClientBound says
	// whether its own CPUs were what held it there, else the ceiling is
	// "at least" that. Limit is the highest rate a point was offered.
	Ceiling     float64 `json:"ceiling"`
	ClientBound bool    `json:"client_bound,omitempty"`
	Limit       float64 `json:"limit"`
	// Calibration is the dump of the ceiling measurement.
	Calibration string `json:"calibration,omitempty"`
}

// Facts are what a machine says about itself, asked at the start of a run.
// A fact that could not be read is left empty.
type Facts struct {
	Hostname    string    `json:"hostname"`
	CPUModel    string    `json:"cpu_model"`
	Cores       int       `json:"cores"`   // physical cores
	Threads     int       `json:"threads"` // logical CPUs
	MemoryBytes int64     `json:"memory_bytes"`
	Kernel      string    `json:"kernel"`
	OS          string    `json:"os"`
	Arch        string    `json:"arch"`
	Governor    string    `json:"governor,omitempty"`
	LoadAvg     []float64 `json:"loadavg,omitempty"` // 1, 5 and 15 minutes, at the start
	// Pinning is the CPU topology, and the audit of the run's pinning and
	// CPU state on it; nil where it was not read (SSH hosts, older runs).
	Pinning *Pinning `json:"pinning,omitempty"`
}

// Host is an SSH host of the run: its entry's name, destination and roles,
// and what it said of itself.
type Host struct {
	Name        string             `json:"name"`
	Destination string             `json:"destination"` // as given to ssh, with the port when set
	Roles       []string           `json:"roles"`
	Facts       Facts              `json:"facts"`
	Tools       map[string]Version `json:"tools,omitempty"` // asked on this host
}

// Isolation pins server and client to CPU lists (taskset -c syntax, "" for
// none). It is the suite's [isolation] table as well as run.json's record
// of it.
type Isolation struct {
	ServerCPUs string `toml:"server_cpus" json:"server_cpus"`
	ClientCPUs string `toml:"client_cpus" json:"client_cpus"`
	// RetakeSlow is the slowdown of the host speed probe (HostSpeed) at
	// which a target's turn is taken again at once, in its own round,
	// e.g. 1.25: the probe around the turn ran 1.25 times as long as the
	// fastest it ran in the run. 0: turns are probed, never taken again.
	RetakeSlow float64 `toml:"retake_slow" json:"retake_slow,omitempty"`
}

// Leftover is a process group started on an SSH host.
type Leftover struct {
	Host  string `json:"host"` // Host.Name
	Group int    `json:"process_group"`
	What  string `json:"what"` // the target, or "load tool"
	// BootID (the host's /proc/sys/kernel/random/boot_id) and Start (the
	// group leader's start time, in clock ticks after boot) tell the group
	// from a later one with the same number: after a reboot, or a reuse.
	BootID string `json:"boot_id,omitempty"`
	Start  string `json:"start,omitempty"`
}

// Shard is one shard run that went into a merged run.
type Shard struct {
	ID     string     `json:"id"`
	Shard  string     `json:"shard"` // "I/N"
	Start  time.Time  `json:"start"`
	End    *time.Time `json:"end,omitempty"`
	Facts  Facts      `json:"host"` // the machine that ran the shard's collector
	Status string     `json:"status"`
}

// Orphan is a dump found in the run dir that no measurement lists.
type Orphan struct {
	Dump   string `json:"dump"`
	SHA256 string `json:"sha256"`
	Bytes  int64  `json:"bytes"`
}

// Version is what a binary said of itself.
type Version struct {
	Path    string `json:"path"`
	Version string `json:"version"`
	// Asked is the argv that produced Version.
	Asked []string `json:"asked"`
}

// Service is what run.json keeps of a service the targets used.
type Service struct {
	Name     string  `json:"name"`
	Version  string  `json:"version"`
	Port     int     `json:"port"`
	StartupS float64 `json:"startup_s"`
	SeedS    float64 `json:"seed_s,omitempty"`
}

// Target is what was learnt about a target outside its measurements.
type Target struct {
	Name    string `json:"name"`
	Runtime string `json:"runtime,omitempty"`
	// Env is the environment the suite gives the target (its env key),
	// placeholders as written: what a reader needs to run it the same way
	// (NODE_ENV=production, say).
	Env    map[string]string `json:"env,omitempty"`
	BuildS float64           `json:"build_s,omitempty"`
	// BuildCached says the build ran against a build cache entry that held
	// a finished build (collect's build_cache.go): BuildS is then the build
	// tool's up-to-date check and the copy into the run's {bin}, not a
	// cold build. collect -fresh-build starts cold.
	BuildCached   bool     `json:"build_cached,omitempty"`
	ArtifactBytes int64    `json:"artifact_bytes,omitempty"`
	StartupS      float64  `json:"startup_s,omitempty"`
	RSSBefore     int64    `json:"rss_before_bytes,omitempty"`
	RSSAfter      int64    `json:"rss_after_bytes,omitempty"`
	RSSPeak       int64    `json:"rss_peak_bytes,omitempty"`
	Conformance   string   `json:"conformance,omitempty"` // "pass" | "fail"
	Failed        []string `json:"failed,omitempty"`      // scenarios that failed the gate
	Transcript    string   `json:"transcript,omitempty"`  // conformance/<target>.txt
	// Host is the server host (Host.Name) the target ran on; empty: the
	// collector's machine.
	Host string `json:"host,omitempty"`
	// LocalTranscript is the gate asked again from the collector's machine
	// when the server is remote (conformance/<target>.local.txt), and
	// LocalConformance its verdict: a difference from the client host's
	// says a firewall or proxy stands between them.
	LocalTranscript  string `json:"local_transcript,omitempty"`
	LocalConformance string `json:"local_conformance,omitempty"`
	// Packages are the versions of the framework packages the suite names
	// for the target (its packages key), read where it was built.
	Packages []Package `json:"packages,omitempty"`
	Error    string    `json:"error,omitempty"`
}

// Package is the version of one framework package or module a target is
// built with, and where it was read: a package.json under node_modules, or
// `go version -m` on the binary. Version is empty where it could not be
// read (run.json's errors say why).
type Package struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Source  string `json:"source"`
}

// Measurement is one load-generator run and where its dump is.
type Measurement struct {
	Target   string `json:"target"`
	Scenario string `json:"scenario"`
	Rep      int    `json:"rep"`
	Warmup   bool   `json:"warmup"`
	Order    int    `json:"order"`
	// Phase is "" for the closed-loop pass, "latency" for a point of the
	// open-model pass, "sweep" for a point of a connections sweep,
	// "ceiling" for the open-model tool sending as fast as it can before
	// the latency points of a scenario, to learn the most it can send.
	Phase string `json:"phase,omitempty"`
	// Connections is a sweep point's connections, and the workers (each
	// with its connection) of a latency or ceiling point; 0: the suite's.
	Connections int `json:"connections,omitempty"`
	// Rate is an open-model point's offered rate, req/s. Where the suite set
	// it as a share of capacity, Rate = RateFraction × Capacity, Capacity
	// being the target's median closed-loop req/s on the scenario in this
	// run; both are 0 for a fixed rate.
	Rate         float64 `json:"rate,omitempty"`
	RateFraction float64 `json:"rate_fraction,omitempty"`
	Capacity     float64 `json:"capacity,omitempty"`
	// SendRate is the rate the load tool achieved in sending (requests ÷
	// the time sending took), and BehindS how far sending fell behind its
	// schedule, s: the latest any request went out after its scheduled time.
	SendRate float64 `json:"send_rate,omitempty"`
	BehindS  float64 `json:"behind_s,omitempty"`
	// FromSchedule is a latency point's latency timed from when each
	// request was due rather than when it went out, computed from the
	// results stream before it is deleted: where it is longer than the
	// dump's, sending fell behind far enough to change what the point
	// reports.
	FromSchedule *ScheduleLatency `json:"from_schedule,omitempty"`
	// Late counts, on a latency point, the requests that went out late and
	// how many of those were due while every worker waited for an answer
	// (the target held them back) rather than while one was free (the
	// load tool paused): which of the two a late point measures.
	Late *LateSending `json:"late,omitempty"`
	// ClientLoad is the share of its CPUs the load tool kept busy in the
	// window (client_cpu_s ÷ window ÷ its CPUs), and ClientBound whether
	// that was near all of them: for a ceiling measurement, whether its
	// SendRate is the client's limit (else the target held it back and
	// the client can send at least that). Recorded for ceiling
	// measurements.
	ClientLoad  float64 `json:"client_load,omitempty"`
	ClientBound bool    `json:"client_bound,omitempty"`
	// Limit is, for a ceiling measurement, the highest rate a latency
	// point of its scenario was offered, req/s: a share of SendRate.
	Limit       float64   `json:"limit,omitempty"`
	Tool        string    `json:"tool"`
	ToolVersion string    `json:"tool_version"`
	Argv        []string  `json:"argv"`
	Start       time.Time `json:"start"`
	End         time.Time `json:"end"`
	ExitStatus  int       `json:"exit_status"` // -1: killed by a signal (Error says which)
	// ServerCPUList and ClientCPUList are the CPU lists (taskset -c) the
	// server and the load tool were pinned to; empty: not pinned.
	ServerCPUList string `json:"server_cpus,omitempty"`
	ClientCPUList string `json:"client_cpus,omitempty"`
	// ServerHost and ClientHost name the hosts (Host.Name) that ran the
	// server and the load tool; empty: the collector's machine. In a merged
	// run every measurement names both.
	ServerHost string `json:"server_host,omitempty"`
	ClientHost string `json:"client_host,omitempty"`
	// Shard is the shard run ("I/N") the measurement came from, in a merged run.
	Shard string `json:"shard,omitempty"`
	// Reports are the argvs run after Argv on what it wrote, whose stdouts,
	// concatenated byte for byte, are the dump: vegeta's JSON and
	// histogram reports of its attack's results. Empty for a tool whose
	// stdout is the dump.
	Reports [][]string `json:"reports,omitempty"`
	// ServerCPUSeconds and ClientCPUSeconds are the CPU time (user +
	// system) the server and the load tool used during the window.
	ServerCPUSeconds float64 `json:"server_cpu_s"`
	ClientCPUSeconds float64 `json:"client_cpu_s"`
	StartupS         float64 `json:"startup_s,omitempty"`
	RSSBefore        int64   `json:"rss_before_bytes,omitempty"`
	RSSAfter         int64   `json:"rss_after_bytes,omitempty"`
	RSSPeak          int64   `json:"rss_peak_bytes,omitempty"` // sampled every 20 ms during the window
	Dump             string  `json:"dump"`
	SHA256           string  `json:"sha256"`
	Stderr           string  `json:"stderr,omitempty"`
	// Error says why the measurement failed (the tool crashed or overran
	// its window, the server died): its dump is kept, and a resumed run
	// takes the measurement again under a new name.
	Error string `json:"error,omitempty"`
	// Interference is the foreign load on the server's and the client's
	// CPUs during the window; nil in runs written before it.
	Interference *Interference `json:"interference,omitempty"`
	// ResetS is the time the scenario's reset took (its services' reset
	// argvs, run just before the window and kept out of it); 0: none.
	ResetS float64 `json:"reset_s,omitempty"`
	// HostSpeed is the host speed probe timed before and after the
	// target's turn the measurement was part of; nil in runs before it.
	HostSpeed *HostSpeed `json:"host_speed,omitempty"`
}

// ScheduleLatency is latency percentiles and max, in seconds: P50S is the
// 50th percentile, P999S the 99.9th.
type ScheduleLatency struct {
	P50S  float64 `json:"p50_s"`
	P90S  float64 `json:"p90_s"`
	P95S  float64 `json:"p95_s"`
	P99S  float64 `json:"p99_s"`
	P999S float64 `json:"p99_9_s"`
	MaxS  float64 `json:"max_s"`
}

// LateSending is a latency point's late requests: Requests went out more
// than a millisecond after they were due, Held of them were due while all
// Workers workers had a request in flight; WaitS is the time they waited
// past their due times in all, HeldWaitS the held ones' part of it.
type LateSending struct {
	Requests  int     `json:"requests"`
	Held      int     `json:"held"`
	Workers   int     `json:"workers"`
	WaitS     float64 `json:"wait_s"`
	HeldWaitS float64 `json:"held_wait_s"`
}

// Pairs are the run's A/A pairs: AAPairs where it names them, else
// AAPair; a pair that is not two different names is left out.
func (m *Manifest) Pairs() [][2]string {
	all := m.AAPairs
	if len(all) == 0 && m.AAPair != nil {
		all = [][]string{m.AAPair}
	}
	var out [][2]string
	for _, p := range all {
		if len(p) == 2 && p[0] != p[1] {
			out = append(out, [2]string{p[0], p[1]})
		}
	}
	return out
}
