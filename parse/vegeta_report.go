package parse

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// vegeta's JSON report (`vegeta report -type=json`) is its Metrics as one
// line of JSON, durations in nanoseconds; a run dir's dump of a vegeta
// measurement is that line followed by the histogram report
// (`-type='hist[…]'`), which this block reads on into the same
// Measurement's Latency.Buckets.

// vegetaJSONReport mirrors the fields fairbench reads of vegeta v12's JSON
// report. Pointers tell a missing key from a zero.
type vegetaJSONReport struct {
	Latencies *struct {
		Mean int64 `json:"mean"`
		P50  int64 `json:"50th"`
		P90  int64 `json:"90th"`
		P95  int64 `json:"95th"`
		P99  int64 `json:"99th"`
		Max  int64 `json:"max"`
		Min  int64 `json:"min"`
	} `json:"latencies"`
	// Buckets is the histogram, keyed by each bucket's low end in
	// nanoseconds, where the report was asked for one (-buckets).
	Buckets map[string]int64 `json:"buckets"`
	BytesIn struct {
		Total int64 `json:"total"`
	} `json:"bytes_in"`
	Duration    int64            `json:"duration"`
	Wait        int64            `json:"wait"`
	Requests    *int64           `json:"requests"`
	Rate        float64          `json:"rate"`
	Throughput  float64          `json:"throughput"`
	Success     float64          `json:"success"`
	StatusCodes map[string]int64 `json:"status_codes"`
	Errors      []string         `json:"errors"`
}

// vegetaReportBlock reads a JSON report and the histogram report that may
// follow it.
type vegetaReportBlock struct {
	json jsonBlock
	hist *vegetaHist
}

// startVegetaJSON starts a block at the line that opens a vegeta JSON report.
func startVegetaJSON(ctx *context, l line) block {
	t := l.trimmed()
	if !strings.HasPrefix(t, "{") || !strings.Contains(t, `"latencies"`) {
		return nil
	}
	b := &vegetaReportBlock{json: jsonBlock{ctx: ctx, first: l.num}}
	b.json.add(l)
	return b
}

func (b *vegetaReportBlock) add(l line) (bool, error) {
	switch {
	case !b.json.complete():
		return b.json.add(l)
	case b.hist == nil:
		if !isVegetaHistHeader(l.trimmed()) {
			return false, nil
		}
		b.hist = &vegetaHist{ctx: b.json.ctx, first: l.num, last: l.num}
		return true, nil
	}
	return b.hist.add(l)
}

func (b *vegetaReportBlock) end() ([]Record, error) {
	var hist []Record
	var histErr error
	if b.hist != nil {
		hist, histErr = b.hist.end()
	}
	if !b.json.complete() {
		return nil, &SyntaxError{File: b.json.ctx.file, Line: b.json.last, Msg: "vegeta JSON report cut short"}
	}
	recs, err := decodeVegetaJSON(b.json.ctx, b.json.text, b.json.first, b.json.last)
	if err != nil || b.hist == nil {
		return append(recs, hist...), joinNonNil(err, histErr)
	}
	if histErr != nil || len(hist) == 0 {
		return recs, histErr // the report stands without its histogram (a bad row was reported where it stood)
	}
	m, h := recs[0].(*Measurement), hist[0].(*Measurement)
	if h.Latency.Samples != m.Requests {
		return recs, &SyntaxError{File: b.json.ctx.file, Line: b.hist.first, Msg: fmt.Sprintf(
			"vegeta histogram counts %d requests, its JSON report %d: not the same results; histogram not counted", h.Latency.Samples, m.Requests)}
	}
	m.Latency.Buckets = h.Latency.Buckets
	m.Source.LineEnd = h.Source.LineEnd
	return recs, nil
}

// joinNonNil joins the errors that are not nil; nil if none.
func joinNonNil(errs ...error) error {
	var out []error
	for _, e := range errs {
		if e != nil {
			out = append(out, e)
		}
	}
	switch len(out) {
	case 0:
		return nil
	case 1:
		return out[0]
	}
	return joined(out)
}

func decodeVegetaJSON(ctx *context, doc []byte, first, last int) ([]Record, error) {
	bad := func(msg string) error {
		return &SyntaxError{File: ctx.file, Line: first, Msg: "vegeta JSON report: " + msg}
	}
	var j vegetaJSONReport
	if err := json.Unmarshal(doc, &j); err != nil {
		return nil, bad(err.Error())
	}
	switch {
	case j.Latencies == nil:
		return nil, bad(`no "latencies"`)
	case j.Requests == nil:
		return nil, bad(`no "requests"`)
	case j.StatusCodes == nil:
		return nil, bad(`no "status_codes"`)
	}
	codes, err := parseVegetaCodes(j.StatusCodes)
	if err != nil {
		return nil, bad(err.Error())
	}
	l := j.Latencies
	s := vegetaSummary{
		requests: *j.Requests, rate: j.Rate, throughput: j.Throughput, success: j.Success,
		attack: time.Duration(j.Duration), wait: time.Duration(j.Wait), bytesIn: j.BytesIn.Total,
		codes: codes, errors: j.Errors,
		latency: Latency{Min: time.Duration(l.Min), Mean: time.Duration(l.Mean), Max: time.Duration(l.Max)},
	}
	for i, v := range [4]int64{l.P50, l.P90, l.P95, l.P99} {
		s.latency.Percentiles = append(s.latency.Percentiles, Percentile{P: vegetaPercentiles[i], Value: time.Duration(v)})
	}
	m := s.measurement(first, last)
	if j.Buckets != nil {
		if m.Latency.Buckets, err = vegetaJSONBuckets(j.Buckets); err != nil {
			return nil, bad(err.Error())
		}
	}
	return []Record{m}, nil
}

// vegetaJSONBuckets turns the report's "buckets" (low end in ns → count)
// into ascending buckets.
func vegetaJSONBuckets(in map[string]int64) ([]LatencyBucket, error) {
	out := make([]LatencyBucket, 0, len(in))
	for k, n := range in {
		low, err := strconv.ParseInt(k, 10, 64)
		if err != nil || low < 0 {
			return nil, fmt.Errorf("bucket %q is not a latency in nanoseconds", k)
		}
		out = append(out, LatencyBucket{Low: time.Duration(low), Count: n})
	}
	slices.SortFunc(out, func(a, b LatencyBucket) int { return cmp.Compare(a.Low, b.Low) })
	for i := 0; i+1 < len(out); i++ {
		out[i].High = out[i+1].Low
	}
	return out, nil
}

// vegetaFloat parses a number vegeta printed with %f or %.2f; NaN and
// infinities, which it never prints, are errors.
func vegetaFloat(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	return v, nil
}

// vegetaCount parses a count vegeta printed with %d.
func vegetaCount(s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a count", s)
	}
	return n, nil
}

// vegetaDuration parses a duration vegeta printed as Go does ("994.57µs").
func vegetaDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration", s)
	}
	return d, nil
}
