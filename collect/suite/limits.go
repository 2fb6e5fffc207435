package suite

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Limits bound what a suite may ask for: numbers past them are typing
// mistakes (connections = 1e9), not benchmarks. `fairbench help suite`
// lists them.
type Limits struct {
	Threads, Connections, Pipelining, Repetitions, Rate int
	// Window bounds duration and warmup; Timeout a request's timeout;
	// ReadyTimeout a target's or service's ready_timeout.
	Window, Timeout, ReadyTimeout time.Duration
	// BodyBytes bounds a body_file.
	BodyBytes int64
}

// DefaultLimits are the limits every suite is checked against.
var DefaultLimits = Limits{
	Threads:      1024,
	Connections:  100_000,
	Pipelining:   1024,
	Repetitions:  1000,
	Rate:         10_000_000,
	Window:       time.Hour,
	Timeout:      time.Minute,
	ReadyTimeout: time.Hour,
	BodyBytes:    64 << 20,
}

// checkLoad checks the keys a load table (at path) sets, raw, and what
// they add up to with the suite's and the defaults, eff. A key set to a
// zero that would mean nothing (connections = 0) is refused rather than
// read as "use the default".
func (s *Suite) checkLoad(e *suiteErrors, path string, raw, eff Load) {
	set := s.setter(path)
	bad := func(key, format string, args ...any) {
		e.errs = append(e.errs, s.errorAt(join(path, key), keyName(path, key), fmt.Sprintf(format, args...)))
	}
	s.checkPrecision(e, path, raw)
	switch raw.Tool {
	case "", "wrk", "bombardier", "autocannon":
	case "vegeta":
		bad("tool", "vegeta is the open-model tool of the [latency] table, not a closed-loop one: use wrk, bombardier or autocannon here")
	default:
		bad("tool", "%q is not wrk, bombardier or autocannon", raw.Tool)
	}
	lim, def := DefaultLimits, DefaultLoad
	for _, c := range []struct {
		name              string
		v, least, most, d int
	}{
		{"threads", raw.Threads, 1, lim.Threads, def.Threads},
		{"connections", raw.Connections, 1, lim.Connections, def.Connections},
		{"repetitions", raw.Repetitions, 1, lim.Repetitions, def.Repetitions},
		{"pipelining", raw.Pipelining, 1, lim.Pipelining, def.Pipelining},
		{"rate", raw.Rate, 0, lim.Rate, def.Rate}, // 0: no cap
	} {
		switch {
		case c.v == 0 && !set(c.name):
		case c.v < 0:
			bad(c.name, "%d is negative", c.v)
		case c.v < c.least:
			bad(c.name, "%d: give at least %d, or leave it out for the default (%d)", c.v, c.least, c.d)
		case c.v > c.most:
			bad(c.name, "%d is over the limit of %d", c.v, c.most)
		}
	}
	if raw.Duration != 0 || set("duration") {
		switch d := raw.Duration.Std(); {
		case d < 0:
			bad("duration", "%v is negative", d)
		case d < time.Second:
			bad("duration", "%v is shorter than 1s, the shortest window every tool keeps", d)
		case d > lim.Window:
			bad("duration", "%v is over the limit of %v", d, lim.Window)
		}
	}
	if raw.Warmup != nil {
		switch d := raw.Warmup.Std(); {
		case d < 0:
			bad("warmup", "%v is negative: write \"0s\" for no warm-up", d)
		case d > 0 && d < time.Second:
			// bombardier refuses a window under a second, autocannon counts whole seconds
			bad("warmup", "%v is shorter than 1s, the shortest window every tool keeps: give at least 1s, or \"0s\" for no warm-up", d)
		case d > lim.Window:
			bad("warmup", "%v is over the limit of %v", d, lim.Window)
		}
	}
	if raw.Timeout != 0 || set("timeout") {
		switch d := raw.Timeout.Std(); {
		case d < 0:
			bad("timeout", "%v is negative", d)
		case d == 0:
			bad("timeout", "0s would fail every request: give the time one may take, or leave it out for the default (%v)", def.Timeout.Std())
		case d > lim.Timeout:
			bad("timeout", "%v is over the limit of %v", d, lim.Timeout)
		}
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

// keyName is how an error names a load key: "duration" in [load],
// "load.duration" in a scenario.
func keyName(path, key string) string {
	if path == "load" {
		return key
	}
	return "load." + key
}

// checkReadyTimeout refuses a ready_timeout that is negative, zero (which
// would silently mean the default) or past the limit.
func (s *Suite) checkReadyTimeout(e *suiteErrors, path string, d Duration) {
	if d == 0 && !s.setter(path)("ready_timeout") {
		return
	}
	switch {
	case d < 0:
		e.add(path, "ready_timeout", "%v is negative", d.Std())
	case d == 0:
		e.add(path, "ready_timeout", "0s: give the time a fresh process may take to answer, or leave it out for the default")
	case d.Std() > DefaultLimits.ReadyTimeout:
		e.add(path, "ready_timeout", "%v is over the limit of %v", d.Std(), DefaultLimits.ReadyTimeout)
	}
}

// envNamePattern is an environment variable's name as a shell takes it.
var envNamePattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// checkEnv refuses names that would not be one variable ("A=B", "") and
// values with a NUL, which the kernel would cut.
func checkEnv(e *suiteErrors, path string, env map[string]string) {
	for _, k := range slices.Sorted(maps.Keys(env)) {
		if !envNamePattern.MatchString(k) {
			e.add(path, "env", "%q is not a variable name: use letters, digits and _, not starting with a digit", k)
		} else if strings.IndexByte(env[k], 0) >= 0 {
			e.add(path, "env", "%s: value holds a NUL byte", k)
		}
	}
}

// checkPhases checks the [latency] and [sweep] tables: the scenarios they
// name exist, each list holds sensible and distinct values, and the
// windows and counts stay within DefaultLimits.
func (s *Suite) checkPhases(e *suiteErrors) {
	lim := DefaultLimits
	if l := s.Latency; l != nil {
		set := s.setter("latency")
		s.checkPhaseScenarios(e, "latency", l.Scenarios)
		if set("fractions") && len(l.Fractions) == 0 && len(l.Rates) == 0 {
			e.add("latency", "fractions", "empty and no rates: give fractions of capacity (e.g. [0.5, 0.9]) or rates in req/s")
		}
		seenF := map[float64]bool{}
		for _, f := range l.Fractions {
			switch {
			case !(f > 0 && f <= 1):
				e.add("latency", "fractions", "%v is not a share of capacity in (0, 1]: a rate above capacity measures a queue, not the server", f)
			case seenF[f]:
				e.add("latency", "fractions", "%v is listed twice", f)
			}
			seenF[f] = true
		}
		seenR := map[int]bool{}
		for _, r := range l.Rates {
			switch {
			case r < 1:
				e.add("latency", "rates", "%d: give req/s of at least 1", r)
			case r > lim.Rate:
				e.add("latency", "rates", "%d is over the limit of %d", r, lim.Rate)
			case seenR[r]:
				e.add("latency", "rates", "%d is listed twice", r)
			}
			seenR[r] = true
		}
		s.checkPhaseWindow(e, "latency", l.PhaseKeys)
		if l.MaxWorkers != 0 || set("max_workers") {
			if l.MaxWorkers < 1 || l.MaxWorkers > lim.Connections {
				e.add("latency", "max_workers", "%d: give 1 to %d, or leave it out for the scenario's connections", l.MaxWorkers, lim.Connections)
			}
		}
		if l.Timeout != 0 || set("timeout") {
			if d := l.Timeout.Std(); d <= 0 || d > lim.Timeout {
				e.add("latency", "timeout", "%v: give the time a request may take, up to %v, or leave it out for the scenario's", d, lim.Timeout)
			}
		}
	}
	if w := s.Sweep; w != nil {
		s.checkPhaseScenarios(e, "sweep", w.Scenarios)
		if s.setter("sweep")("connections") && len(w.Connections) == 0 {
			e.add("sweep", "connections", "empty: give connection counts, e.g. [1, 8, 64, 256]")
		}
		seen := map[int]bool{}
		for _, n := range w.Connections {
			switch {
			case n < 1 || n > lim.Connections:
				e.add("sweep", "connections", "%d: give 1 to %d", n, lim.Connections)
			case seen[n]:
				e.add("sweep", "connections", "%d is listed twice", n)
			}
			seen[n] = true
		}
		s.checkPhaseWindow(e, "sweep", w.PhaseKeys)
	}
}

// checkPhaseScenarios checks that a phase's scenarios are the suite's,
// each named once.
func (s *Suite) checkPhaseScenarios(e *suiteErrors, table string, names []string) {
	seen := map[string]bool{}
	for _, n := range names {
		switch {
		case !slices.ContainsFunc(s.Scenarios, func(sc Scenario) bool { return sc.Name == n }):
			e.add(table, "scenarios", "%q is not a scenario of this suite", n)
		case seen[n]:
			e.add(table, "scenarios", "%q is listed twice", n)
		}
		seen[n] = true
	}
}

// checkPhaseWindow checks a phase's duration, warmup and repetitions
// (its scenarios are checkPhaseScenarios's, whose errors come first).
func (s *Suite) checkPhaseWindow(e *suiteErrors, table string, k PhaseKeys) {
	set, lim := s.setter(table), DefaultLimits
	d, warmup, reps := k.Duration, k.Warmup, k.Repetitions
	if d != 0 || set("duration") {
		if v := d.Std(); v < time.Second || v > lim.Window {
			e.add(table, "duration", "%v: give 1s to %v, or leave it out for the default", v, lim.Window)
		}
	}
	if warmup != nil {
		if v := warmup.Std(); v < 0 || v > 0 && v < time.Second || v > lim.Window {
			e.add(table, "warmup", "%v: give 0s (none), or 1s to %v", v, lim.Window)
		}
	}
	if reps != 0 || set("repetitions") {
		if reps < 1 || reps > lim.Repetitions {
			e.add(table, "repetitions", "%d: give 1 to %d, or leave it out for the default", reps, lim.Repetitions)
		}
	}
}
