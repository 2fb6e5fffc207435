package parse

import (
	"encoding/json"
	"io"
	"strconv"

	"github.com/fairbench/fairbench/parse/runjson"
)

// JSON Lines schema (`fairbench parse -format json`), one object per line.
// Fields are only ever added, never renamed. Units are in the names: _s is
// seconds, _bytes bytes, rps requests per second.
//
// Every object has "kind": "measurement" or "target".
//
// A measurement:
//
//	kind            "measurement"
//	tool            "wrk" | "wrk2" | "bombardier" | "autocannon" | "vegeta"
//	tool_version    as reported, "" if unknown
//	run             fairbench run ID, "" for foreign dumps
//	target          target name (from run.json, the harness, or the file name)
//	runtime         "go", "node", "bun", … where known
//	scenario        scenario name, "" if unknown
//	rep             repetition, from 1 (0 if unknown)
//	warmup          true for warm-up runs
//	order           position in the run's global order, 0 if unknown
//	method, url     the request, where known
//	connections, threads, pipelining
//	window_s        requested duration, 0 for request-count runs
//	duration_s      measured duration
//	requests        requests the tool counts as completed (including error responses)
//	rps             completed requests / the measured window, alike for every tool
//	rps_basis       how rps was found: "requests/duration" (the duration the
//	                tool measured), "requests/window" (the requested -d, where
//	                the tool printed no duration), or "tool" (the tool's own
//	                figure, where the dump counts no completed requests)
//	tool_rps        requests per second exactly as the tool printed it (wrk:
//	                requests / duration; bombardier, autocannon: the mean of
//	                sampled rates); 0 if not printed
//	good_rps        good responses per the same window (good_basis)
//	good_basis      "2xx" where the tool counts status classes, "status<400"
//	                where it counts only statuses of 400 and up (wrk), "" when
//	                it counts none
//	bytes_read, bytes_per_s
//	latency_mean_s, latency_stdev_s, latency_max_s
//	latency_percentiles  {"50": s, "99.9": s, …}: every percentile the tool printed
//	latency_corrected    true when corrected for coordinated omission (wrk2)
//	errors          total socket-level errors (connect + read + write + timeout + other)
//	errors_by_kind  {"connect": n, "read": n, "write": n, "timeout": n, "other": n}
//	error_messages  [{"text": "...", "count": n}]
//	status          {"1xx": n, "2xx": n, "3xx": n, "4xx": n, "5xx": n, "other": n, "non2xx": n}
//	                counts by class where the tool printed them
//	server_cpu_s, client_cpu_s  CPU seconds during the measurement (run dirs only)
//	source          {"file", "line_start", "line_end", "sha256"}
//	warnings        problems met while reading that did not stop it
//
// Where the dialect prints them:
//
//	requests_sent   requests sent, where counted apart from completed (autocannon), else 0
//	rps_stdev, rps_max, rps_min  the tool's per-interval req/s spread, where printed
//	rps_percentiles {"2.5": rps, …}: per-interval req/s percentiles, where printed
//	per_thread_rps  {"mean", "stdev", "max"}: wrk's per-thread Req/Sec row
//	latency_min_s   where printed (autocannon)
//	latency_samples latency samples behind the summary, where printed (wrk2, autocannon --json)
//	mismatches      autocannon -E responses with an unexpected body
//
// SSH hosts and shards, present only where a run dir says them:
//
//	server_host, client_host  the machines that ran the server and the load tool
//	shard           "I/N", in a run merged from shards
//
// Pasted posts:
//
//	settings_from   {"url", "connections", "threads", "pipelining", "duration"}: where each
//	                setting came from: "printed" (the tool's output), "command line",
//	                "title line" (the post's line that introduces the run) or "unknown"
//	                (the value is empty); a setting the output has no place for is left
//	                out, and so is the whole object when the tool printed every setting
//	title, title_line  the post's line that introduces the run, where there is one
//	bytes_per_s_samples  {"mean", "stdev", "min", "max", "percentiles": {"2.5": B/s, …}}:
//	                the tool's per-interval bytes/s, where printed (autocannon)
//
// The open-model phase, present only where set:
//
//	phase           "latency" (open model) or "sweep"; absent for the closed-loop pass
//	rate            the offered rate in req/s (wrk2 -R, bombardier -r, a run dir's
//	                latency phase); 0 (absent) when the dump does not say it: vegeta's
//	                reports do not print it
//	open            {"fraction", "capacity", "send_rate", "behind_s", "wait_s",
//	                "success"}: what an open-model run says of its schedule
//	                (parse.OpenModel); "success" (0 to 1) only where known;
//	                "from_schedule" {"p50_s", "p90_s", "p95_s", "p99_s", "p99_9_s",
//	                "max_s"}: the latency timed from when each request was due,
//	                where the results stream was read
//	latency_buckets [{"low_s", "high_s", "count"}]: the latency histogram the tool
//	                printed (vegeta's hist report), ascending; high_s 0 is +Inf
//
// A target:
//
//	kind "target", run, target, runtime, build_s, build_cached (true where the
//	build ran against a warm build cache: build_s is then its up-to-date check
//	and a copy), startup_s, rss_before_bytes,
//	rss_after_bytes, rss_peak_bytes, artifact_bytes (each where known),
//	conformance ("pass" | "fail"), failed (scenarios), transcript, source.
type jsonMeasurement struct {
	Kind             string             `json:"kind"`
	Tool             string             `json:"tool"`
	ToolVersion      string             `json:"tool_version"`
	Run              string             `json:"run"`
	Target           string             `json:"target"`
	Runtime          string             `json:"runtime"`
	Scenario         string             `json:"scenario"`
	Rep              int                `json:"rep"`
	Warmup           bool               `json:"warmup"`
	Order            int                `json:"order"`
	Method           string             `json:"method"`
	URL              string             `json:"url"`
	Connections      int                `json:"connections"`
	Threads          int                `json:"threads"`
	Pipelining       int                `json:"pipelining"`
	WindowS          float64            `json:"window_s"`
	DurationS        float64            `json:"duration_s"`
	Requests         int64              `json:"requests"`
	RPS              float64            `json:"rps"`
	RPSBasis         string             `json:"rps_basis"`
	ToolRPS          float64            `json:"tool_rps"`
	GoodRPS          float64            `json:"good_rps"`
	GoodBasis        string             `json:"good_basis"`
	BytesRead        int64              `json:"bytes_read"`
	BytesPerS        float64            `json:"bytes_per_s"`
	LatMeanS         float64            `json:"latency_mean_s"`
	LatStdevS        float64            `json:"latency_stdev_s"`
	LatMaxS          float64            `json:"latency_max_s"`
	LatPcts          map[string]float64 `json:"latency_percentiles"`
	LatCorr          bool               `json:"latency_corrected"`
	Errors           int64              `json:"errors"`
	ErrorsBy         map[string]int64   `json:"errors_by_kind"`
	ErrorMsgs        []jsonErrorMessage `json:"error_messages"`
	Status           map[string]int64   `json:"status"`
	ServerCPUSeconds float64            `json:"server_cpu_s"`
	ClientCPUSeconds float64            `json:"client_cpu_s"`
	Source           jsonSource         `json:"source"`
	Warnings         []string           `json:"warnings,omitempty"`

	RequestsSent int64              `json:"requests_sent"`
	RPSStdev     float64            `json:"rps_stdev"`
	RPSMax       float64            `json:"rps_max"`
	RPSMin       float64            `json:"rps_min"`
	RPSPcts      map[string]float64 `json:"rps_percentiles"`
	PerThreadRPS map[string]float64 `json:"per_thread_rps"`
	LatMinS      float64            `json:"latency_min_s"`
	LatSamples   int64              `json:"latency_samples"`
	Mismatches   int64              `json:"mismatches"`

	ServerHost string `json:"server_host,omitempty"`
	ClientHost string `json:"client_host,omitempty"`
	Shard      string `json:"shard,omitempty"`

	SettingsFrom     map[string]string `json:"settings_from,omitempty"`
	Title            string            `json:"title,omitempty"`
	TitleLine        int               `json:"title_line,omitempty"`
	BytesPerSSamples *jsonRateSamples  `json:"bytes_per_s_samples,omitempty"`

	Phase      string              `json:"phase,omitempty"`
	Rate       float64             `json:"rate,omitempty"`
	Open       *jsonOpen           `json:"open,omitempty"`
	LatBuckets []jsonLatencyBucket `json:"latency_buckets,omitempty"`
}

