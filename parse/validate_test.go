package parse

import (
	"bytes"
	"errors"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// requestsPerSec finds wrk's "Requests/sec:" figure.
var requestsPerSec = regexp.MustCompile(`Requests/sec:\s+([0-9.]+)`)

// TestCutInsideRequestsPerSec cuts every wrk and wrk2 fixture inside its
// first "Requests/sec:" figure, two digits in ("23926.11" becomes "23"): the
// requests and duration printed above it give another rate, so the run is
// refused with a *SyntaxError at its file and line, never read as rps 23.
func TestCutInsideRequestsPerSec(t *testing.T) {
	names, _ := filepath.Glob("testdata/wrk*-*__*.txt")
	cut := 0
	for _, name := range names {
		in := readFixture(t, name)
		loc := requestsPerSec.FindSubmatchIndex(in)
		if loc == nil {
			continue
		}
		figure, _ := strconv.ParseFloat(string(in[loc[2]:loc[3]]), 64)
		if figure == 0 {
			continue // "0.00": no rate to cut
		}
		cut++
		truncated := in[:loc[2]+2]
		short, _ := strconv.ParseFloat(strings.TrimSuffix(string(in[loc[2]:loc[2]+2]), "."), 64)
		ms, _, errs := readFrom(NewReader(bytes.NewReader(truncated), name))
		for _, m := range ms {
			if m.ToolRPS == short {
				t.Errorf("%s cut inside %q: read as req/s %g", name, in[loc[0]:loc[1]], m.ToolRPS)
			}
		}
		if !hasSyntaxError(errs, name, "req/s") {
			t.Errorf("%s cut inside %q: errors %v, want a *SyntaxError naming the file and line", name, in[loc[0]:loc[1]], errs)
		}
	}
	if cut < 12 {
		t.Errorf("cut %d wrk and wrk2 fixtures, want every one with a rate (12)", cut)
	}
}

// hasSyntaxError reports whether errs holds a *SyntaxError at a line of
// file whose message says what.
func hasSyntaxError(errs []error, file, what string) bool {
	for _, err := range errs {
		var se *SyntaxError
		if errors.As(err, &se) && se.File == file && se.Line > 0 && strings.Contains(se.Msg, what) {
			return true
		}
	}
	return false
}

// TestOutOfRange feeds each dialect figures no run can print: negative
// counts, rates and times, a duration that overflows a time.Duration, a
// rate that draws an infinite bar, percentiles outside 0-100%. Each run is
// refused with a *SyntaxError at its file:line; none is read.
func TestOutOfRange(t *testing.T) {
	wrk := string(readFixture(t, "testdata/wrk-4.1.0__latency.txt"))
	bombardier := string(readFixture(t, "testdata/bombardier-1.2.6__json_latencies.json"))
	autocannon := string(readFixture(t, "testdata/autocannon-9.0.0__json.json"))
	for _, c := range []struct {
		name, dump, what string
	}{
		{"wrk percentile 500%", strings.Replace(wrk, "99%", "500%", 1), "out of range"},
		{"wrk percentile -5%", strings.Replace(wrk, "50%", "-5%", 1), ""},
		{"wrk percentile NaN%", strings.Replace(wrk, "75%", "NaN%", 1), ""},
		{"wrk negative latency", strings.Replace(wrk, "90%    1.94ms", "90%   -1.94ms", 1), ""},
		{"wrk latency above max", strings.Replace(wrk, "99%    7.91ms", "99%   79.10ms", 1), "above the max latency"},
		{"wrk percentiles falling", strings.Replace(wrk, "75%  788.00us", "75%  208.00us", 1), "below p50"},
		{"wrk transfer/sec", strings.Replace(wrk, "2.94MB", "29.40MB", 1), "bytes/s"},
		{"bombardier negative rps", strings.Replace(bombardier, `"mean":28561.568037876597`, `"mean":-28561.5`, 1), "out of range"},
		{"bombardier rps 1e308", strings.Replace(bombardier, `"mean":28561.568037876597`, `"mean":1e308`, 1), "out of range"},
		{"bombardier time taken 1e308", strings.Replace(bombardier, `"timeTakenSeconds":1.999799525`, `"timeTakenSeconds":1e308`, 1), "timeTakenSeconds: measured"},
		{"bombardier negative time taken", strings.Replace(bombardier, `"timeTakenSeconds":1.999799525`, `"timeTakenSeconds":-2`, 1), "timeTakenSeconds"},
		{"bombardier negative requests", strings.Replace(bombardier, `"req2xx":57132`, `"req2xx":-57132`, 1), "out of range"},
		{"bombardier negative latency", strings.Replace(bombardier, `"latency":{"mean":347.26710074914234`, `"latency":{"mean":-347.2`, 1), "out of range"},
		{"bombardier rps 10x", strings.Replace(bombardier, `"mean":28561.568037876597`, `"mean":285615.68`, 1), "req/s"},
		{"bombardier percentile 500", strings.Replace(bombardier, `"99":2638`, `"500":2638`, 1), "out of range"},
		{"autocannon rps 10x", strings.Replace(autocannon, `"average":17686,"mean":17686`, `"average":176860,"mean":176860`, 1), "per-second mean"},
		{"autocannon duration 1e308", regexp.MustCompile(`"duration":[0-9.]+`).ReplaceAllString(autocannon, `"duration":1e308`), "between its start and finish"},
		{"autocannon negative latency", strings.Replace(autocannon, `"average":0.18,"mean":0.18`, `"average":-3,"mean":-3`, 1), "out of range"},
	} {
		if c.dump == wrk || c.dump == bombardier || c.dump == autocannon {
			t.Fatalf("%s: the replacement did not apply", c.name)
		}
		ms, _, errs := readString("x.txt", c.dump)
		if len(ms) > 0 {
			t.Errorf("%s: read %d runs:%s", c.name, len(ms), dumpFields(ms[0]))
		}
		if !hasSyntaxError(errs, "x.txt", c.what) {
			t.Errorf("%s: errors %v, want a *SyntaxError at x.txt:line saying %q", c.name, errs, c.what)
		}
	}
}

// TestNanosSaturates: a number of seconds beyond a Duration saturates
// instead of wrapping to a negative or small time.
func TestNanosSaturates(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want time.Duration
	}{
		{math.MaxFloat64, math.MaxInt64}, {-1e308, math.MinInt64}, {math.Inf(1), math.MaxInt64},
		{math.NaN(), 0}, {1.5, 2}, {float64(time.Hour), time.Hour},
	} {
		if got := nanos(c.in); got != c.want {
			t.Errorf("nanos(%g) = %d, want %d", c.in, got, c.want)
		}
	}
	if got := seconds(1e308); got != math.MaxInt64 {
		t.Errorf("seconds(1e308) = %v, want the largest Duration", got)
	}
}

