package suite

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/fairbench/fairbench/parse/runjson"
	"github.com/fairbench/fairbench/parse/tomlfile"
	"github.com/samber/lo"
)

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

// add records a problem with key in the table at path ("" for the top
// level, "target.2" for the second [[target]]).
func (e *suiteErrors) add(path, key, format string, args ...any) {
	e.errs = append(e.errs, e.s.errorAt(join(path, key), key, fmt.Sprintf(format, args...)))
}

// errorAt is "file:line: key: msg" at the line of the key path, or at the
// line of its table where the file does not set the key.
func (s *Suite) errorAt(path, key, msg string) error {
	line := 1
	if s.keys != nil {
		line = s.keys.Line(path)
	}
	return fmt.Errorf("%s:%d: %s: %s", s.File, line, key, msg)
}

// join is a key path: table path and key.
func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// at is the path of the i-th (from 0) table of an array of tables.
func at(table string, i int) string { return fmt.Sprintf("%s.%d", table, i+1) }

func (s *Suite) check() error {
	e := &suiteErrors{s: s}
	if s.Name == "" {
		e.add("", "name", "missing: name the suite")
	}
	s.checkLoad(e, "load", s.Load, DefaultLoad.merge(s.Load, s.setter("load")))
	for _, key := range []struct{ name, val string }{{"server_cpus", s.Isolation.ServerCPUs}, {"client_cpus", s.Isolation.ClientCPUs}} {
		if key.val == "" {
			continue
		}
		if !cpuListPattern.MatchString(key.val) {
			e.add("isolation", key.name, "%q is not a CPU list like \"0\", \"0-3\" or \"0,2\"", key.val)
		} else if _, err := runjson.ParseCPUList(key.val); err != nil {
			e.add("isolation", key.name, "%v", err)
		}
	}
	if r := s.Isolation.RetakeSlow; r != 0 && (r < 1.05 || r > 10 || math.IsNaN(r)) {
		e.add("isolation", "retake_slow", "%v: give the slowdown of the host speed probe at which a turn is taken again, from 1.05 to 10 (1.25: it took a quarter longer than the run's typical turn), or 0 for never", r)
	}
	s.checkHosts(e)
	names := nameSet{}
	for i, sv := range s.Services {
		p := at("service", i)
		checkName(e, p, sv.Name, names)
		if len(sv.Start) == 0 {
			e.add(p, "start", "missing: the argv that starts the service")
		}
		if len(sv.Version) == 0 {
			e.add(p, "version", "missing: the argv that prints its version, e.g. [\"postgres\", \"--version\"]")
		}
		if sv.Port < 0 || sv.Port > 65535 {
			e.add(p, "port", "%d is not a port", sv.Port)
		}
		s.checkReadyTimeout(e, p, sv.ReadyTimeout)
		checkEnv(e, p, sv.Env)
	}
	if len(s.Targets) == 0 {
		e.add("", "target", "no [[target]]: a suite needs at least one")
	}
	targets := nameSet{}
	for i, t := range s.Targets {
		p := at("target", i)
		checkName(e, p, t.Name, targets)
		checkRuntime(e, p, t.Runtime)
		if len(t.Start) == 0 {
			e.add(p, "start", "missing: the argv that starts the server")
		}
		if t.Port < 0 || t.Port > 65535 {
			e.add(p, "port", "%d is not a port", t.Port)
		}
		if t.Ready != "" && (!strings.HasPrefix(t.Ready, "/") || HasControl(t.Ready, false)) {
			e.add(p, "ready", "path %q must start with / and hold no spaces or control characters", t.Ready)
		}
		s.checkReadyTimeout(e, p, t.ReadyTimeout)
		checkEnv(e, p, t.Env)
		checkPackages(e, p, t.Packages)
	}
	if len(s.Scenarios) == 0 {
		e.add("", "scenario", "no [[scenario]]: a suite needs at least one")
	}
	names = nameSet{}
	variant := 0
	for i, sc := range s.Scenarios {
		p := at("scenario", i)
		checkName(e, p, sc.Name, names)
		checkExchange(e, p, sc.Request, sc.Expect)
		for _, v := range sc.Variants {
			variant++
			checkExchange(e, fmt.Sprintf("%s.variant.%d", p, variant), v.Request, v.Expect)
		}
		s.checkLoad(e, p+".load", sc.Load, s.loadAt(p+".load", sc.Load))
	}
	s.checkAAPair(e, targets)
	s.checkPlanted(e, targets)
	s.checkResets(e) // reset.go
	s.checkRandom(e) // gate_random.go
	s.checkPhases(e) // phase.go
	return errors.Join(e.errs...)
}

