package collect

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
)

// namePattern is what target, scenario and service names may be: they
// become paths and placeholders.
var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// cpuListPattern is taskset's -c syntax: "0", "0-3", "0,2,4-5".
var cpuListPattern = regexp.MustCompile(`^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$`)

// sha256Pattern is a hex sha256.
var sha256Pattern = regexp.MustCompile(`^[0-9a-fA-F]{64}$`)

// methodPattern is an HTTP method token.
var methodPattern = regexp.MustCompile(`^[A-Z]+$`)

// suiteErrors gathers the problems of a suite, each naming file, line and key.
type suiteErrors struct {
	s    *Suite
	errs []error
}

// add records a problem with key in the i-th [[table]] ("" for the top level).
func (e *suiteErrors) add(table string, i int, key, format string, args ...any) {
	line := e.s.lineOf(table, i, key)
	e.errs = append(e.errs, fmt.Errorf("%s:%d: %s: %s", e.s.File, line, key, fmt.Sprintf(format, args...)))
}

func (s *Suite) check() error {
	e := &suiteErrors{s: s}
	if s.Name == "" {
		e.add("", 0, "name", "missing: name the suite")
	}
	s.checkLoad(e, "load", 0, s.Load, DefaultLoad.merge(s.Load))
	for _, key := range []struct{ name, val string }{{"server_cpus", s.Isolation.ServerCPUs}, {"client_cpus", s.Isolation.ClientCPUs}} {
		if key.val != "" && !cpuListPattern.MatchString(key.val) {
			e.add("isolation", 0, key.name, "%q is not a CPU list like \"0\", \"0-3\" or \"0,2\"", key.val)
		}
	}
	s.checkHosts(e)
	names := map[string]bool{}
	for i, sv := range s.Services {
		checkName(e, "service", i, sv.Name, names)
		if len(sv.Start) == 0 {
			e.add("service", i, "start", "missing: the argv that starts the service")
		}
		if len(sv.Version) == 0 {
			e.add("service", i, "version", "missing: the argv that prints its version, e.g. [\"postgres\", \"--version\"]")
		}
		if sv.Port < 0 || sv.Port > 65535 {
			e.add("service", i, "port", "%d is not a port", sv.Port)
		}
		if sv.ReadyTimeout < 0 {
			e.add("service", i, "ready_timeout", "%v is negative", sv.ReadyTimeout.Std())
		}
	}
	if len(s.Targets) == 0 {
		e.add("", 0, "target", "no [[target]]: a suite needs at least one")
	}
	names = map[string]bool{}
	for i, t := range s.Targets {
		checkName(e, "target", i, t.Name, names)
		if len(t.Start) == 0 {
			e.add("target", i, "start", "missing: the argv that starts the server")
		}
		if t.Port < 0 || t.Port > 65535 {
			e.add("target", i, "port", "%d is not a port", t.Port)
		}
		if t.Ready != "" && !strings.HasPrefix(t.Ready, "/") {
			e.add("target", i, "ready", "path %q must start with /", t.Ready)
		}
		if t.ReadyTimeout < 0 {
			e.add("target", i, "ready_timeout", "%v is negative", t.ReadyTimeout.Std())
		}
	}
	if len(s.Scenarios) == 0 {
		e.add("", 0, "scenario", "no [[scenario]]: a suite needs at least one")
	}
	names = map[string]bool{}
	variant := 0
	for i, sc := range s.Scenarios {
		checkName(e, "scenario", i, sc.Name, names)
		checkExchange(e, "scenario", i, sc.Request, sc.Expect)
		for _, v := range sc.Variants {
			checkExchange(e, "scenario.variant", variant, v.Request, v.Expect)
			variant++
		}
		s.checkLoad(e, "scenario", i, sc.Load, s.LoadFor(sc))
	}
	return errors.Join(e.errs...)
}

