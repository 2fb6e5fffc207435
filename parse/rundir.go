package parse

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// RunSchema is the newest run.json schema this package reads.
const RunSchema = 1

// Run is the part of a fairbench run directory's run.json that is not a
// measurement: when, where, with what. It mirrors what package collect
// writes, read independently: the run dir on disk is the contract.
type Run struct {
	Path        string             `json:"-"` // the run dir as given
	Schema      int                `json:"schema"`
	ID          string             `json:"id"`
	Suite       string             `json:"suite"`
	SuiteSHA256 string             `json:"suite_sha256"`
	Status      string             `json:"status"`
	Start       time.Time          `json:"start"`
	End         *time.Time         `json:"end,omitempty"`
	Host        Host               `json:"host"`
	Tools       map[string]Version `json:"tools"`
	Isolation   struct {
		ServerCPUs string `json:"server_cpus"`
		ClientCPUs string `json:"client_cpus"`
	} `json:"isolation"`
	// Shard is "I/N" for one shard of a suite; Hosts the SSH hosts the run
	// used (none: everything ran on Host); Merged the shard runs a merged
	// run was made of.
	Shard        string           `json:"shard"`
	Hosts        []RunHost        `json:"hosts"`
	Merged       []RunShard       `json:"merged"`
	Targets      []runTarget      `json:"targets"`
	Measurements []RunMeasurement `json:"measurements"`
	Errors       []string         `json:"errors"`
	// AAPair names the suite's A/A twins: one program listed under two
	// target names, whose difference is the run's noise.
	AAPair []string `json:"aa_pair,omitempty"`
	// Orphans are dumps the collector found on disk that no measurement
	// listed (a crash between storing a dump and recording it); they are
	// kept, not counted.
	Orphans []struct {
		Dump   string `json:"dump"`
		SHA256 string `json:"sha256"`
		Bytes  int64  `json:"bytes"`
	} `json:"orphans"`
}

func (*Run) record() {}

// Host is what the run's machine said about itself.
type Host struct {
	Hostname    string    `json:"hostname"`
	CPUModel    string    `json:"cpu_model"`
	Cores       int       `json:"cores"`
	Threads     int       `json:"threads"`
	MemoryBytes int64     `json:"memory_bytes"`
	Kernel      string    `json:"kernel"`
	OS          string    `json:"os"`
	Arch        string    `json:"arch"`
	Governor    string    `json:"governor"`
	LoadAvg     []float64 `json:"loadavg"`
}

// RunHost is an SSH host of a run and what it said of itself.
type RunHost struct {
	Name        string             `json:"name"`
	Destination string             `json:"destination"`
	Roles       []string           `json:"roles"`
	Facts       Host               `json:"facts"`
	Tools       map[string]Version `json:"tools"`
}

// RunShard is one shard run that went into a merged run.
type RunShard struct {
	ID     string     `json:"id"`
	Shard  string     `json:"shard"`
	Start  time.Time  `json:"start"`
	End    *time.Time `json:"end"`
	Host   Host       `json:"host"`
	Status string     `json:"status"`
}

// Version is what a binary said of itself, and the argv that asked.
type Version struct {
	Path    string   `json:"path"`
	Version string   `json:"version"`
	Asked   []string `json:"asked"`
}

type runTarget struct {
	Name             string   `json:"name"`
	Runtime          string   `json:"runtime"`
	BuildS           float64  `json:"build_s"`
	ArtifactBytes    int64    `json:"artifact_bytes"`
	StartupS         float64  `json:"startup_s"`
	RSSBefore        int64    `json:"rss_before_bytes"`
	RSSAfter         int64    `json:"rss_after_bytes"`
	RSSPeak          int64    `json:"rss_peak_bytes"`
	Conformance      string   `json:"conformance"`
	Failed           []string `json:"failed"`
	Transcript       string   `json:"transcript"`
	Host             string   `json:"host"`
	LocalTranscript  string   `json:"local_transcript"`
	LocalConformance string   `json:"local_conformance"`
	Error            string   `json:"error"`
}

// RunMeasurement is one measurement as run.json lists it: what ran, where,
// and which dump holds its output.
type RunMeasurement struct {
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
	ExitStatus  int       `json:"exit_status"`
	ServerCPUS  float64   `json:"server_cpu_s"`
	ClientCPUS  float64   `json:"client_cpu_s"`
	ClientCPUs  string    `json:"client_cpus"`
	ServerCPUs  string    `json:"server_cpus"`
	ServerHost  string    `json:"server_host"`
	ClientHost  string    `json:"client_host"`
	Shard       string    `json:"shard"`
	StartupS    float64   `json:"startup_s"`
	RSSBefore   int64     `json:"rss_before_bytes"`
	RSSAfter    int64     `json:"rss_after_bytes"`
	Dump        string    `json:"dump"`
	SHA256      string    `json:"sha256"`
	Error       string    `json:"error"`
}

