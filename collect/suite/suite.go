package suite

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"time"

	"github.com/fairbench/fairbench/parse/runjson"
	"github.com/fairbench/fairbench/parse/tomlfile"
)

// Suite is a benchmark suite as read from its TOML file: what to start, what
// to ask it, what bytes to expect, and how to load it. `fairbench help
// suite` has a full commented example; every key below is one of it.
type Suite struct {
	Name      string            `toml:"name"`
	Load      Load              `toml:"load"`
	Isolation runjson.Isolation `toml:"isolation"`
	Hosts     []HostEntry       `toml:"host"` // none: everything runs on this machine
	Services  []Service         `toml:"service"`
	Targets   []Target          `toml:"target"`
	Scenarios []Scenario        `toml:"scenario"`
	// Latency and Sweep are the passes run after the closed-loop one;
	// nil: none (LatencyPhase, SweepPhase).
	Latency *LatencyPhase `toml:"latency"`
	Sweep   *SweepPhase   `toml:"sweep"`

	// AAPair names two targets that are one program under two names (an
	// A/A twin): the audit takes their difference as the run's noise.
	AAPair []string `toml:"aa_pair"`
	// AAPairs name a pair per runtime where a suite mixes runtimes, each
	// like AAPair: a day moves programs of one runtime together against
	// another's (a Go server against Node twins), which only twins of its
	// own runtime see. A suite sets aa_pair or aa_pairs; the first of
	// aa_pairs is then its AAPair, which the pilot and the noise floor use.
	AAPairs [][]string `toml:"aa_pairs"`

	// File is the path the suite was read from; Source its exact bytes.
	File   string `toml:"-"`
	Source []byte `toml:"-"`

	keys *tomlfile.File // which keys the file set, and their lines; nil for a suite built in Go
}

// Load is how the load generator is driven. Keys a suite file leaves out
// take the suite's, then DefaultLoad's value (Suite.LoadFor); a key it sets
// to zero is zero, and checked as such. Warmup is a pointer so that "0s"
// can turn warm-ups off.
type Load struct {
	Tool        string    `toml:"tool"` // wrk | bombardier | autocannon
	Threads     int       `toml:"threads"`
	Connections int       `toml:"connections"`
	Duration    Duration  `toml:"duration"`
	Warmup      *Duration `toml:"warmup"` // "0s": no warm-up
	Repetitions int       `toml:"repetitions"`
	Pipelining  int       `toml:"pipelining"`
	// Rate caps the requests per second of all connections together; 0 is
	// no cap (closed loop, as fast as the server answers).
	Rate    int      `toml:"rate"`
	Timeout Duration `toml:"timeout"`
	// Resolve and Budget are the suite's [load] only (precision.go): the
	// difference its rounds set out to tell apart, and their wall time's
	// bound.
	Resolve Resolve  `toml:"resolve"`
	Budget  Duration `toml:"budget"`
}

// WarmupWindow is the warm-up window of an effective load (0: none).
func (l Load) WarmupWindow() time.Duration {
	if l.Warmup == nil {
		return 0
	}
	return l.Warmup.Std()
}

// DefaultLoad is the load used where a suite says nothing.
var DefaultLoad = Load{
	Tool:        "bombardier",
	Threads:     1,
	Connections: 64,
	Duration:    Duration(10 * time.Second),
	Warmup:      durationPtr(5 * time.Second),
	Repetitions: 5,
	Pipelining:  1,
	Timeout:     Duration(2 * time.Second),
}

func durationPtr(d time.Duration) *Duration {
	v := Duration(d)
	return &v
}

