package parse

import "time"

// Tool names a load generator dialect as it appears in Measurement.Tool.
const (
	ToolWrk        = "wrk"
	ToolWrk2       = "wrk2"
	ToolBombardier = "bombardier"
	ToolAutocannon = "autocannon"
	ToolVegeta     = "vegeta"
)

// Phases of a fairbench run (Measurement.Phase).
const (
	// PhaseThroughput is the closed-loop pass at the suite's connections:
	// every connection waits for its answer before it sends again.
	PhaseThroughput = ""
	// PhaseLatency is the open-model pass: requests sent on a schedule at an
	// offered rate (Measurement.Rate), whatever the answers do.
	PhaseLatency = "latency"
	// PhaseSweep is one point of a closed-loop sweep over connections
	// (Measurement.Connections).
	PhaseSweep = "sweep"
	// PhaseCeiling is the open-model tool sending as fast as its workers
	// go, before a scenario's latency points: the most the client can send
	// there, which no point is offered above.
	PhaseCeiling = "ceiling"
	// PhasePilot is a noise pilot's window before the first round of a
	// collect to a precision: the same load on two servers of one program
	// in alternation, which only plans the rounds; no verdict reads it.
	PhasePilot = "pilot"
)

// AfterThroughput reports whether m is a point of a pass after the
// closed-loop one (latency, sweep, ceiling): neither a throughput window
// nor a noise pilot's.
func (m *Measurement) AfterThroughput() bool {
	return m.Phase != PhaseThroughput && m.Phase != PhasePilot
}

// Measurement is one run of a load generator against one target and scenario,
// in base units: seconds (time.Duration) for time, bytes for sizes, requests
// per second for rates. Display scaling belongs to render.
//
// A field the tool did not print is left at its zero value; the Has* flags and
// nil slices say which of those zeros are real.
type Measurement struct {
	Tool        string // ToolWrk, ToolWrk2, ToolBombardier, ToolAutocannon, ToolVegeta
	ToolVersion string // as the tool or the run dir reported it, "" if unknown

	Run      string // the run ID for dumps from a fairbench run dir, "" otherwise
	Target   string // who was measured, e.g. "gin"
	Runtime  string // e.g. "go", "node", "bun"; "" if unknown
	Scenario string // e.g. "ping"
	Rep      int    // repetition number, from 1
	Warmup   bool   // a warm-up run, excluded from statistics
	Order    int    // position in the run's global order, 0 if unknown
	// Phase is the pass of a run the measurement belongs to: PhaseThroughput
	// (""), PhaseLatency, PhaseSweep or PhaseCeiling. A dump read outside a run dir is in
	// PhaseThroughput, except an open-model tool's (vegeta; wrk2 with -R),
	// which is in PhaseLatency.
	Phase string

	Method string // HTTP method, "" if the dump does not say
	URL    string // the URL the tool was pointed at, "" if unknown

	Connections int           // concurrent connections
	Threads     int           // client threads (wrk) or workers (autocannon); 0 if not applicable
	Pipelining  int           // requests in flight per connection; 0 if not printed (means 1)
	Rate        float64       // requested constant rate (wrk2 -R, bombardier -r, vegeta -rate, run.json); 0 if none
	Window      time.Duration // the requested duration (-d); 0 for request-count runs
	// Duration is the measured duration the tool reports; for vegeta, its
	// attack (first to last request sent) plus its wait (to the last
	// response): the window its requests were completed in.
	Duration time.Duration

	// Requests is the requests the tool counts as completed (including
	// error responses); vegeta counts every request it sent, a request
	// without a response (status 0) too, and completed() leaves those out.
	Requests int64
	// RPS is the throughput fairbench reports, defined alike for every tool:
	// completed requests ÷ the measured window. RPSBasis says which window
	// and count it rests on; the Reader sets both (Throughput for a
	// Measurement made by hand).
	RPS float64
	// RPSBasis is RPSPerDuration, RPSPerWindow or RPSAsPrinted.
	RPSBasis string
	// ToolRPS is req/s exactly as the tool printed it: wrk's requests ÷
	// duration, bombardier's and autocannon's mean of sampled rates.
	ToolRPS float64
	// GoodBasis says which responses GoodRPS counts as good: Good2xx where
	// the tool counts status classes, GoodBelow400 where it counts only
	// statuses of 400 and up (wrk), "" where it counts none.
	GoodBasis string
	// RPSStdev and RPSMax are the tool's per-interval req/s spread, where printed.
	RPSStdev, RPSMax float64
	// RPSMin is the slowest interval's req/s, where printed (autocannon).
	RPSMin float64
	// RPSPercentiles are the per-interval req/s percentiles the tool printed
	// (autocannon's Req/Sec table, bombardier JSON), ascending by P.
	RPSPercentiles []RatePercentile
	// PerThreadRPS is wrk's "Req/Sec" row: req/s per thread and sampling
	// interval, not for the whole run. Zero when not printed or -nan.
	PerThreadRPS Spread
	// RequestsSent counts requests sent, where the tool prints it apart from
	// completed ones (autocannon); 0 if unknown. autocannon's text summary
	// prints only this figure, rounded to thousands ("37k requests").
	RequestsSent int64

	BytesRead   int64   // bytes read, where printed
	BytesPerSec float64 // the tool's transfer rate, where printed
	// BytesPerSecCountsWrites is true when BytesPerSec includes bytes written (bombardier).
	BytesPerSecCountsWrites bool
	// BytesPerSecSamples is the tool's per-interval bytes/s spread, where
	// printed (autocannon's Bytes/Sec row, its JSON "throughput"), in bytes
	// per second. Its Mean is the tool's average, as BytesPerSec.
	BytesPerSecSamples RateSamples

	// Open is what an open-model run (vegeta, wrk2 -R) says of its schedule;
	// zero for a closed-loop run.
	Open OpenModel

	Latency Latency
	Status  StatusCounts
	Errors  Errors

	// ServerCPU and ClientCPU are CPU seconds used during the measurement,
	// where the collector recorded them (0 otherwise).
	ServerCPU, ClientCPU float64
	// HostSpeed is how long the host speed probe took on the server's CPUs
	// around the measurement (runjson.HostSpeed.ServerTurn), in seconds; 0
	// where it was not probed. The probe runs while no server is loaded,
	// so it reads the host, not the target.
	HostSpeed float64
	// Argv is the command line that produced the dump, where known.
	Argv []string
	// ServerHost and ClientHost name the machines that ran the server and
	// the load tool, where a fairbench run dir says (the SSH host names, or
	// the run's own host name when both ran on it); "" otherwise.
	ServerHost, ClientHost string
	// Shard is the shard ("I/N") of a merged run the measurement came from.
	Shard string

	Source Source

	// Title is the line of a post that introduces the run (a "Benchmarking
	// X at URL" line, a Markdown heading, a list item) as printed, "" if
	// none; TitleLine is its line. Target is named from it when nothing
	// else names it.
	Title     string
	TitleLine int
	// Settings says where each load setting came from: the tool's output,
	// the command line before it, the post's title line, or nowhere.
	Settings SettingSources

	// Warnings are problems found while reading that did not stop it.
	Warnings []string
}

