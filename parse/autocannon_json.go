package parse

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// autocannon --json writes one line, JSON.stringify(result):
//
//	{"url":…,"connections":10,"sampleInt":1000,"pipelining":1,"workers":0,
//	 "duration":2.01,"samples":2,"start":…,"finish":…,"errors":0,"timeouts":0,
//	 "mismatches":0,"non2xx":0,"resets":0,"1xx":0,"2xx":35376,…,
//	 "statusCodeStats":{"200":{"count":35376}},
//	 "latency":{"average":…,"mean":…,"stddev":…,"min":…,"max":…,"p0_001":…,…,"totalCount":…},
//	 "requests":{… per-second samples …,"total":35376,"sent":35386},
//	 "throughput":{… bytes per second samples …,"total":4563504}}
//
// Latency is in milliseconds. requests.total counts completed requests,
// requests.sent those sent. Windows editors may prefix a BOM (the reader
// drops it). Older versions lack the 1xx…5xx, workers and sent fields.
type autocannonJSON struct {
	URL         string    `json:"url"`
	Connections int       `json:"connections"`
	Pipelining  int       `json:"pipelining"`
	Workers     int       `json:"workers"`
	Duration    float64   `json:"duration"`
	Samples     int       `json:"samples"`
	Start       string    `json:"start"`
	Finish      string    `json:"finish"`
	Errors      int64     `json:"errors"`
	Timeouts    int64     `json:"timeouts"`
	Mismatches  int64     `json:"mismatches"`
	Non2xx      int64     `json:"non2xx"`
	Resets      int64     `json:"resets"`
	C1xx        *int64    `json:"1xx"`
	C2xx        int64     `json:"2xx"`
	C3xx        int64     `json:"3xx"`
	C4xx        int64     `json:"4xx"`
	C5xx        int64     `json:"5xx"`
	Latency     jsonStats `json:"latency"`
	Requests    jsonStats `json:"requests"`
	Throughput  jsonStats `json:"throughput"`
}

// startAutocannonJSON starts a block at a line opening an autocannon result.
func startAutocannonJSON(ctx *context, l line) block {
	t := l.trimmed()
	switch {
	case strings.HasPrefix(t, `{"url":`), strings.HasPrefix(t, `{"title":`):
	case strings.HasPrefix(t, "{") && strings.Contains(t, `"latency"`) && strings.Contains(t, `"requests"`):
	default:
		return nil
	}
	b := &jsonBlock{ctx: ctx, first: l.num, decode: decodeAutocannonJSON}
	b.add(l)
	return b
}

func decodeAutocannonJSON(ctx *context, doc []byte, first, last int) ([]Record, error) {
	var j autocannonJSON
	if !j.decodeFast(doc) {
		j = autocannonJSON{}
		if err := json.Unmarshal(doc, &j); err != nil {
			return nil, &SyntaxError{File: ctx.file, Line: first, Msg: fmt.Sprintf("autocannon JSON: %v", err)}
		}
	}
	if !j.Latency.present || !j.Requests.present {
		return nil, &SyntaxError{File: ctx.file, Line: first, Msg: `autocannon JSON without "latency" and "requests"`}
	}
	if msg := j.check(doc); msg != "" {
		return nil, &SyntaxError{File: ctx.file, Line: first, Msg: "autocannon JSON: " + msg}
	}
	m := &Measurement{
		Tool:         ToolAutocannon,
		URL:          j.URL,
		Connections:  j.Connections,
		Pipelining:   j.Pipelining,
		Threads:      j.Workers,
		Duration:     seconds(j.Duration),
		Requests:     int64(j.Requests.total),
		RequestsSent: int64(j.Requests.sent),
		ToolRPS:      j.Requests.mean,
		RPSStdev:     j.Requests.stddev,
		RPSMin:       j.Requests.min,
		RPSMax:       j.Requests.max,
		BytesRead:    int64(j.Throughput.total),
		BytesPerSec:  j.Throughput.mean,
		Latency: Latency{
			Mean:    jsonMillis(j.Latency.mean),
			Stdev:   jsonMillis(j.Latency.stddev),
			Min:     jsonMillis(j.Latency.min),
			Max:     jsonMillis(j.Latency.max),
			Samples: int64(j.Latency.totalCount),
		},
		Status: StatusCounts{Non2xx: j.Non2xx},
		Errors: Errors{Timeout: j.Timeouts, Other: max(j.Errors-j.Timeouts, 0), Mismatches: j.Mismatches},
		Source: Source{LineStart: first, LineEnd: last},
	}
	if j.C1xx != nil {
		m.Status = StatusCounts{Known: true, C1xx: *j.C1xx, C2xx: j.C2xx, C3xx: j.C3xx, C4xx: j.C4xx, C5xx: j.C5xx, Non2xx: j.Non2xx}
	}
	if ps := j.Latency.percentiles; len(ps) > 0 {
		m.Latency.Percentiles = make([]Percentile, 0, len(ps))
	}
	for _, p := range j.Latency.percentiles {
		m.Latency.Percentiles = append(m.Latency.Percentiles, Percentile{P: p.P, Value: jsonMillis(p.Value)})
	}
	m.RPSPercentiles = j.Requests.percentiles
	th := j.Throughput
	m.BytesPerSecSamples = RateSamples{Mean: th.mean, Stdev: th.stddev, Min: th.min, Max: th.max, Percentiles: th.percentiles}
	m.Settings.Pipelining, m.Settings.Threads = FromPrinted, FromPrinted // "pipelining", "workers"
	if j.Resets > 0 {
		m.Warnings = append(m.Warnings, fmt.Sprintf("%s:%d: autocannon reset its request pipeline %d times", ctx.file, first, j.Resets))
	}
	return []Record{m}, nil
}