// Target is one server to measure.
type Target struct {
	Name    string   `toml:"name"`
	Runtime string   `toml:"runtime"`
	Dir     string   `toml:"dir"`   // working directory, relative to the suite's base
	Build   []string `toml:"build"` // argv, run in Dir; may be empty
	Start   []string `toml:"start"` // argv, run in Dir
	Port    int      `toml:"port"`  // 0: a free port is chosen and passed as $PORT
	// Env is extra environment; values may name {bin} and {<service>.port}.
	Env map[string]string `toml:"env"`
	// Ready is the readiness path: any answer below 500 means ready. By
	// default the first scenario's request must get its expected status.
	Ready string `toml:"ready"`
	// ReadyTimeout bounds the wait for a fresh process to be ready; 0 is
	// Options.ReadyTimeout (30 s by default).
	ReadyTimeout Duration `toml:"ready_timeout"`
	Artifact     string   `toml:"artifact"` // file or folder whose size is the bundle size
	// RemoteDir, on a suite with a server host, says the target's files are
	// already on that host in this folder; empty: Dir is copied there.
	RemoteDir string `toml:"remote_dir"`
	// Packages names the framework packages whose versions run.json
	// records: npm package names for a JavaScript runtime (read from
	// Dir/node_modules/<name>/package.json), module paths for Go (read
	// with `go version -m` from the artifact, or else the start command).
	Packages []string `toml:"packages"`
	// PlantedOn names the target this one is, plus a known cost added per
	// request (a calibration suite: site/suites/planted.toml). Verdicts
	// and the audit report whether the run resolved each planted
	// difference: the host's resolving power.
	PlantedOn string `toml:"planted_on"`
}

// Scenario is one request to measure and the response it must get.
type Scenario struct {
	Name     string    `toml:"name"`
	Request  Request   `toml:"request"`
	Expect   Expect    `toml:"expect"`
	Variants []Variant `toml:"variant"`
	Load     Load      `toml:"load"` // overrides of the suite's load
	// Reset names services whose reset argv runs before every gate run,
	// warm-up and measurement of this scenario (reset.go).
	Reset []string `toml:"reset"`
}

// Variant is an extra gate request that is checked but not measured.
type Variant struct {
	Request Request `toml:"request"`
	Expect  Expect  `toml:"expect"`
}

// Request is an HTTP request.
type Request struct {
	Method  string            `toml:"method"`
	Path    string            `toml:"path"`
	Headers map[string]string `toml:"headers"`
	Body    string            `toml:"body"`
	// BodyFile is a file whose bytes are the body, relative to the suite
	// file's folder. Loading the suite reads it into Body and sets BodyPath.
	BodyFile string `toml:"body_file"`
	BodyPath string `toml:"-"` // BodyFile made absolute
}

// Expect is what a response must be, byte for byte where given.
type Expect struct {
	Status int `toml:"status"`
	// Headers must be present with these values; a value ending in "*"
	// matches by prefix.
	Headers map[string]string `toml:"headers"`
	// HeadersMatch are regular expressions (RE2) the values must match.
	HeadersMatch map[string]string `toml:"headers_match"`
	// HeadersEqual is the whole header set (Date aside): none missing,
	// none extra, every value equal.
	HeadersEqual map[string]string `toml:"headers_equal"`
	Body         *string           `toml:"body"`      // exact bytes
	BodyFile     string            `toml:"body_file"` // exact bytes of a file, read at load time into Body
	// BodyJSON is JSON the body must equal as a value (key order and
	// spacing aside).
	BodyJSON   *string `toml:"body_json"`
	BodyLength *int64  `toml:"body_length"` // exact length in bytes
	BodySHA256 string  `toml:"body_sha256"` // hex sha256 of the body
}

// Duration is a time.Duration written as "10s" in TOML.
type Duration time.Duration

// UnmarshalText reads a Go duration string.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("not a duration (like \"10s\"): %q", b)
	}
	*d = Duration(v)
	return nil
}

// UnmarshalTOML reads a duration string and refuses a number: TOML would
// otherwise give timeout = 2 as two nanoseconds.
func (d *Duration) UnmarshalTOML(v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("%v is not a duration: write it as a string like \"%vs\"", v, v)
	}
	return d.UnmarshalText([]byte(s))
}

// MarshalText writes a Go duration string.
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// Std returns d as a time.Duration.
func (d Duration) Std() time.Duration { return time.Duration(d) }