// TestThroughput checks RPS, its basis and the good share for each tool
// against the figures each dump prints.
func TestThroughput(t *testing.T) {
	for _, c := range []struct {
		file            string
		rps, good, tool float64
		basis, goodness string
	}{
		// wrk: "48333 requests in 2.02s"; it counts no statuses below 400 as bad.
		{"testdata/wrk-4.1.0__latency.txt", 48333 / 2.02, 48333 / 2.02, 23926.11, RPSPerDuration, GoodBelow400},
		// "64540 requests in 2.10s", "Non-2xx or 3xx responses: 64540".
		{"testdata/wrk-4.1.0__non2xx_500.txt", 64540 / 2.10, 0, 30728.90, RPSPerDuration, GoodBelow400},
		// bombardier JSON: req2xx 57132 over timeTakenSeconds, not its mean of samples.
		{"testdata/bombardier-1.2.6__json_latencies.json", 57132 / 1.999799525, 57132 / 1.999799525, 28561.568037876597, RPSPerDuration, Good2xx},
		// bombardier text without its command: no window; its rate counts the
		// 57833 refused connections, none of them a response.
		{"testdata/bombardier-1.2.6__conn_refused.txt", 28597.82, 0, 28597.82, RPSAsPrinted, Good2xx},
		// bombardier text prints no duration: "-d 10s" of the harness's command.
		{"testdata/bun/ba1520c/results/bun/elysia.txt", 4025543 / 10.0, 4025543 / 10.0, 402997.65, RPSPerWindow, Good2xx},
		// autocannon's text: 7336 2xx of 7336+7337+7337+7337 responses in 2.02s.
		{"testdata/autocannon-9.0.0__status_codes_mixed.txt", 29347 / 2.02, 7336 / 2.02, 14672, RPSPerDuration, Good2xx},
		// "0 2xx responses, 25695 non 2xx responses" beside "26k requests".
		{"testdata/autocannon-9.0.0__non2xx_500.txt", 25695 / 2.02, 0, 12848, RPSPerDuration, Good2xx},
		// Only "35k requests" (sent, rounded): nothing counts the responses.
		{"testdata/autocannon-9.0.0__default.txt", 17674, 17674, 17674, RPSAsPrinted, Good2xx},
		// autocannon JSON: requests.total 35376 in 2.01s.
		{"testdata/autocannon-9.0.0__json.json", 35376 / 2.01, 35376 / 2.01, 17686, RPSPerDuration, Good2xx},
	} {
		ms, _, errs := readRecords(t, c.file)
		if len(errs) > 0 || len(ms) == 0 {
			t.Errorf("%s: %d runs, errors %v", c.file, len(ms), errs)
			continue
		}
		m := ms[0]
		if !near(m.RPS, c.rps) || !near(m.GoodRPS(), c.good) || m.ToolRPS != c.tool || m.RPSBasis != c.basis || m.GoodBasis != c.goodness {
			t.Errorf("%s: rps %v (%s) good %v (%s) tool %v; want %v (%s) %v (%s) %v",
				c.file, m.RPS, m.RPSBasis, m.GoodRPS(), m.GoodBasis, m.ToolRPS, c.rps, c.basis, c.good, c.goodness, c.tool)
		}
	}
}