// jsonPercentiles collects the "p2_5"-style keys as percentiles, ascending.
func jsonPercentiles(stats jsonStatList) []RatePercentile {
	out := make([]RatePercentile, 0, len(stats))
	for _, st := range stats {
		name, ok := strings.CutPrefix(st.key, "p")
		if !ok {
			continue
		}
		p, err := strconv.ParseFloat(strings.ReplaceAll(name, "_", "."), 64)
		if err != nil {
			continue
		}
		out = append(out, RatePercentile{P: p, Value: st.val})
	}
	if len(out) == 0 {
		return nil
	}
	slices.SortFunc(out, func(a, b RatePercentile) int { return cmp.Compare(a.P, b.P) })
	return out
}

// jsonMillis converts milliseconds held in a float to a Duration, rounding
// to the nearest nanosecond. A whole number of milliseconds, as latencies
// mostly are, is scaled as millis scales its printed digits; others are
// printed and read back.
func jsonMillis(ms float64) time.Duration {
	if ms == math.Trunc(ms) && math.Abs(ms) < 1<<52 {
		return nanos(ms * 1e6)
	}
	v, ok := millis(strconv.FormatFloat(ms, 'f', -1, 64))
	if !ok { // out of a Duration's range: saturated, for the range check
		return nanos(ms * 1e6)
	}
	return v
}

// jsonStats is what is kept of one of autocannon's flat objects of numbers
// ("latency", "requests", "throughput"; some 25 keys each). present reports
// that the object was there and not null.
type jsonStats struct {
	present                                         bool
	mean, stddev, min, max, total, sent, totalCount float64
	percentiles                                     []RatePercentile // the "p2_5"-style keys, ascending
}

// jsonStatList is a stats object's keys in the order they first appear. A
// key given twice keeps its last value, as in a map; null is 0.
type jsonStatList []jsonStat

type jsonStat struct {
	key string
	val float64
}

// stats keeps what the decoder uses.
func (s jsonStatList) stats() jsonStats {
	out := jsonStats{present: true, percentiles: jsonPercentiles(s)}
	for _, st := range s {
		out.keep(st.key, st.val)
	}
	return out
}

// keep stores v as the statistic named key and reports whether the
// decoder uses one of that name; percentiles are not among them. Both
// the reflective path (stats) and the fast one (jsonReader.stats) store
// through it, so that they keep the same keys.
func (s *jsonStats) keep(key string, v float64) bool {
	switch key {
	case "mean":
		s.mean = v
	case "stddev":
		s.stddev = v
	case "min":
		s.min = v
	case "max":
		s.max = v
	case "total":
		s.total = v
	case "sent":
		s.sent = v
	case "totalCount":
		s.totalCount = v
	default:
		return false
	}
	return true
}

// UnmarshalJSON reads {"key": number, …} for encoding/json, which has
// checked that b is valid JSON before it calls this.
func (s *jsonStats) UnmarshalJSON(b []byte) error {
	if string(bytes.TrimSpace(b)) == "null" {
		return nil
	}
	d := jsonScan{b: b}
	if !d.skip('{') {
		return fmt.Errorf("autocannon statistics are not an object: %.20s", b)
	}
	out := make(jsonStatList, 0, 32)
	for !d.skip('}') {
		d.skip(',')
		key, err := d.key()
		if err != nil {
			return err
		}
		d.skip(':')
		lit := d.literal()
		v, err := strconv.ParseFloat(string(lit), 64)
		switch {
		case string(lit) == "null":
			v = 0
		case err != nil:
			return fmt.Errorf("autocannon statistic %q: %.20q is not a number", key, lit)
		}
		out = out.set(key, v)
	}
	*s = out.stats()
	return nil
}

func (s jsonStatList) set(key string, v float64) jsonStatList {
	for i := range s {
		if s[i].key == key {
			s[i].val = v
			return s
		}
	}
	return append(s, jsonStat{key, v})
}

// jsonScan walks valid JSON text.
type jsonScan struct {
	b []byte
	i int
}

func (d *jsonScan) space() {
	for d.i < len(d.b) && (d.b[d.i] == ' ' || d.b[d.i] == '\t' || d.b[d.i] == '\n' || d.b[d.i] == '\r') {
		d.i++
	}
}

// skip skips c, and the space before it, if it comes next.
func (d *jsonScan) skip(c byte) bool {
	d.space()
	if d.i < len(d.b) && d.b[d.i] == c {
		d.i++
		return true
	}
	return d.i >= len(d.b) && c == '}' // the end of the text ends the object
}

// key reads a string; one with escapes is decoded by encoding/json.
func (d *jsonScan) key() (string, error) {
	d.space()
	start := d.i
	if start >= len(d.b) || d.b[start] != '"' {
		return "", fmt.Errorf("autocannon statistics: want a key at %.20q", d.b[start:])
	}
	escaped := false
	for d.i++; d.i < len(d.b) && d.b[d.i] != '"'; d.i++ {
		if d.b[d.i] == '\\' {
			escaped = true
			d.i++
		}
	}
	if d.i >= len(d.b) {
		return "", fmt.Errorf("autocannon statistics: key %.20q has no end", d.b[start:])
	}
	d.i++
	raw := d.b[start:d.i]
	if !escaped {
		return string(raw[1 : len(raw)-1]), nil
	}
	var k string
	err := json.Unmarshal(raw, &k)
	return k, err
}

// literal reads a number, true, false or null; anything else gives nothing.
func (d *jsonScan) literal() []byte {
	d.space()
	start := d.i
	for d.i < len(d.b) && strings.IndexByte(",}] \t\r\n{[\":", d.b[d.i]) < 0 {
		d.i++
	}
	return d.b[start:d.i]
}