// LoadSuite reads and checks a suite file (a regular file of at most
// tomlfile.MaxBytes).
func LoadSuite(path string) (*Suite, error) {
	src, err := tomlfile.Read(path)
	if err != nil {
		return nil, err
	}
	return ParseSuite(src, path)
}

// ParseSuite reads and checks a suite from its bytes; name is used in errors.
func ParseSuite(src []byte, name string) (*Suite, error) {
	var s Suite
	f, err := tomlfile.Decode(name, src, &s, "")
	if err != nil {
		return nil, err
	}
	s.File, s.Source, s.keys = name, src, f
	if err := s.check(); err != nil {
		return nil, err
	}
	if len(s.AAPairs) > 0 {
		s.AAPair = s.AAPairs[0]
	}
	if err := s.readBodyFiles(filepath.Dir(name)); err != nil {
		return nil, err
	}
	return &s, nil
}

// SHA256 is the hex sha256 of the suite's bytes.
func (s *Suite) SHA256() string {
	sum := sha256.Sum256(s.Source)
	return hex.EncodeToString(sum[:])
}

// LoadFor returns the effective load of a scenario: the keys its load
// sets, then the suite's, then DefaultLoad. A key the file sets to zero is
// set (a scenario's rate = 0 lifts the suite's cap); in a suite built in Go,
// where nothing says what was set, a zero field is unset.
func (s *Suite) LoadFor(sc Scenario) Load {
	at := ""
	for i := range s.Scenarios {
		if s.Scenarios[i].Name == sc.Name {
			at = fmt.Sprintf("scenario.%d.load", i+1)
			break
		}
	}
	return s.loadAt(at, sc.Load)
}

// loadAt is the effective load of a scenario whose load table is at path.
func (s *Suite) loadAt(path string, raw Load) Load {
	return DefaultLoad.merge(s.Load, s.setter("load")).merge(raw, s.setter(path))
}

// setter reports which keys of the table at path the file sets.
func (s *Suite) setter(path string) func(key string) bool {
	return func(key string) bool { return s.keys != nil && path != "" && s.keys.Has(path+"."+key) }
}

// merge returns l with every field of o that is set, or not zero, over it.
func (l Load) merge(o Load, set func(key string) bool) Load {
	over(&l.Tool, o.Tool, set("tool"))
	over(&l.Threads, o.Threads, set("threads"))
	over(&l.Connections, o.Connections, set("connections"))
	over(&l.Duration, o.Duration, set("duration"))
	if o.Warmup != nil {
		l.Warmup = o.Warmup
	}
	over(&l.Rate, o.Rate, set("rate"))
	over(&l.Repetitions, o.Repetitions, set("repetitions"))
	over(&l.Pipelining, o.Pipelining, set("pipelining"))
	over(&l.Timeout, o.Timeout, set("timeout"))
	return l
}

// over puts v in *dst where the file set its key (a zero written on
// purpose, refused or kept by validation) or v is not zero.
func over[T comparable](dst *T, v T, set bool) {
	var zero T
	if set || v != zero {
		*dst = v
	}
}

// LatencyPhase is the [latency] table: an open-model pass run after the
// closed-loop one. Each of its scenarios is offered requests on a schedule
// by vegeta, at fractions of the target's own capacity (its median
// closed-loop req/s on that scenario in this run) and at fixed rates, each
// point with its warm-up and repetitions. Keys left out take
// DefaultLatency's values.
type LatencyPhase struct {
	PhaseKeys
	// Fractions are shares of capacity, in (0, 1]; by default 0.25, 0.5,
	// 0.75 and 0.9 when no rates are given.
	Fractions []float64 `toml:"fractions"`
	// Rates are fixed offered rates, req/s. Before the points of a
	// scenario, vegeta sends as fast as MaxWorkers workers go against the
	// target with the highest closed-loop median there (run.json's phase
	// "ceiling", with its warm-up and window); a point, fixed or a
	// fraction, above CeilingShare of the rate it reached is not offered,
	// and run.json's not_offered lists it: the client could not send that
	// many on schedule.
	Rates []int `toml:"rates"`
	// MaxWorkers bounds vegeta's workers, and so its connections and the
	// requests it has in flight; 0: the scenario's closed-loop connections.
	// Past it, sending falls behind its schedule, which run.json's
	// behind_s shows, rather than the client opening connections without
	// end against a server that slows down. The scenario's connections
	// suffice for any fraction of capacity: by Little's law the requests
	// in flight at a share f of the closed-loop rate are f × connections
	// while latency is no worse than it was closed-loop.
	MaxWorkers int `toml:"max_workers"`
	// Timeout is a request's timeout; 0: the scenario's load timeout.
	Timeout Duration `toml:"timeout"`
}