// near compares floats to a relative 1e-9.
func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }

// TestFinishIdempotent: what the Reader yields passes its own checks again,
// with the same throughput.
func TestFinishIdempotent(t *testing.T) {
	for _, name := range goldenDumps(t) {
		ms, _, _ := readRecords(t, name)
		for _, m := range ms {
			again := *m
			if p := finishMeasurement(&again); len(p) > 0 || again.RPS != m.RPS || again.RPSBasis != m.RPSBasis {
				t.Errorf("%s:%d: %v; rps %v (%s) then %v (%s)", name, m.Source.LineStart, p, m.RPS, m.RPSBasis, again.RPS, again.RPSBasis)
			}
		}
	}
}

// TestTargetOutOfRange: a harness's facts about a target are range-checked
// too: a negative memory or startup time is refused at its file:line.
func TestTargetOutOfRange(t *testing.T) {
	dump := string(readFixture(t, "testdata/bun/ba1520c/results/bun/elysia.txt"))
	for _, c := range [][2]string{
		{"Memory before: 37.0 MB", "Memory before: -37.0 MB"},
		{"Startup: 51.1 ms", "Startup: -51.1 ms"},
		{"Bundle: 160.8 KB", "Bundle: 99999999999999999999 KB"},
	} {
		bad := strings.Replace(dump, c[0], c[1], 1)
		_, ts, errs := readString("x.txt", bad)
		if len(ts) > 0 || !hasSyntaxError(errs, "x.txt", "") {
			t.Errorf("%q: %d targets, errors %v; want none and a *SyntaxError at x.txt:line", c[1], len(ts), errs)
		}
	}
}

// TestFinishAllocs: checking a clean run allocates nothing, so that the
// checks cost a folder of 100,000 dumps no garbage.
func TestFinishAllocs(t *testing.T) {
	ms, _, _ := readRecords(t, "testdata/autocannon-9.0.0__json.json")
	m, again := *ms[0], new(Measurement)
	if n := testing.AllocsPerRun(100, func() {
		*again = m
		finishMeasurement(again)
	}); n > 0 {
		t.Errorf("%v allocations per clean run", n)
	}
}