// Latency is a latency summary as the tool measured it.
type Latency struct {
	Mean, Stdev, Max time.Duration
	Min              time.Duration // where printed (autocannon)
	// Percentiles are every percentile the tool printed, in ascending order of P.
	// P is in percent (50, 99.9, 97.5); never relabelled.
	Percentiles []Percentile
	// Corrected is true when the tool corrects for coordinated omission
	// (wrk2's constant-rate histogram); false for closed-loop latency.
	Corrected bool
	// Samples is the number of latency samples behind the summary, where printed.
	Samples int64
	// Buckets is the latency histogram the tool printed (vegeta's hist
	// report), ascending and contiguous; nil where it printed none.
	Buckets []LatencyBucket
}

// LatencyBucket is one bucket of a latency histogram: Count latencies at or
// above Low and below High. High is 0 for the last, unbounded bucket
// (vegeta's "+Inf"); vegeta also counts there any latency below the first
// bucket's Low.
type LatencyBucket struct {
	Low, High time.Duration
	Count     int64
}

// OpenModel is what an open-model (constant-rate) run says of its schedule,
// in req/s and seconds. Measurement.Rate is the offered rate.
type OpenModel struct {
	// Fraction is the offered rate as a share of the target's capacity (its
	// median closed-loop req/s on the scenario in the same run), where the
	// suite set the rate so; 0 for a fixed rate.
	Fraction float64
	// Capacity is the req/s Fraction is a share of; 0 for a fixed rate.
	Capacity float64
	// SendRate is requests sent ÷ the time sending took (vegeta's "rate"):
	// below the offered rate when the client fell behind its schedule.
	SendRate float64
	// Behind is how far sending fell behind the schedule: the latest any
	// request went out after its scheduled time, where known.
	Behind time.Duration
	// FromSchedule is the latency of the point's requests timed from when
	// each was due, not from when it went out (FromSchedule in
	// vegeta_schedule.go), where the results were read: equal to the
	// printed latency when sending kept its schedule, longer in the tail
	// when it did not. The zero Latency where unknown.
	FromSchedule Latency
	// Late is how many requests went out late and how many of those the
	// target held back (every worker awaiting an answer when they were
	// due), where the results were read; zero Workers where unknown.
	Late LateSending
	// Wait is the time from the last request sent to the last answer
	// (vegeta's "wait").
	Wait time.Duration
	// Success is the share of requests answered with a success status
	// (vegeta's "success", 0 to 1), where SuccessKnown.
	Success      float64
	SuccessKnown bool
}

