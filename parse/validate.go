package parse

import (
	"fmt"
	"math"
	"time"
)

// Every measurement a Reader yields passes through here, whatever the
// dialect: its figures are range-checked, those a dump prints twice over
// (a rate beside the count and duration it comes from, percentiles beside
// the minimum and maximum) are checked against each other, and RPS is set
// from the completed requests and the measured window. A measurement that
// fails is not yielded; each problem is a *SyntaxError naming the file and
// the line where the tool run starts. A dump cut inside a number
// ("Requests/sec:  23" of 23926.11) or edited by hand fails here, where
// each reader alone would take the figure as printed.

// Bounds on what a load generator run can print. They are far beyond any
// real run, and there to keep impossible numbers (1e308, a wrapped
// duration) out of statistics and pages.
const (
	maxRate     = 1e9              // req/s: a thousand times the fastest HTTP servers
	maxCount    = 1e15             // requests, bytes, errors
	maxWindow   = 1000 * time.Hour // a run's window or measured duration
	maxLatency  = 1000 * time.Hour // no answer takes longer than a run
	maxClients  = 100_000_000      // connections, threads, pipelining
	maxByteRate = 1e15             // bytes/s
	minPercent  = 0.0              // a percentile's P, in percent
	maxPercent  = 100.0            //
	exactSlack  = 0.03             // tolerance of a figure a tool derives exactly, printed rounded
)

// finishMeasurement checks m and sets the fields every dialect shares
// (RPS, RPSBasis, GoodBasis). It returns one message per problem; m must
// not be used when there are any.
func finishMeasurement(m *Measurement) []string {
	v := &validation{m: m}
	v.ranges()
	if len(v.problems) == 0 {
		v.crossChecks()
	}
	if len(v.problems) == 0 {
		m.RPS, m.RPSBasis = m.throughput()
		m.GoodBasis = m.goodBasis()
		if m.RPS > maxRate || m.RPS < 0 || math.IsNaN(m.RPS) {
			v.addf("req/s %g (%s) is out of range", m.RPS, m.RPSBasis)
		}
	}
	return v.problems
}

// validation gathers the problems with one measurement.
type validation struct {
	m        *Measurement
	problems []string
}

func (v *validation) addf(format string, args ...any) {
	v.problems = append(v.problems, fmt.Sprintf(format, args...))
}

// rate checks a rate or other real figure: finite, not negative, at most hi.
func (v *validation) rate(name string, x, hi float64) {
	if badRate(x, hi) {
		v.addf("%s %g is out of range (0 to %g)", name, x, hi)
	}
}

func badRate(x, hi float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) || x < 0 || x > hi }

// count checks a count: not negative, at most maxCount.
func (v *validation) count(name string, n int64) {
	if badCount(n) {
		v.addf("%s %d is out of range (0 to %g)", name, n, float64(maxCount))
	}
}

func badCount(n int64) bool { return n < 0 || n > maxCount }

// span checks a duration: not negative, at most hi.
func (v *validation) span(name string, d, hi time.Duration) {
	if badSpan(d, hi) {
		v.addf("%s %s is out of range (0 to %s)", name, d, hi)
	}
}

func badSpan(d, hi time.Duration) bool { return d < 0 || d > hi }