// packagePattern is an npm package name (scoped or not) or a Go module
// path: no "..", no leading "/", nothing but the characters they use.
var packagePattern = regexp.MustCompile(`^(@[a-z0-9][a-z0-9._~-]*/)?[A-Za-z0-9][A-Za-z0-9._~+/-]*$`)

// checkPackages checks a target's packages: names that are read under
// node_modules or matched in go version -m, so none may leave that folder.
func checkPackages(e *suiteErrors, path string, pkgs []string) {
	seen := map[string]bool{}
	for _, name := range pkgs {
		switch {
		case !packagePattern.MatchString(name) || strings.Contains(name, "..") || strings.Contains(name, "//"):
			e.add(path, "packages", "%q is not an npm package name or a Go module path", name)
		case seen[name]:
			e.add(path, "packages", "%q is listed twice", name)
		}
		seen[name] = true
	}
}

// checkExchange checks one gate request and its expected response. A
// request is sent as written, so a control character in its path or
// headers (a CR LF that would end a header early) is refused here rather
// than blamed on the server later.
func checkExchange(e *suiteErrors, path string, req Request, want Expect) {
	if !strings.HasPrefix(req.Path, "/") {
		e.add(path, "request", "path %q must start with /", req.Path)
	} else if HasControl(req.Path, false) {
		e.add(path, "request", "path %q holds a space or control character: percent-encode it (%%20, %%0D%%0A)", req.Path)
	}
	if req.Method != "" && !methodPattern.MatchString(req.Method) {
		e.add(path, "request", "method %q is not an upper-case HTTP method", req.Method)
	}
	checkHeaders(e, path, "request", "headers", req.Headers)
	if req.Body != "" && req.BodyFile != "" {
		e.add(path, "request", "body and body_file both given: keep one")
	}
	if want.Status == 0 {
		e.add(path, "expect", "missing status")
	} else if want.Status < 100 || want.Status > 599 {
		e.add(path, "expect", "status %d is not an HTTP status", want.Status)
	}
	if lo.Count([]bool{want.Body != nil, want.BodyFile != "", want.BodyJSON != nil}, true) > 1 {
		e.add(path, "expect", "body, body_file and body_json are exclusive: keep one")
	}
	if want.BodyJSON != nil && !json.Valid([]byte(*want.BodyJSON)) {
		e.add(path, "expect", "body_json is not valid JSON: %q", *want.BodyJSON)
	}
	if want.BodyLength != nil && *want.BodyLength < 0 {
		e.add(path, "expect", "body_length %d is negative", *want.BodyLength)
	}
	if h := want.BodySHA256; h != "" && !sha256Pattern.MatchString(h) {
		e.add(path, "expect", "body_sha256 %q is not 64 hex digits", h)
	}
	checkHeaders(e, path, "expect", "headers", want.Headers)
	checkHeaders(e, path, "expect", "headers_equal", want.HeadersEqual)
	for _, k := range slices.Sorted(maps.Keys(want.HeadersMatch)) {
		if _, err := regexp.Compile(want.HeadersMatch[k]); err != nil {
			e.add(path, "expect", "headers_match.%s: %v", k, err)
		}
	}
}

// tokenPattern is an HTTP header name (RFC 9110's token).
var tokenPattern = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")

// checkHeaders refuses a header name that is not a token and a value with
// a control character other than a tab.
func checkHeaders(e *suiteErrors, path, table, key string, headers map[string]string) {
	for _, name := range slices.Sorted(maps.Keys(headers)) {
		switch v := headers[name]; {
		case !tokenPattern.MatchString(name):
			e.add(path, table, "%s: header name %q is not an HTTP token (letters, digits, -, no spaces or control characters)", key, name)
		case HasControl(v, true):
			e.add(path, table, "%s.%s: value %q holds a control character (CR, LF, NUL…): a header value is one line of text", key, name, v)
		}
	}
}

