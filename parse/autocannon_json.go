package parse

import (
	"encoding/json"
	"fmt"
	"sort"
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
	URL         string             `json:"url"`
	Connections int                `json:"connections"`
	Pipelining  int                `json:"pipelining"`
	Workers     int                `json:"workers"`
	Duration    float64            `json:"duration"`
	Errors      int64              `json:"errors"`
	Timeouts    int64              `json:"timeouts"`
	Mismatches  int64              `json:"mismatches"`
	Non2xx      int64              `json:"non2xx"`
	Resets      int64              `json:"resets"`
	C1xx        *int64             `json:"1xx"`
	C2xx        int64              `json:"2xx"`
	C3xx        int64              `json:"3xx"`
	C4xx        int64              `json:"4xx"`
	C5xx        int64              `json:"5xx"`
	Latency     map[string]float64 `json:"latency"`
	Requests    map[string]float64 `json:"requests"`
	Throughput  map[string]float64 `json:"throughput"`
}

// startAutocannonJSON starts a block at a line opening an autocannon result.
func startAutocannonJSON(ctx *context, l line) block {
	t := strings.TrimSpace(l.text)
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
	if err := json.Unmarshal(doc, &j); err != nil {
		return nil, &SyntaxError{File: ctx.file, Line: first, Msg: fmt.Sprintf("autocannon JSON: %v", err)}
	}
	if j.Latency == nil || j.Requests == nil {
		return nil, &SyntaxError{File: ctx.file, Line: first, Msg: `autocannon JSON without "latency" and "requests"`}
	}
	m := &Measurement{
		Tool:         ToolAutocannon,
		URL:          j.URL,
		Connections:  j.Connections,
		Pipelining:   j.Pipelining,
		Threads:      j.Workers,
		Duration:     seconds(j.Duration),
		Requests:     int64(j.Requests["total"]),
		RequestsSent: int64(j.Requests["sent"]),
		RPS:          j.Requests["mean"],
		RPSStdev:     j.Requests["stddev"],
		RPSMin:       j.Requests["min"],
		RPSMax:       j.Requests["max"],
		BytesRead:    int64(j.Throughput["total"]),
		BytesPerSec:  j.Throughput["mean"],
		Latency: Latency{
			Mean:    jsonMillis(j.Latency["mean"]),
			Stdev:   jsonMillis(j.Latency["stddev"]),
			Min:     jsonMillis(j.Latency["min"]),
			Max:     jsonMillis(j.Latency["max"]),
			Samples: int64(j.Latency["totalCount"]),
		},
		Status: StatusCounts{Non2xx: j.Non2xx},
		Errors: Errors{Timeout: j.Timeouts, Other: max(j.Errors-j.Timeouts, 0), Mismatches: j.Mismatches},
		Source: Source{LineStart: first, LineEnd: last},
	}
	if j.C1xx != nil {
		m.Status = StatusCounts{Known: true, C1xx: *j.C1xx, C2xx: j.C2xx, C3xx: j.C3xx, C4xx: j.C4xx, C5xx: j.C5xx, Non2xx: j.Non2xx}
	}
	for _, p := range jsonPercentiles(j.Latency) {
		m.Latency.Percentiles = append(m.Latency.Percentiles, Percentile{P: p.P, Value: jsonMillis(p.Value)})
	}
	m.RPSPercentiles = jsonPercentiles(j.Requests)
	if j.Resets > 0 {
		m.Warnings = append(m.Warnings, fmt.Sprintf("%s:%d: autocannon reset its request pipeline %d times", ctx.file, first, j.Resets))
	}
	return []Record{m}, nil
}

// jsonPercentiles collects the "p2_5"-style keys as percentiles, ascending.
func jsonPercentiles(stats map[string]float64) []RatePercentile {
	var out []RatePercentile
	for k, v := range stats {
		name, ok := strings.CutPrefix(k, "p")
		if !ok {
			continue
		}
		p, err := strconv.ParseFloat(strings.ReplaceAll(name, "_", "."), 64)
		if err != nil {
			continue
		}
		out = append(out, RatePercentile{P: p, Value: v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].P < out[j].P })
	return out
}

// jsonMillis converts milliseconds held in a float to a Duration, rounding
// to the nearest nanosecond.
func jsonMillis(ms float64) time.Duration {
	v, _ := millis(strconv.FormatFloat(ms, 'f', -1, 64))
	return v
}