// ranges checks every field on its own.
func (v *validation) ranges() {
	m := v.m
	for _, c := range []struct {
		name string
		n    int
	}{{"connections", m.Connections}, {"threads", m.Threads}, {"pipelining", m.Pipelining}} {
		if c.n < 0 || c.n > maxClients {
			v.addf("%s %d is out of range (0 to %d)", c.name, c.n, maxClients)
		}
	}
	v.rate("the requested rate", m.Rate, maxRate)
	v.span("the window", m.Window, maxWindow)
	v.span("the duration", m.Duration, maxWindow)
	v.count("requests", m.Requests)
	v.count("requests sent", m.RequestsSent)
	v.count("bytes read", m.BytesRead)
	v.rate("req/s", m.ToolRPS, maxRate)
	v.rate("the req/s stdev", m.RPSStdev, maxRate)
	v.rate("the req/s max", m.RPSMax, maxRate)
	v.rate("the req/s min", m.RPSMin, maxRate)
	v.rate("req/s per thread", m.PerThreadRPS.Mean, maxRate)
	v.rate("the req/s per thread stdev", m.PerThreadRPS.Stdev, maxRate)
	v.rate("the req/s per thread max", m.PerThreadRPS.Max, maxRate)
	v.rate("bytes/s", m.BytesPerSec, maxByteRate)
	for _, p := range m.RPSPercentiles { // names formatted only for a problem
		v.percent("a req/s percentile", p.P)
		if badRate(p.Value, maxRate) {
			v.rate(fmt.Sprintf("req/s p%g", p.P), p.Value, maxRate)
		}
	}
	l := m.Latency
	v.span("the mean latency", l.Mean, maxLatency)
	v.span("the latency stdev", l.Stdev, maxLatency)
	v.span("the max latency", l.Max, maxLatency)
	v.span("the min latency", l.Min, maxLatency)
	v.count("latency samples", l.Samples)
	for _, b := range l.Buckets {
		if badSpan(b.Low, maxLatency) || badSpan(b.High, maxLatency) || badCount(b.Count) {
			v.addf("latency bucket [%s, %s] of %d is out of range", b.Low, b.High, b.Count)
			break
		}
	}
	o := m.Open
	v.rate("the send rate", o.SendRate, maxRate)
	v.rate("the offered rate's fraction of capacity", o.Fraction, maxRate)
	v.rate("the capacity", o.Capacity, maxRate)
	v.span("the time sending fell behind", o.Behind, maxWindow)
	v.span("the wait for the last responses", o.Wait, maxWindow)
	v.rate("the success ratio", o.Success, 1)
	for _, p := range l.Percentiles {
		v.percent("a latency percentile", p.P)
		if badSpan(p.Value, maxLatency) {
			v.span(fmt.Sprintf("latency p%g", p.P), p.Value, maxLatency)
		}
	}
	s := m.Status
	for _, c := range []struct {
		name string
		n    int64
	}{{"1xx responses", s.C1xx}, {"2xx responses", s.C2xx}, {"3xx responses", s.C3xx}, {"4xx responses", s.C4xx},
		{"5xx responses", s.C5xx}, {"other statuses", s.Other}, {"non-2xx responses", s.Non2xx}} {
		v.count(c.name, c.n)
	}
	e := m.Errors
	for _, c := range []struct {
		name string
		n    int64
	}{{"connect errors", e.Connect}, {"read errors", e.Read}, {"write errors", e.Write}, {"timeout errors", e.Timeout},
		{"other errors", e.Other}, {"body mismatches", e.Mismatches}} {
		v.count(c.name, c.n)
	}
	for _, msg := range e.Messages {
		if badCount(msg.Count) {
			v.count(fmt.Sprintf("the count of error %q", msg.Text), msg.Count)
		}
	}
}

// percent checks a percentile's P.
func (v *validation) percent(what string, p float64) {
	if math.IsNaN(p) || p < minPercent || p > maxPercent {
		v.addf("%s at %g%% is out of range (0%% to 100%%)", what, p)
	}
}