// Percentile is percentile q (in percent) of l, false where l has none.
func (l Latency) Percentile(q float64) (time.Duration, bool) {
	for _, p := range l.Percentiles {
		if p.P == q {
			return p.Value, true
		}
	}
	return 0, false
}

// IsZero reports whether o says nothing: a closed-loop measurement's.
func (o OpenModel) IsZero() bool {
	return o.Fraction == 0 && o.Capacity == 0 && o.SendRate == 0 && o.Behind == 0 && o.Wait == 0 &&
		o.Success == 0 && !o.SuccessKnown && o.FromSchedule.Max == 0 && len(o.FromSchedule.Percentiles) == 0 && o.Late == LateSending{}
}

// RatePercentile is one percentile of a rate (req/s), P in percent.
type RatePercentile struct {
	P     float64
	Value float64
}

// RateSamples are the statistics of a rate sampled once per interval, as
// the tool printed them; zero where it printed none.
type RateSamples struct {
	Mean, Stdev, Min, Max float64
	// Percentiles are ascending by P, P in percent (1, 2.5, 50, 97.5).
	Percentiles []RatePercentile
}

// Spread is a mean, standard deviation and maximum of some rate.
type Spread struct {
	Mean, Stdev, Max float64
}

// Percentile is one latency percentile, P in percent.
type Percentile struct {
	P     float64
	Value time.Duration
}

// StatusCounts counts responses by status class. Known reports whether the
// tool printed a breakdown at all (wrk prints only "Non-2xx or 3xx"). C2xx
// may be set without Known where the tool prints that count alone
// (autocannon's text: "N 2xx responses, M non 2xx responses").
type StatusCounts struct {
	Known                        bool
	C1xx, C2xx, C3xx, C4xx, C5xx int64
	Other                        int64 // bombardier's "others": failed requests and odd codes
	// Non2xx is the tool's own non-success count where it prints one
	// (wrk counts status > 399; autocannon counts everything not 2xx).
	Non2xx int64
}

// Errors counts failed requests by kind, with the tool's messages.
type Errors struct {
	Connect, Read, Write, Timeout, Other int64
	Messages                             []ErrorMessage
	Mismatches                           int64 // autocannon -E body mismatches
}

// ErrorMessage is one distinct error line with its count.
type ErrorMessage struct {
	Text  string
	Count int64
}

// Total is the number of socket-level errors of every kind.
func (e Errors) Total() int64 {
	return e.Connect + e.Read + e.Write + e.Timeout + e.Other
}

// Source locates the bytes a record was read from.
type Source struct {
	File      string // path as given to the reader
	LineStart int    // first line, from 1
	LineEnd   int    // last line, inclusive
	SHA256    string // hex sha256 of the whole file
}

// How RPS was found (Measurement.RPSBasis).
const (
	// RPSPerDuration is completed requests ÷ the duration the tool measured.
	RPSPerDuration = "requests/duration"
	// RPSPerWindow is completed requests ÷ the requested window (-d), where
	// the tool printed no measured duration (bombardier's text).
	RPSPerWindow = "requests/window"
	// RPSAsPrinted is the tool's own figure, where the dump holds no count of
	// completed requests or no window to divide it by (autocannon's text
	// without a status breakdown, a harness's one-line result).
	RPSAsPrinted = "tool"
)

// What GoodRPS counts (Measurement.GoodBasis).
const (
	// Good2xx counts 2xx responses: the tool counts status classes
	// (bombardier, autocannon; autocannon's text counts 3xx as non-2xx).
	Good2xx = "2xx"
	// GoodBelow400 counts responses with a status below 400: the tool
	// counts only statuses of 400 and up (wrk's "Non-2xx or 3xx").
	GoodBelow400 = "status<400"
)

// completed is the number of requests that got a response, as exactly as
// the dump tells it, and whether it tells it at all. bombardier counts its
// socket errors among the requests ("others"); autocannon's text prints
// only the requests it sent, rounded to thousands, and its status table or
// its "N 2xx responses, M non 2xx responses" line count the responses.
//
// vegeta counts every request it sent, answered or not; a request without
// a response has status code 0, which is not a status class: its
// completed requests are those with a status, where the dump counts them.
func (m *Measurement) completed() (int64, bool) {
	switch m.Tool {
	case ToolAutocannon:
	case ToolVegeta:
		if s := m.Status; s.Known {
			return s.C1xx + s.C2xx + s.C3xx + s.C4xx + s.C5xx + s.Other, true
		}
		return m.Requests, m.Requests > 0 || m.Duration > 0
	case ToolBombardier:
		return max(m.Requests-m.Errors.Total(), 0), m.Requests > 0 || m.Status.Known || m.Duration > 0
	default:
		return m.Requests, m.Requests > 0 || m.Status.Known || m.Duration > 0
	}
	s := m.Status
	switch {
	case s.Known:
		return s.C1xx + s.C2xx + s.C3xx + s.C4xx + s.C5xx + s.Other, true
	case m.RequestsSent != m.Requests: // the JSON, which counts responses
		return m.Requests, true
	case s.C2xx+s.Non2xx > 0:
		return s.C2xx + s.Non2xx, true
	}
	return 0, false
}

