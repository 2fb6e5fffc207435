package collect

import "time"

// SchemaVersion is the version of run.json this package writes. Readers
// (package parse) accept every version up to theirs.
const SchemaVersion = 1

// Run status values in Manifest.Status.
const (
	StatusRunning     = "running"
	StatusComplete    = "complete"
	StatusInterrupted = "interrupted"
	StatusFailed      = "failed"
)

// Manifest is run.json: everything about a run except the dumps themselves.
// It is rewritten atomically as the run advances.
type Manifest struct {
	Schema      int                `json:"schema"`
	ID          string             `json:"id"`
	Suite       string             `json:"suite"`
	SuiteFile   string             `json:"suite_file,omitempty"` // where the suite was read from
	SuiteSHA256 string             `json:"suite_sha256"`
	Status      string             `json:"status"`
	Start       time.Time          `json:"start"`
	End         *time.Time         `json:"end,omitempty"`
	Resumed     []time.Time        `json:"resumed,omitempty"` // when each -resume began
	Host        Host               `json:"host"`
	Tools       map[string]Version `json:"tools"` // load tools, runtimes and services, by name
	Isolation   Isolation          `json:"isolation"`
	// Shard is "I/N" when the run took the I-th of N deterministic shares
	// of the suite's targets (collect -shard).
	Shard string `json:"shard,omitempty"`
	// Hosts are the SSH hosts the run used, with what each said of itself.
	// Empty: everything ran on Host.
	Hosts []HostRecord `json:"hosts,omitempty"`
	// Merged lists the shard runs a merged run was made of (fairbench merge).
	Merged       []MergedRecord      `json:"merged,omitempty"`
	Services     []ServiceRecord     `json:"services,omitempty"`
	Targets      []TargetRecord      `json:"targets"`
	Measurements []MeasurementRecord `json:"measurements"`
	// Orphans are dumps found on disk on resume that run.json did not list
	// (a crash between storing and recording): kept, never measurements.
	Orphans []OrphanRecord `json:"orphans,omitempty"`
	// Leftovers are the process groups fairbench started on SSH hosts and
	// has not seen end: the server running now, or one left when its host
	// was out of reach (or the collector died). The next connection to the
	// host, or -resume, ends them over a fresh connection.
	Leftovers []LeftoverRecord `json:"leftovers,omitempty"`
	Errors    []string         `json:"errors,omitempty"`
}

// HostRecord is an SSH host of the run and what it said of itself.
type HostRecord struct {
	Name        string             `json:"name"`
	Destination string             `json:"destination"` // as given to ssh, with the port when set
	Roles       []string           `json:"roles"`
	Facts       Host               `json:"facts"`
	Tools       map[string]Version `json:"tools,omitempty"` // asked on this host
}

// LeftoverRecord is a process group started on an SSH host.
type LeftoverRecord struct {
	Host  string `json:"host"`
	Group int    `json:"process_group"`
	What  string `json:"what"` // the target, or "load tool"
	// BootID (the host's /proc/sys/kernel/random/boot_id) and Start (the
	// group leader's start time, in clock ticks after boot) tell the group
	// from a later one with the same number: after a reboot, or a reuse.
	BootID string `json:"boot_id,omitempty"`
	Start  string `json:"start,omitempty"`
}

// MergedRecord is one shard run that went into a merged run.
type MergedRecord struct {
	ID     string     `json:"id"`
	Shard  string     `json:"shard"`
	Start  time.Time  `json:"start"`
	End    *time.Time `json:"end,omitempty"`
	Host   Host       `json:"host"` // the machine that ran the shard's collector
	Status string     `json:"status"`
}

// OrphanRecord is a dump found in the run dir that no measurement lists.
type OrphanRecord struct {
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

// TargetRecord is what was learnt about a target outside its measurements.
type TargetRecord struct {
	Name          string   `json:"name"`
	Runtime       string   `json:"runtime,omitempty"`
	BuildS        float64  `json:"build_s,omitempty"`
	ArtifactBytes int64    `json:"artifact_bytes,omitempty"`
	StartupS      float64  `json:"startup_s,omitempty"`
	RSSBefore     int64    `json:"rss_before_bytes,omitempty"`
	RSSAfter      int64    `json:"rss_after_bytes,omitempty"`
	RSSPeak       int64    `json:"rss_peak_bytes,omitempty"`
	Conformance   string   `json:"conformance,omitempty"` // "pass" | "fail"
	Failed        []string `json:"failed,omitempty"`      // scenarios that failed the gate
	Transcript    string   `json:"transcript,omitempty"`  // conformance/<target>.txt
	// Host is the server host the target ran on; empty: the run's Host.
	Host string `json:"host,omitempty"`
	// LocalTranscript is the gate asked again from the collector's machine
	// when the server is remote (conformance/<target>.local.txt), and
	// LocalConformance its verdict: a difference from the client host's
	// says a firewall or proxy stands between them.
	LocalTranscript  string `json:"local_transcript,omitempty"`
	LocalConformance string `json:"local_conformance,omitempty"`
	Error            string `json:"error,omitempty"`
}

// MeasurementRecord is one load-generator run and where its dump is.
type MeasurementRecord struct {
	Target      string    `json:"target"`
	Scenario    string    `json:"scenario"`
	Rep         int       `json:"rep"`
	Warmup      bool      `json:"warmup"`
	Order       int       `json:"order"`
	Tool        string    `json:"tool"`
	ToolVersion string    `json:"tool_version"`
	Argv        []string  `json:"argv"`
	Start       time.Time `json:"start"`
	End         time.Time `json:"end"`
	ExitStatus  int       `json:"exit_status"` // -1: killed by a signal (Error says which)
	ServerCPUs  string    `json:"server_cpus,omitempty"`
	ClientCPUs  string    `json:"client_cpus,omitempty"`
	// ServerHost and ClientHost name the hosts (Manifest.Hosts) that ran the
	// server and the load tool; empty: the run's Host. In a merged run every
	// measurement names both.
	ServerHost string `json:"server_host,omitempty"`
	ClientHost string `json:"client_host,omitempty"`
	// Shard is the shard run ("I/N") the measurement came from, in a merged run.
	Shard      string  `json:"shard,omitempty"`
	ServerCPUS float64 `json:"server_cpu_s"`
	ClientCPUS float64 `json:"client_cpu_s"`
	StartupS   float64 `json:"startup_s,omitempty"`
	RSSBefore  int64   `json:"rss_before_bytes,omitempty"`
	RSSAfter   int64   `json:"rss_after_bytes,omitempty"`
	RSSPeak    int64   `json:"rss_peak_bytes,omitempty"` // sampled every 20 ms during the window
	Dump       string  `json:"dump"`
	SHA256     string  `json:"sha256"`
	Stderr     string  `json:"stderr,omitempty"`
	// Error says why the measurement failed (the tool crashed or overran
	// its window, the server died): its dump is kept, and a resumed run
	// takes the measurement again under a new name.
	Error string `json:"error,omitempty"`
}