// crossChecks compares the figures a dump prints that follow from others.
func (v *validation) crossChecks() {
	m := v.m
	// Only wrk derives its rates from its counts (requests and bytes ÷
	// duration, printed rounded): there a printed rate must agree with them.
	// bombardier's and autocannon's rates are means of rates sampled during
	// the window: a window with a stall in it prints a mean far from its
	// counts ÷ duration (a real bombardier warm-up: 7,075 req/s beside 174
	// requests in 1.08 s), so nothing is derived for them.
	if (m.Tool == ToolWrk || m.Tool == ToolWrk2) && m.Duration > 0 {
		if rate := float64(m.Requests) / m.Duration.Seconds(); m.ToolRPS > 0 && m.Requests > 0 && !agree(m.ToolRPS, rate) {
			v.disagree("req/s", m.ToolRPS, fmt.Sprintf("%d requests in %s", m.Requests, m.Duration), rate)
		}
		if read := float64(m.BytesRead) / m.Duration.Seconds(); m.BytesPerSec > 0 && m.BytesRead > 0 && !agree(m.BytesPerSec, read) {
			v.disagree("bytes/s", m.BytesPerSec, fmt.Sprintf("%d bytes read in %s", m.BytesRead, m.Duration), read)
		}
	}
	if m.ToolRPS > 0 && m.RPSMax > 0 && m.ToolRPS > m.RPSMax*(1+exactSlack) {
		v.addf("req/s %g is above the req/s max %g", m.ToolRPS, m.RPSMax)
	}
	if m.ToolRPS > 0 && m.RPSMin > m.ToolRPS*(1+exactSlack) {
		v.addf("req/s %g is below the req/s min %g", m.ToolRPS, m.RPSMin)
	}
	v.rateOrder()
	v.latencyOrder()
	v.statusSums()
	if m.Tool == ToolVegeta {
		v.vegeta()
	}
}

// agree reports whether a printed figure matches the one derived exactly
// from other printed figures, within the rounding of the printout.
func agree(printed, derived float64) bool {
	if derived <= 0 {
		return true
	}
	return math.Abs(printed/derived-1) <= exactSlack
}

// disagree reports a printed figure that does not match (agree).
func (v *validation) disagree(name string, printed float64, from string, derived float64) {
	v.addf("%s %.6g disagrees with the %s it comes from (%.6g): the dump was cut or changed", name, printed, from, derived)
}

// latencyOrder checks that the percentiles rise with P and lie within the
// minimum and maximum, and the mean too.
func (v *validation) latencyOrder() {
	m := v.m
	l := m.Latency
	slack := func(d time.Duration) time.Duration {
		s := d / 100 // 1%: histogram buckets (wrk2's HdrHistogram) and rounding
		if m.Tool == ToolAutocannon {
			return s + time.Millisecond // its text prints whole milliseconds
		}
		return s + time.Microsecond
	}
	var prev Percentile // the last one printed (a 0 is one the tool did not fill)
	for i, p := range l.Percentiles {
		if i > 0 && p.P <= l.Percentiles[i-1].P {
			v.addf("latency percentiles out of order: p%g after p%g", p.P, l.Percentiles[i-1].P)
		}
		if p.Value == 0 {
			continue
		}
		if p.Value+slack(prev.Value) < prev.Value {
			v.addf("latency p%g %s is below p%g %s", p.P, p.Value, prev.P, prev.Value)
		}
		if l.Max > 0 && p.Value > l.Max+slack(p.Value) {
			v.addf("latency p%g %s is above the max latency %s", p.P, p.Value, l.Max)
		}
		if l.Min > 0 && p.Value+slack(l.Min) < l.Min {
			v.addf("latency p%g %s is below the min latency %s", p.P, p.Value, l.Min)
		}
		prev = p
	}
	if l.Max > 0 && l.Mean > l.Max+slack(l.Mean) {
		v.addf("the mean latency %s is above the max latency %s", l.Mean, l.Max)
	}
	if l.Min > 0 && l.Mean > 0 && l.Mean+slack(l.Min) < l.Min {
		v.addf("the mean latency %s is below the min latency %s", l.Mean, l.Min)
	}
}