// throughput is completed requests ÷ the measured window, with its basis.
func (m *Measurement) throughput() (float64, string) {
	n, ok := m.completed()
	switch {
	case ok && m.Duration > 0:
		return float64(n) / m.Duration.Seconds(), RPSPerDuration
	case ok && m.Window > 0:
		return float64(n) / m.Window.Seconds(), RPSPerWindow
	}
	return m.ToolRPS, RPSAsPrinted
}

// Throughput is the measurement's req/s as fairbench defines it for every
// tool: RPS where the Reader set it, else computed the same way.
func (m *Measurement) Throughput() float64 {
	if m.RPS > 0 || m.RPSBasis != "" {
		return m.RPS
	}
	rps, _ := m.throughput()
	return rps
}

// toolRPS is the tool's req/s, or requests/duration when it printed none:
// what the statistics (stats.go) rank by until they move to Throughput.
func (m *Measurement) toolRPS() float64 {
	if m.ToolRPS > 0 {
		return m.ToolRPS
	}
	if m.ToolRPS == 0 && m.RPSBasis == "" && m.RPS > 0 {
		return m.RPS // a Measurement made by hand
	}
	return m.RPSComputed()
}

// goodBasis says which responses GoodRequests counts; "" when none.
func (m *Measurement) goodBasis() string {
	switch {
	case m.Status.Known || m.Tool == ToolAutocannon:
		return Good2xx
	case m.Tool == ToolWrk || m.Tool == ToolWrk2:
		return GoodBelow400
	}
	return ""
}

// GoodRequests is the number of completed requests that got a good answer:
// 2xx where the tool counts status classes, a status below 400 where it
// counts only the bad ones (GoodBasis). A tool's Requests count includes
// error responses and, for some tools, timeouts.
func (m *Measurement) GoodRequests() int64 {
	n, _ := m.completed()
	good := n
	switch {
	case m.Status.Known:
		good = m.Status.C2xx
	case m.Tool == ToolAutocannon && m.Status.C2xx > 0:
		good = m.Status.C2xx // its "N 2xx responses" line
	case m.Status.Non2xx > 0:
		good -= m.Status.Non2xx
	}
	return max(good, 0)
}

// RPSComputed is Requests divided by the measured Duration, 0 when unknown.
func (m *Measurement) RPSComputed() float64 {
	if m.Duration <= 0 {
		return 0
	}
	return float64(m.Requests) / m.Duration.Seconds()
}

// GoodRPS is good responses (GoodRequests) per second over the window RPS
// was found over. Where RPS is the tool's own figure it is scaled by the
// good share of responses; where nothing tells good from bad it is RPS.
func (m *Measurement) GoodRPS() float64 {
	rps, basis := m.throughput()
	if m.RPS > 0 || m.RPSBasis != "" {
		rps, basis = m.RPS, m.RPSBasis
	}
	good := float64(m.GoodRequests())
	switch _, ok := m.completed(); {
	case basis == RPSPerDuration:
		return good / m.Duration.Seconds()
	case basis == RPSPerWindow:
		return good / m.Window.Seconds()
	case ok && m.Requests > 0: // the tool's figure is a rate of its Requests
		return rps * good / float64(m.Requests)
	}
	return rps
}

// Target holds the facts about one target that are not a measurement:
// how it was built and started, and what the gate said.
type Target struct {
	Run                          string // the run ID
	Name                         string
	Runtime                      string
	Build                        time.Duration     // build time, 0 if unknown
	BuildCached                  bool              // built against a warm build cache: Build is an up-to-date check and a copy
	Startup                      time.Duration     // spawn to first correct response, 0 if unknown
	RSSBefore, RSSAfter, RSSPeak int64             // bytes, 0 if unknown
	ArtifactBytes                int64             // size of the built artifact, 0 if unknown
	Conformance                  string            // "pass", "fail" or "" if no gate ran
	Failed                       []string          // scenarios that failed the gate
	Transcript                   string            // the gate transcript, relative to the run dir
	Packages                     []Package         // framework versions, as the suite named them
	Env                          map[string]string // the environment the suite gave it, placeholders as written
	Source                       Source
}

// Package is the version of one framework package or module a target was
// built with, and where the collector read it (a package.json under
// node_modules, or `go version -m` on the binary). Version is "" where it
// could not be read.
type Package struct {
	Name, Version, Source string
}
