package collect

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
)

// Suite is a benchmark suite as read from its TOML file: what to start, what
// to ask it, what bytes to expect, and how to load it.
type Suite struct {
	Name      string     `toml:"name"`
	Load      Load       `toml:"load"`
	Isolation Isolation  `toml:"isolation"`
	Targets   []Target   `toml:"target"`
	Scenarios []Scenario `toml:"scenario"`

	// File is the path the suite was read from; Source its exact bytes.
	File   string `toml:"-"`
	Source []byte `toml:"-"`
}

// Load is how the load generator is driven. Zero fields take DefaultLoad's value.
type Load struct {
	Tool        string   `toml:"tool"` // wrk | bombardier | autocannon
	Threads     int      `toml:"threads"`
	Connections int      `toml:"connections"`
	Duration    Duration `toml:"duration"`
	Warmup      Duration `toml:"warmup"`
	Repetitions int      `toml:"repetitions"`
	Pipelining  int      `toml:"pipelining"`
	Timeout     Duration `toml:"timeout"`
}

// DefaultLoad is the load used where a suite says nothing.
var DefaultLoad = Load{
	Tool:        "bombardier",
	Threads:     1,
	Connections: 64,
	Duration:    Duration(10 * time.Second),
	Warmup:      Duration(5 * time.Second),
	Repetitions: 5,
	Pipelining:  1,
	Timeout:     Duration(2 * time.Second),
}

// Isolation pins server and client to CPU sets (taskset -c syntax), "" for none.
type Isolation struct {
	ServerCPUs string `toml:"server_cpus"`
	ClientCPUs string `toml:"client_cpus"`
}

// Target is one server to measure.
type Target struct {
	Name     string            `toml:"name"`
	Runtime  string            `toml:"runtime"`
	Dir      string            `toml:"dir"`      // working directory, relative to the suite's base
	Build    []string          `toml:"build"`    // argv, run in Dir; may be empty
	Start    []string          `toml:"start"`    // argv, run in Dir
	Port     int               `toml:"port"`     // 0: a free port is chosen and passed as $PORT
	Env      map[string]string `toml:"env"`      // extra environment
	Ready    string            `toml:"ready"`    // readiness path; default: the first scenario's request
	Artifact string            `toml:"artifact"` // file or folder whose size is the bundle size
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
}

// Expect is what a response must be, byte for byte where given.
type Expect struct {
	Status int `toml:"status"`
	// Headers must be present; a value ending in "*" matches by prefix.
	Headers    map[string]string `toml:"headers"`
	Body       *string           `toml:"body"`        // exact bytes
	BodySHA256 string            `toml:"body_sha256"` // hex sha256 of the body
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
	if err := s.check(); err != nil {
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

// namePattern is what target and scenario names may be: they become paths.
var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

func (s *Suite) check() error {
	var errs []error
	bad := func(table string, i int, key, format string, args ...any) {
		line := s.lineOf(table, i, key)
		errs = append(errs, fmt.Errorf("%s:%d: %s: %s", s.File, line, key, fmt.Sprintf(format, args...)))
	}
	if s.Name == "" {
		bad("", 0, "name", "missing: name the suite")
	}
	switch s.Load.Tool {
	case "", "wrk", "bombardier", "autocannon":
	default:
		bad("load", 0, "tool", "%q is not wrk, bombardier or autocannon", s.Load.Tool)
	}
	if len(s.Targets) == 0 {
		bad("", 0, "target", "no [[target]]: a suite needs at least one")
	}
	seen := map[string]bool{}
	for i, t := range s.Targets {
		switch {
		case t.Name == "":
			bad("target", i, "name", "missing")
		case !namePattern.MatchString(t.Name):
			bad("target", i, "name", "%q: use letters, digits, '.', '_' and '-' only", t.Name)
		case seen[t.Name]:
			bad("target", i, "name", "%q is listed twice", t.Name)
		}
		seen[t.Name] = true
		if len(t.Start) == 0 {
			bad("target", i, "start", "missing: the argv that starts the server")
		}
		if t.Port < 0 || t.Port > 65535 {
			bad("target", i, "port", "%d is not a port", t.Port)
		}
	}
	if len(s.Scenarios) == 0 {
		bad("", 0, "scenario", "no [[scenario]]: a suite needs at least one")
	}
	seen = map[string]bool{}
	for i, sc := range s.Scenarios {
		switch {
		case sc.Name == "":
			bad("scenario", i, "name", "missing")
		case !namePattern.MatchString(sc.Name):
			bad("scenario", i, "name", "%q: use letters, digits, '.', '_' and '-' only", sc.Name)
		case seen[sc.Name]:
			bad("scenario", i, "name", "%q is listed twice", sc.Name)
		}
		seen[sc.Name] = true
		if !strings.HasPrefix(sc.Request.Path, "/") {
			bad("scenario", i, "request", "path %q must start with /", sc.Request.Path)
		}
		if sc.Expect.Status == 0 {
			bad("scenario", i, "expect", "missing status")
		}
	}
	return errors.Join(errs...)
}

// lineOf finds the line of key in the i-th [[table]] (or [table], or the top
// level when table is ""), for error messages. It returns the table's header
// line when the key is absent, and 1 when nothing is found.
func (s *Suite) lineOf(table string, i int, key string) int {
	lines := strings.Split(string(s.Source), "\n")
	start, n := 0, -1
	if table != "" {
		start = -1
		for k, l := range lines {
			t := strings.TrimSpace(l)
			if t == "[["+table+"]]" || t == "["+table+"]" {
				n++
				if n == i {
					start = k
					break
				}
			}
		}
		if start < 0 {
			return 1
		}
	}
	for k := start; k < len(lines); k++ {
		t := strings.TrimSpace(lines[k])
		if k > start && strings.HasPrefix(t, "[") && table != "" {
			break
		}
		if strings.HasPrefix(t, key+" ") || strings.HasPrefix(t, key+"=") {
			return k + 1
		}
	}
	return start + 1
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
	if o.Warmup != 0 {
		l.Warmup = o.Warmup
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