// IsRunDir reports whether path is a fairbench run directory.
func IsRunDir(path string) bool {
	info, err := os.Stat(filepath.Join(path, "run.json"))
	return err == nil && info.Mode().IsRegular()
}

// ReadRun reads the run.json of the run dir at path.
func ReadRun(path string) (*Run, error) {
	name := filepath.Join(path, "run.json")
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var r Run
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, &SyntaxError{File: name, Line: jsonErrorLine(b, err), Msg: err.Error()}
	}
	if r.Schema < 1 || r.Schema > RunSchema {
		return nil, &SyntaxError{File: name, Msg: fmt.Sprintf("run.json schema %d is not one this fairbench reads (1..%d)", r.Schema, RunSchema)}
	}
	r.Path = path
	return &r, nil
}

// jsonErrorLine finds the line of a JSON syntax or type error, 0 if unknown.
func jsonErrorLine(b []byte, err error) int {
	var off int64
	switch e := err.(type) {
	case *json.SyntaxError:
		off = e.Offset
	case *json.UnmarshalTypeError:
		off = e.Offset
	default:
		return 0
	}
	line := 1
	for _, c := range b[:min(int(off), len(b))] {
		if c == '\n' {
			line++
		}
	}
	return line
}

// walkRun yields the run, its targets and its measurements, each dump parsed
// and labelled from run.json.
func walkRun(path string, fn func(Record) error) []error {
	run, err := ReadRun(path)
	if err != nil {
		return []error{err}
	}
	if err := fn(run); err != nil {
		return []error{err}
	}
	var errs []error
	for _, t := range run.Targets {
		rec := &Target{
			Run: run.ID, Name: t.Name, Runtime: t.Runtime,
			Build:         seconds(t.BuildS),
			Startup:       seconds(t.StartupS),
			RSSBefore:     t.RSSBefore,
			RSSAfter:      t.RSSAfter,
			RSSPeak:       t.RSSPeak,
			ArtifactBytes: t.ArtifactBytes,
			Conformance:   t.Conformance,
			Failed:        t.Failed,
			Transcript:    t.Transcript,
			Source:        Source{File: filepath.Join(path, "run.json")},
		}
		if err := fn(rec); err != nil {
			return append(errs, err)
		}
	}
	runtimes := map[string]string{}
	for _, t := range run.Targets {
		runtimes[t.Name] = t.Runtime
	}
	for _, mr := range run.Measurements {
		if mr.Error != "" {
			continue // a failed measurement is not counted; audit reports it (tool-failed)
		}
		if !filepath.IsLocal(filepath.FromSlash(mr.Dump)) {
			errs = append(errs, &SyntaxError{File: filepath.Join(path, "run.json"), Msg: fmt.Sprintf("dump path %q leaves the run dir", mr.Dump)})
			continue
		}
		name := filepath.Join(path, filepath.FromSlash(mr.Dump))
		if err := staysInside(path, name); err != nil {
			errs = append(errs, &SyntaxError{File: filepath.Join(path, "run.json"), Msg: err.Error()})
			continue
		}
		ms, ferrs := readMeasurements(name)
		errs = append(errs, ferrs...)
		for _, m := range ms {
			m.Run, m.Target, m.Runtime, m.Scenario = run.ID, mr.Target, runtimes[mr.Target], mr.Scenario
			m.Rep, m.Warmup, m.Order = mr.Rep, mr.Warmup, mr.Order
			m.ServerCPU, m.ClientCPU = mr.ServerCPUS, mr.ClientCPUS
			m.Argv = mr.Argv
			m.ServerHost, m.ClientHost, m.Shard = cmp.Or(mr.ServerHost, run.Host.Hostname), cmp.Or(mr.ClientHost, run.Host.Hostname), mr.Shard
			if m.ToolVersion == "" {
				m.ToolVersion = mr.ToolVersion
			}
			if mr.SHA256 != "" && m.Source.SHA256 != mr.SHA256 {
				m.Warnings = append(m.Warnings, fmt.Sprintf("%s: sha256 %s, run.json says %s: the dump changed after it was recorded", name, m.Source.SHA256, mr.SHA256))
			}
			if err := fn(m); err != nil {
				return append(errs, err)
			}
		}
	}
	return errs
}

// staysInside checks that name, with every symbolic link on its way
// resolved, is still inside the run dir root: a link in a run dir is not
// followed out of it.
func staysInside(root, name string) error {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return err
	}
	real, err := filepath.EvalSymlinks(name)
	if err != nil {
		if os.IsNotExist(err) {
			return nil // a missing dump is reported when it is opened
		}
		return err
	}
	rel, err := filepath.Rel(realRoot, real)
	if err != nil || !filepath.IsLocal(rel) {
		return fmt.Errorf("dump %s links to %s, outside the run dir: not followed", name, real)
	}
	return nil
}
