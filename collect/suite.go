package collect

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fairbench/fairbench/parse/manifest"
	"github.com/pelletier/go-toml/v2"
)

// Suite is a benchmark suite as read from its TOML file: what to start, what
// to ask it, what bytes to expect, and how to load it. The README has a full
// commented example; every key below is one of it.
type Suite struct {
	Name      string             `toml:"name"`
	Load      Load               `toml:"load"`
	Isolation manifest.Isolation `toml:"isolation"`
	Hosts     []HostEntry        `toml:"host"` // none: everything runs on this machine
	Services  []Service          `toml:"service"`
	Targets   []Target           `toml:"target"`
	Scenarios []Scenario         `toml:"scenario"`

	// File is the path the suite was read from; Source its exact bytes.
	File   string `toml:"-"`
	Source []byte `toml:"-"`
}

// Load is how the load generator is driven. Zero fields take DefaultLoad's
// value; Warmup is a pointer so that "0s" can turn warm-ups off.
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
}

// HostEntry is a machine reached over SSH ([[host]] in a suite or a hosts
// file). A suite with hosts runs its targets on the host with the server
// role and its load generator on the host with the client role.
type HostEntry struct {
	Name string `toml:"name"`
	// SSH is the destination as ssh takes it: [user@]address.
	SSH        string   `toml:"ssh"`
	Port       int      `toml:"port"`        // 0: ssh's default (22, or the ssh config's)
	Identity   string   `toml:"identity"`    // private key file, -i
	KnownHosts string   `toml:"known_hosts"` // UserKnownHostsFile; empty: ssh's own
	Config     string   `toml:"config"`      // ssh config file, -F; empty: ssh's own
	Roles      []string `toml:"roles"`       // "server", "client"
	// Dir is fairbench's work folder on the host (copied targets, builds,
	// tools, scratch); relative paths are under the login's home. Empty:
	// ".cache/fairbench-remote".
	Dir string `toml:"dir"`
	// Address is where the client host reaches this host's targets; empty:
	// the address part of SSH.
	Address string `toml:"address"`
}

// Scenario is one request to measure and the response it must get.
type Scenario struct {
	Name     string    `toml:"name"`
	Request  Request   `toml:"request"`
	Expect   Expect    `toml:"expect"`
	Variants []Variant `toml:"variant"`
	Load     Load      `toml:"load"` // overrides of the suite's load
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

// MarshalText writes a Go duration string.
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// Std returns d as a time.Duration.
func (d Duration) Std() time.Duration { return time.Duration(d) }

// LoadSuite reads and checks a suite file.
func LoadSuite(path string) (*Suite, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseSuite(src, path)
}

// ParseSuite reads and checks a suite from its bytes; name is used in errors.
func ParseSuite(src []byte, name string) (*Suite, error) {
	var s Suite
	dec := toml.NewDecoder(bytes.NewReader(src))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, suiteDecodeError(name, err)
	}
	s.File, s.Source = name, src
	if err := bareDurations(src, name); err != nil {
		return nil, err
	}
	if err := s.check(); err != nil {
		return nil, err
	}
	if err := s.readBodyFiles(filepath.Dir(name)); err != nil {
		return nil, err
	}
	return &s, nil
}

func suiteDecodeError(name string, err error) error {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) && len(strict.Errors) > 0 {
		var msgs []string
		for _, e := range strict.Errors {
			row, _ := e.Position()
			msgs = append(msgs, fmt.Sprintf("%s:%d: unknown key %q", name, row, strings.Join(e.Key(), ".")))
		}
		return errors.New(strings.Join(msgs, "\n"))
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, _ := de.Position()
		key := strings.Join(de.Key(), ".")
		if key != "" {
			return fmt.Errorf("%s:%d: %s: %v", name, row, key, de.Error())
		}
		return fmt.Errorf("%s:%d: %v", name, row, de.Error())
	}
	return fmt.Errorf("%s: %w", name, err)
}

// SHA256 is the hex sha256 of the suite's bytes.
func (s *Suite) SHA256() string {
	sum := sha256.Sum256(s.Source)
	return hex.EncodeToString(sum[:])
}

// LoadFor returns the effective load of a scenario: the scenario's
// overrides, then the suite's, then DefaultLoad.
func (s *Suite) LoadFor(sc Scenario) Load {
	return DefaultLoad.merge(s.Load).merge(sc.Load)
}

// merge returns l with every non-zero field of o set over it.
func (l Load) merge(o Load) Load {
	if o.Tool != "" {
		l.Tool = o.Tool
	}
	if o.Threads != 0 {
		l.Threads = o.Threads
	}
	if o.Connections != 0 {
		l.Connections = o.Connections
	}
	if o.Duration != 0 {
		l.Duration = o.Duration
	}
	if o.Warmup != nil {
		l.Warmup = o.Warmup
	}
	if o.Rate != 0 {
		l.Rate = o.Rate
	}
	if o.Repetitions != 0 {
		l.Repetitions = o.Repetitions
	}
	if o.Pipelining != 0 {
		l.Pipelining = o.Pipelining
	}
	if o.Timeout != 0 {
		l.Timeout = o.Timeout
	}
	return l
}