type jsonOpen struct {
	Fraction float64  `json:"fraction"`
	Capacity float64  `json:"capacity"`
	SendRate float64  `json:"send_rate"`
	BehindS  float64  `json:"behind_s"`
	WaitS    float64  `json:"wait_s"`
	Success  *float64 `json:"success,omitempty"`
	// FromSchedule: latency timed from when each request was due.
	FromSchedule *runjson.ScheduleLatency `json:"from_schedule,omitempty"`
	// Late: requests sent late, and those the target held back.
	Late *runjson.LateSending `json:"late,omitempty"`
}

type jsonLatencyBucket struct {
	LowS  float64 `json:"low_s"`
	HighS float64 `json:"high_s"`
	Count int64   `json:"count"`
}

// openJSON is nil for a closed-loop measurement.
func openJSON(o OpenModel) *jsonOpen {
	if o.IsZero() {
		return nil
	}
	sched := ScheduleRecord(o.FromSchedule)
	j := &jsonOpen{Fraction: o.Fraction, Capacity: o.Capacity, SendRate: o.SendRate,
		BehindS: o.Behind.Seconds(), WaitS: o.Wait.Seconds(), FromSchedule: sched, Late: LateRecord(o.Late)}
	if o.SuccessKnown {
		j.Success = &o.Success
	}
	return j
}