// DefaultLatency holds the values of the keys a [latency] table leaves out.
var DefaultLatency = LatencyPhase{
	PhaseKeys: PhaseKeys{Duration: Duration(4 * time.Second), Warmup: durationPtr(time.Second), Repetitions: 3},
	Fractions: []float64{0.25, 0.5, 0.75, 0.9},
}

// SweepPhase is the [sweep] table: the suite's closed-loop tool run on its
// scenarios at each connection count, for the saturation curve. Keys left
// out take DefaultSweep's values; the other load keys are the scenario's.
type SweepPhase struct {
	PhaseKeys
	Connections []int `toml:"connections"`
}

// DefaultSweep holds the values of the keys a [sweep] table leaves out.
var DefaultSweep = SweepPhase{
	PhaseKeys:   PhaseKeys{Duration: Duration(4 * time.Second), Warmup: durationPtr(time.Second), Repetitions: 3},
	Connections: []int{1, 8, 64, 256},
}

// PhaseKeys are the keys every phase table ([latency], [sweep]) has: the
// scenarios it runs, and each point's window, warm-up and repetitions.
// Every phase fills them in (filled) and checks them (checkPhaseWindow)
// alike. The TOML decoder reads an embedded PhaseKeys's keys as the
// table's own.
type PhaseKeys struct {
	Scenarios   []string  `toml:"scenarios"` // none: the first scenario
	Duration    Duration  `toml:"duration"`
	Warmup      *Duration `toml:"warmup"` // "0s": no warm-up
	Repetitions int       `toml:"repetitions"`
}

// filled is k with the keys left out taken from d, and the suite's first
// scenario when k names none.
func (k PhaseKeys) filled(d PhaseKeys, s *Suite) PhaseKeys {
	if len(k.Scenarios) == 0 && len(s.Scenarios) > 0 {
		k.Scenarios = []string{s.Scenarios[0].Name}
	}
	k.Duration = cmp.Or(k.Duration, d.Duration)
	if k.Warmup == nil {
		k.Warmup = d.Warmup
	}
	k.Repetitions = cmp.Or(k.Repetitions, d.Repetitions)
	return k
}

// LatencyPhase is the suite's [latency] with defaults filled in; ok is false
// when the suite has no such table.
func (s *Suite) LatencyPhase() (LatencyPhase, bool) {
	if s.Latency == nil {
		return LatencyPhase{}, false
	}
	l, d := *s.Latency, DefaultLatency
	if l.Fractions == nil && len(l.Rates) == 0 && !s.setter("latency")("fractions") {
		l.Fractions = d.Fractions
	}
	l.PhaseKeys = l.filled(d.PhaseKeys, s)
	return l, true
}

// SweepPhase is the suite's [sweep] with defaults filled in; ok is false when
// the suite has no such table.
func (s *Suite) SweepPhase() (SweepPhase, bool) {
	if s.Sweep == nil {
		return SweepPhase{}, false
	}
	w, d := *s.Sweep, DefaultSweep
	if w.Connections == nil {
		w.Connections = d.Connections
	}
	w.PhaseKeys = w.filled(d.PhaseKeys, s)
	return w, true
}

// Planted is each planted target's base (planted_on), nil when none is.
func (s *Suite) Planted() map[string]string {
	var out map[string]string
	for _, t := range s.Targets {
		if t.PlantedOn != "" {
			if out == nil {
				out = map[string]string{}
			}
			out[t.Name] = t.PlantedOn
		}
	}
	return out
}