// checkHosts checks the [[host]] tables: named, reachable by a destination,
// one server and at most one client.
func (s *Suite) checkHosts(e *suiteErrors) {
	names := map[string]bool{}
	has := map[string]int{}
	for i, h := range s.Hosts {
		checkName(e, "host", i, h.Name, names)
		if h.SSH == "" || strings.HasPrefix(h.SSH, "-") || strings.ContainsAny(h.SSH, " \t\n'\"") {
			e.add("host", i, "ssh", "%q: give the destination as ssh takes it: [user@]address", h.SSH)
		}
		if h.Port < 0 || h.Port > 65535 {
			e.add("host", i, "port", "%d is not a port", h.Port)
		}
		if len(h.Roles) == 0 {
			e.add("host", i, "roles", "missing: [\"server\"], [\"client\"] or both")
		}
		for _, r := range h.Roles {
			if r != RoleServer && r != RoleClient {
				e.add("host", i, "roles", "%q: a host is a %q or a %q (services run on the server host, beside the targets)", r, RoleServer, RoleClient)
			}
			has[r]++
			if has[r] == 2 {
				e.add("host", i, "roles", "a second %q: a run has one server host and one client host (shard the suite to use more)", r)
			}
		}
	}
	if len(s.Hosts) > 0 && has[RoleServer] == 0 {
		e.add("host", 0, "roles", "no host has the role %q: the targets run there", RoleServer)
	}

}

// checkName checks a [[table]]'s name: present, path-safe and unique.
func checkName(e *suiteErrors, table string, i int, name string, seen map[string]bool) {
	switch {
	case name == "":
		e.add(table, i, "name", "missing")
	case !namePattern.MatchString(name):
		e.add(table, i, "name", "%q: use letters, digits, '.', '_' and '-' only", name)
	case seen[name]:
		e.add(table, i, "name", "%q is listed twice", name)
	}
	seen[name] = true
}

// checkLoad checks the keys a table sets (raw) and what they add up to
// with the defaults (eff).
func (s *Suite) checkLoad(e *suiteErrors, table string, i int, raw, eff Load) {
	key := func(k string) string {
		if table == "scenario" {
			return "load." + k
		}
		return k
	}
	at := func(k string) string {
		if table == "scenario" {
			return "load"
		}
		return k
	}
	bad := func(k, format string, args ...any) {
		line := s.lineOf(table, i, at(k))
		e.errs = append(e.errs, fmt.Errorf("%s:%d: %s: %s", s.File, line, key(k), fmt.Sprintf(format, args...)))
	}
	switch raw.Tool {
	case "", "wrk", "bombardier", "autocannon":
	default:
		bad("tool", "%q is not wrk, bombardier or autocannon", raw.Tool)
	}
	for _, c := range []struct {
		name string
		v    int
	}{{"threads", raw.Threads}, {"connections", raw.Connections}, {"repetitions", raw.Repetitions}, {"pipelining", raw.Pipelining}, {"rate", raw.Rate}} {
		if c.v < 0 {
			bad(c.name, "%d is negative", c.v)
		}
	}
	if raw.Duration < 0 {
		bad("duration", "%v is negative", raw.Duration.Std())
	}
	if raw.Warmup != nil && *raw.Warmup < 0 {
		bad("warmup", "%v is negative: write \"0s\" for no warm-up", raw.Warmup.Std())
	}
	if raw.Timeout < 0 {
		bad("timeout", "%v is negative", raw.Timeout.Std())
	}
	if eff.Duration.Std() > 0 && eff.Duration.Std() < time.Second && raw.Duration != 0 {
		bad("duration", "%v is shorter than 1s, the shortest window every tool keeps", raw.Duration.Std())
	}
	switch eff.Tool {
	case "wrk":
		if eff.Rate > 0 && (raw.Rate > 0 || raw.Tool != "") {
			bad("rate", "wrk has no rate cap: use bombardier or autocannon, or leave rate out")
		}
		if eff.Threads > eff.Connections && (raw.Threads > 0 || raw.Connections > 0 || raw.Tool != "") {
			bad("threads", "wrk needs at least as many connections (%d) as threads (%d)", eff.Connections, eff.Threads)
		}
	case "bombardier":
		if eff.Pipelining > 1 && (raw.Pipelining > 0 || raw.Tool != "") {
			bad("pipelining", "bombardier cannot pipeline: use wrk or autocannon")
		}
	}
}