type jsonRateSamples struct {
	Mean        float64            `json:"mean"`
	Stdev       float64            `json:"stdev"`
	Min         float64            `json:"min"`
	Max         float64            `json:"max"`
	Percentiles map[string]float64 `json:"percentiles"`
}

// settingsJSON lists where each setting came from; nil when the tool
// printed every setting it has.
func settingsJSON(s SettingSources) map[string]string {
	out := map[string]string{}
	printed := true
	for _, kv := range [...][2]string{{"url", s.URL}, {"connections", s.Connections}, {"threads", s.Threads},
		{"pipelining", s.Pipelining}, {"duration", s.Duration}} {
		if kv[1] != "" {
			out[kv[0]] = kv[1]
			printed = printed && kv[1] == FromPrinted
		}
	}
	if printed {
		return nil
	}
	return out
}

// rateSamplesJSON is nil for samples the tool did not print.
func rateSamplesJSON(r RateSamples) *jsonRateSamples {
	if r.Mean == 0 && r.Stdev == 0 && r.Min == 0 && r.Max == 0 && len(r.Percentiles) == 0 {
		return nil
	}
	j := &jsonRateSamples{Mean: r.Mean, Stdev: r.Stdev, Min: r.Min, Max: r.Max, Percentiles: map[string]float64{}}
	for _, p := range r.Percentiles {
		j.Percentiles[strconv.FormatFloat(p.P, 'f', -1, 64)] = p.Value
	}
	return j
}

type jsonErrorMessage struct {
	Text  string `json:"text"`
	Count int64  `json:"count"`
}

type jsonSource struct {
	File      string `json:"file"`
	LineStart int    `json:"line_start"`
	LineEnd   int    `json:"line_end"`
	SHA256    string `json:"sha256"`
}

type jsonTarget struct {
	Kind          string     `json:"kind"`
	Run           string     `json:"run"`
	Target        string     `json:"target"`
	Runtime       string     `json:"runtime"`
	BuildS        float64    `json:"build_s,omitempty"`
	BuildCached   bool       `json:"build_cached,omitempty"`
	StartupS      float64    `json:"startup_s,omitempty"`
	RSSBefore     int64      `json:"rss_before_bytes,omitempty"`
	RSSAfter      int64      `json:"rss_after_bytes,omitempty"`
	RSSPeak       int64      `json:"rss_peak_bytes,omitempty"`
	ArtifactBytes int64      `json:"artifact_bytes,omitempty"`
	Conformance   string     `json:"conformance,omitempty"`
	Failed        []string   `json:"failed,omitempty"`
	Transcript    string     `json:"transcript,omitempty"`
	Source        jsonSource `json:"source"`
}

// JSONWriter writes records as JSON Lines in the schema above.
type JSONWriter struct {
	enc *json.Encoder
}

// NewJSONWriter returns a JSONWriter writing to w.
func NewJSONWriter(w io.Writer) *JSONWriter {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return &JSONWriter{enc: enc}
}

// Write writes one record; a *Run is skipped.
func (w *JSONWriter) Write(r Record) error {
	switch r := r.(type) {
	case *Measurement:
		return w.enc.Encode(measurementJSON(r))
	case *Target:
		return w.enc.Encode(targetJSON(r))
	}
	return nil
}

func sourceJSON(s Source) jsonSource {
	return jsonSource{File: s.File, LineStart: s.LineStart, LineEnd: s.LineEnd, SHA256: s.SHA256}
}