// HasControl reports whether s holds an ASCII control character or DEL;
// a space counts too unless spaceOK (which also lets a tab through).
func HasControl(s string, spaceOK bool) bool {
	return strings.ContainsFunc(s, func(r rune) bool {
		if spaceOK && (r == ' ' || r == '\t') {
			return false
		}
		return r <= ' ' || r == 0x7f
	})
}

// checkAAPair checks aa_pair and aa_pairs: each pair two different
// targets of the suite, no target in two pairs, and not both keys.
func (s *Suite) checkAAPair(e *suiteErrors, targets nameSet) {
	if s.AAPair != nil && s.AAPairs != nil {
		e.add("", "aa_pairs", "set aa_pair or aa_pairs, not both: aa_pairs names every pair, the first of them the run's noise floor")
		return
	}
	if s.AAPair != nil {
		checkPair(e, "aa_pair", s.AAPair, targets)
	}
	seen := map[string]bool{}
	for _, pair := range s.AAPairs {
		if !checkPair(e, "aa_pairs", pair, targets) {
			continue
		}
		for _, name := range pair {
			if seen[name] {
				e.add("", "aa_pairs", "%q is in two pairs: a target is the twin of one other", name)
			}
			seen[name] = true
		}
	}
}

// checkPair checks one A/A pair under key: two different targets; false
// when it is not two different names.
func checkPair(e *suiteErrors, key string, pair []string, targets nameSet) bool {
	if len(pair) != 2 || pair[0] == pair[1] {
		e.add("", key, "%q: name two different targets, one program under two names, e.g. [\"stdlib\", \"stdlib-aa\"]", pair)
		return false
	}
	for _, name := range pair {
		if !targets.has(name) {
			e.add("", key, "%q is not a target of this suite", name)
		}
	}
	return true
}

// checkPlanted checks each target's planted_on: another target of the
// suite, itself no planted one (a difference is planted on a base).
func (s *Suite) checkPlanted(e *suiteErrors, targets nameSet) {
	planted := map[string]bool{}
	for _, t := range s.Targets {
		planted[t.Name] = t.PlantedOn != ""
	}
	for i, t := range s.Targets {
		switch base := t.PlantedOn; {
		case base == "":
		case base == t.Name:
			e.add(at("target", i), "planted_on", "%q names the target itself: name the target it adds a cost to", base)
		case !targets.has(base):
			e.add(at("target", i), "planted_on", "%q is not a target of this suite", base)
		case planted[base]:
			e.add(at("target", i), "planted_on", "%q is itself planted on another target: name the base", base)
		}
	}
}

// readBodyFiles reads every request and expected body_file, relative to
// base, into the body it stands for.
func (s *Suite) readBodyFiles(base string) error {
	e := &suiteErrors{s: s}
	read := func(path, key, name string) (string, string, bool) {
		file := name
		if !filepath.IsAbs(file) {
			file = filepath.Join(base, file)
		}
		b, err := tomlfile.ReadRegular(file, DefaultLimits.BodyBytes)
		if err != nil {
			e.add(path, key, "body_file: %v", err)
			return "", "", false
		}
		abs, _ := filepath.Abs(file)
		return string(b), abs, true
	}
	load := func(path string, req *Request, want *Expect) {
		if req.BodyFile != "" {
			if b, abs, ok := read(path, "request", req.BodyFile); ok {
				req.Body, req.BodyPath = b, abs
			}
		}
		if want.BodyFile != "" {
			if b, _, ok := read(path, "expect", want.BodyFile); ok {
				want.Body = &b
			}
		}
	}
	variant := 0
	for i := range s.Scenarios {
		sc := &s.Scenarios[i]
		load(at("scenario", i), &sc.Request, &sc.Expect)
		for k := range sc.Variants {
			variant++
			load(fmt.Sprintf("%s.variant.%d", at("scenario", i), variant), &sc.Variants[k].Request, &sc.Variants[k].Expect)
		}
	}
	return errors.Join(e.errs...)
}