// rateOrder checks that req/s percentiles rise with P.
func (v *validation) rateOrder() {
	ps := v.m.RPSPercentiles
	var prev RatePercentile // the last one printed (a 0 is one the tool did not fill)
	for i, p := range ps {
		if i > 0 && p.P <= ps[i-1].P {
			v.addf("req/s percentiles out of order: p%g after p%g", p.P, ps[i-1].P)
		}
		if p.Value == 0 {
			continue
		}
		if p.Value < prev.Value*(1-exactSlack) {
			v.addf("req/s p%g %g is below p%g %g", p.P, p.Value, prev.P, prev.Value)
		}
		prev = p
	}
}

// statusSums checks that no count of responses exceeds the requests.
func (v *validation) statusSums() {
	m := v.m
	s := m.Status
	if m.Requests <= 0 {
		return
	}
	limit := m.Requests
	if m.Tool == ToolAutocannon && m.Requests == m.RequestsSent && m.Requests%1000 == 0 {
		limit += 500 // its text rounds the requests to thousands ("26k")
	}
	if sum := s.C1xx + s.C2xx + s.C3xx + s.C4xx + s.C5xx + s.Other; sum > limit {
		v.addf("%d responses by status class, more than the %d requests", sum, m.Requests)
	}
	if s.Non2xx > limit {
		v.addf("%d non-2xx responses, more than the %d requests", s.Non2xx, m.Requests)
	}
	if m.RequestsSent > 0 && m.Requests > m.RequestsSent {
		v.addf("%d requests completed, more than the %d sent", m.Requests, m.RequestsSent)
	}
}

// checkTarget range-checks the facts a harness printed about a target
// (startup time, memory, bundle size). It returns one message per problem.
func checkTarget(t *Target) []string {
	v := &validation{}
	v.span("the build time", t.Build, maxWindow)
	v.span("the startup time", t.Startup, maxWindow)
	v.count("memory before", t.RSSBefore)
	v.count("memory after", t.RSSAfter)
	v.count("peak memory", t.RSSPeak)
	v.count("the artifact size", t.ArtifactBytes)
	return v.problems
}

// vegeta checks the figures a vegeta summary gives twice over: its
// success ratio, rate and throughput follow from the status counts and
// durations (lib/metrics.go), and its histogram counts every request.
// The text report prints the ratio to 0.01% and durations to four
// figures, within exactSlack.
func (v *validation) vegeta() {
	m := v.m
	o := m.Open
	s := m.Status
	if b := m.Latency.Buckets; len(b) > 0 {
		var n int64
		for i, bk := range b {
			n += bk.Count
			if i > 0 && bk.Low != b[i-1].High || bk.High != 0 && bk.High <= bk.Low || bk.High == 0 && i != len(b)-1 {
				v.addf("latency buckets not ascending and contiguous at [%s, %s]", bk.Low, bk.High)
				return
			}
		}
		if m.Requests > 0 && n != m.Requests {
			v.addf("the latency buckets count %d requests, the report %d", n, m.Requests)
		}
	}
	if !s.Known || !o.SuccessKnown || m.Requests <= 0 {
		return
	}
	good := s.C2xx + s.C3xx // vegeta's success: a status from 200 to 399
	if ratio := float64(good) / float64(m.Requests); math.Abs(ratio-o.Success) > 0.00005+1e-9 {
		v.disagree("the success ratio", o.Success, fmt.Sprintf("%d of %d requests with a status from 200 to 399", good, m.Requests), ratio)
	}
	attack := m.Duration - o.Wait
	if attack <= 0 || o.Wait < 0 {
		return // vegeta divides by nothing when every request went out at once
	}
	if rate := float64(m.Requests) / attack.Seconds(); !agree(o.SendRate, rate) {
		v.disagree("the send rate", o.SendRate, fmt.Sprintf("%d requests sent in %s", m.Requests, attack), rate)
	}
	if tput := float64(good) / m.Duration.Seconds(); !agree(m.ToolRPS, tput) {
		v.disagree("the throughput", m.ToolRPS, fmt.Sprintf("%d successes in %s", good, m.Duration), tput)
	}
}