func measurementJSON(m *Measurement) jsonMeasurement {
	j := jsonMeasurement{
		Kind: "measurement", Tool: m.Tool, ToolVersion: m.ToolVersion, Run: m.Run,
		Target: m.Target, Runtime: m.Runtime, Scenario: m.Scenario, Rep: m.Rep,
		Warmup: m.Warmup, Order: m.Order, Method: m.Method, URL: m.URL,
		Connections: m.Connections, Threads: m.Threads, Pipelining: m.Pipelining,
		WindowS: m.Window.Seconds(), DurationS: m.Duration.Seconds(),
		Requests: m.Requests, RPS: m.Throughput(), RPSBasis: m.RPSBasis, ToolRPS: m.ToolRPS,
		GoodRPS: m.GoodRPS(), GoodBasis: m.GoodBasis,
		BytesRead: m.BytesRead, BytesPerS: m.BytesPerSec,
		LatMeanS: m.Latency.Mean.Seconds(), LatStdevS: m.Latency.Stdev.Seconds(), LatMaxS: m.Latency.Max.Seconds(),
		LatPcts: map[string]float64{}, LatCorr: m.Latency.Corrected,
		Errors: m.Errors.Total(),
		ErrorsBy: map[string]int64{"connect": m.Errors.Connect, "read": m.Errors.Read,
			"write": m.Errors.Write, "timeout": m.Errors.Timeout, "other": m.Errors.Other},
		ErrorMsgs:        []jsonErrorMessage{},
		Status:           map[string]int64{},
		ServerCPUSeconds: m.ServerCPU, ClientCPUSeconds: m.ClientCPU,
		Source:   sourceJSON(m.Source),
		Warnings: m.Warnings,
	}
	j.RequestsSent, j.RPSStdev, j.RPSMax, j.RPSMin = m.RequestsSent, m.RPSStdev, m.RPSMax, m.RPSMin
	j.RPSPcts = map[string]float64{}
	for _, p := range m.RPSPercentiles {
		j.RPSPcts[strconv.FormatFloat(p.P, 'f', -1, 64)] = p.Value
	}
	j.PerThreadRPS = map[string]float64{"mean": m.PerThreadRPS.Mean, "stdev": m.PerThreadRPS.Stdev, "max": m.PerThreadRPS.Max}
	j.LatMinS, j.LatSamples, j.Mismatches = m.Latency.Min.Seconds(), m.Latency.Samples, m.Errors.Mismatches
	j.ServerHost, j.ClientHost, j.Shard = m.ServerHost, m.ClientHost, m.Shard
	j.SettingsFrom, j.Title, j.TitleLine = settingsJSON(m.Settings), m.Title, m.TitleLine
	j.BytesPerSSamples = rateSamplesJSON(m.BytesPerSecSamples)
	j.Phase, j.Rate, j.Open = m.Phase, m.Rate, openJSON(m.Open)
	for _, b := range m.Latency.Buckets {
		j.LatBuckets = append(j.LatBuckets, jsonLatencyBucket{LowS: b.Low.Seconds(), HighS: b.High.Seconds(), Count: b.Count})
	}
	for _, p := range m.Latency.Percentiles {
		j.LatPcts[strconv.FormatFloat(p.P, 'f', -1, 64)] = p.Value.Seconds()
	}
	for _, e := range m.Errors.Messages {
		j.ErrorMsgs = append(j.ErrorMsgs, jsonErrorMessage{Text: e.Text, Count: e.Count})
	}
	if s := m.Status; s.Known {
		j.Status = map[string]int64{"1xx": s.C1xx, "2xx": s.C2xx, "3xx": s.C3xx, "4xx": s.C4xx, "5xx": s.C5xx, "other": s.Other}
	}
	if m.Status.Non2xx > 0 {
		j.Status["non2xx"] = m.Status.Non2xx
	}
	return j
}

func targetJSON(t *Target) jsonTarget {
	return jsonTarget{
		Kind: "target", Run: t.Run, Target: t.Name, Runtime: t.Runtime,
		BuildS: t.Build.Seconds(), BuildCached: t.BuildCached, StartupS: t.Startup.Seconds(),
		RSSBefore: t.RSSBefore, RSSAfter: t.RSSAfter, RSSPeak: t.RSSPeak,
		ArtifactBytes: t.ArtifactBytes, Conformance: t.Conformance, Failed: t.Failed,
		Transcript: t.Transcript, Source: sourceJSON(t.Source),
	}
}