// checkExchange checks one gate request and its expected response.
func checkExchange(e *suiteErrors, table string, i int, req Request, want Expect) {
	if !strings.HasPrefix(req.Path, "/") {
		e.add(table, i, "request", "path %q must start with /", req.Path)
	}
	if req.Method != "" && !methodPattern.MatchString(req.Method) {
		e.add(table, i, "request", "method %q is not an upper-case HTTP method", req.Method)
	}
	if req.Body != "" && req.BodyFile != "" {
		e.add(table, i, "request", "body and body_file both given: keep one")
	}
	if want.Status == 0 {
		e.add(table, i, "expect", "missing status")
	} else if want.Status < 100 || want.Status > 599 {
		e.add(table, i, "expect", "status %d is not an HTTP status", want.Status)
	}
	bodies := 0
	for _, set := range []bool{want.Body != nil, want.BodyFile != "", want.BodyJSON != nil} {
		if set {
			bodies++
		}
	}
	if bodies > 1 {
		e.add(table, i, "expect", "body, body_file and body_json are exclusive: keep one")
	}
	if want.BodyJSON != nil && !json.Valid([]byte(*want.BodyJSON)) {
		e.add(table, i, "expect", "body_json is not valid JSON: %q", *want.BodyJSON)
	}
	if want.BodyLength != nil && *want.BodyLength < 0 {
		e.add(table, i, "expect", "body_length %d is negative", *want.BodyLength)
	}
	if h := want.BodySHA256; h != "" && !sha256Pattern.MatchString(h) {
		e.add(table, i, "expect", "body_sha256 %q is not 64 hex digits", h)
	}
	for _, k := range sortedKeys(want.HeadersMatch) {
		if _, err := regexp.Compile(want.HeadersMatch[k]); err != nil {
			e.add(table, i, "expect", "headers_match.%s: %v", k, err)
		}
	}
}

// readBodyFiles reads every request and expected body_file, relative to
// base, into the body it stands for.
func (s *Suite) readBodyFiles(base string) error {
	e := &suiteErrors{s: s}
	read := func(table string, i int, key, name string) (string, string, bool) {
		path := name
		if !filepath.IsAbs(path) {
			path = filepath.Join(base, path)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			e.add(table, i, key, "body_file: %v", err)
			return "", "", false
		}
		abs, _ := filepath.Abs(path)
		return string(b), abs, true
	}
	load := func(table string, i int, req *Request, want *Expect) {
		if req.BodyFile != "" {
			if b, abs, ok := read(table, i, "request", req.BodyFile); ok {
				req.Body, req.BodyPath = b, abs
			}
		}
		if want.BodyFile != "" {
			if b, _, ok := read(table, i, "expect", want.BodyFile); ok {
				want.Body = &b
			}
		}
	}
	variant := 0
	for i := range s.Scenarios {
		sc := &s.Scenarios[i]
		load("scenario", i, &sc.Request, &sc.Expect)
		for k := range sc.Variants {
			load("scenario.variant", variant, &sc.Variants[k].Request, &sc.Variants[k].Expect)
			variant++
		}
	}
	return errors.Join(e.errs...)
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
		if (k > start || table == "") && strings.HasPrefix(t, "[") {
			break
		}
		if strings.HasPrefix(t, key+" ") || strings.HasPrefix(t, key+"=") {
			return k + 1
		}
	}
	return start + 1
}

// durationKeys are the keys whose values are Durations.
var durationKeys = []string{"duration", "warmup", "timeout", "ready_timeout"}

// bareDurations refuses a duration written as a number: TOML would read
// timeout = 2 as two nanoseconds.
func bareDurations(src []byte, name string) error {
	var doc map[string]any
	if toml.Unmarshal(src, &doc) != nil || !hasBareDuration(doc) {
		return nil
	}
	var errs []error
	for i, l := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		for _, k := range durationKeys {
			if m := bareDurationPattern(k).FindStringSubmatch(l); m != nil {
				errs = append(errs, fmt.Errorf("%s:%d: %s: %s is not a duration: write it as a string like \"%ss\"", name, i+1, k, m[1], m[1]))
			}
		}
	}
	return errors.Join(errs...)
}

func bareDurationPattern(key string) *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[{,\s])` + key + `\s*=\s*([-+0-9][0-9_.eE+-]*)\s*(?:$|[,}#])`)
}

// hasBareDuration reports whether a decoded document holds a duration key
// whose value is not a string.
func hasBareDuration(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if _, ok := e.(string); !ok && slices.Contains(durationKeys, k) {
				if _, table := e.(map[string]any); !table {
					return true
				}
			}
			if hasBareDuration(e) {
				return true
			}
		}
	case []any:
		for _, e := range v {
			if hasBareDuration(e) {
				return true
			}
		}
	case []map[string]any:
		for _, e := range v {
			if hasBareDuration(e) {
				return true
			}
		}
	}
	return false
}
