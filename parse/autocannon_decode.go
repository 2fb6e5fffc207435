package parse

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// autocannonKeys are the keys of autocannonJSON, as its tags spell them.
var autocannonKeys = []string{
	"url", "connections", "pipelining", "workers", "duration", "samples", "start", "finish", "errors", "timeouts", "mismatches",
	"non2xx", "resets", "1xx", "2xx", "3xx", "4xx", "5xx", "latency", "requests", "throughput",
}

// decodeFast decodes doc into j as json.Unmarshal would, without
// reflection, and reports whether it could; see jsonReader.
func (j *autocannonJSON) decodeFast(doc []byte) bool {
	d := newJSONReader(doc)
	f := d.fields(autocannonKeys)
	d.object(func(key []byte) {
		switch f.field(key) {
		case "url":
			d.string(&j.URL)
		case "connections":
			d.int(&j.Connections)
		case "pipelining":
			d.int(&j.Pipelining)
		case "workers":
			d.int(&j.Workers)
		case "duration":
			d.float(&j.Duration)
		case "samples":
			d.int(&j.Samples)
		case "start":
			d.string(&j.Start)
		case "finish":
			d.string(&j.Finish)
		case "errors":
			d.int64(&j.Errors)
		case "timeouts":
			d.int64(&j.Timeouts)
		case "mismatches":
			d.int64(&j.Mismatches)
		case "non2xx":
			d.int64(&j.Non2xx)
		case "resets":
			d.int64(&j.Resets)
		case "1xx":
			if !d.null() {
				j.C1xx = new(int64)
				d.int64(j.C1xx)
			}
		case "2xx":
			d.int64(&j.C2xx)
		case "3xx":
			d.int64(&j.C3xx)
		case "4xx":
			d.int64(&j.C4xx)
		case "5xx":
			d.int64(&j.C5xx)
		case "latency":
			d.stats(&j.Latency)
		case "requests":
			d.stats(&j.Requests)
		case "throughput":
			d.stats(&j.Throughput)
		default:
			d.skip(0)
		}
	})
	return d.done()
}

// stats reads one of autocannon's objects of numbers as
// jsonStats.UnmarshalJSON does; null leaves s alone. Two keys naming the
// same percentile give up: which one wins is the slow path's to say.
func (d *jsonReader) stats(s *jsonStats) {
	if d.null() {
		return
	}
	out := jsonStats{present: true, percentiles: make([]RatePercentile, 0, 16)}
	d.object(func(key []byte) {
		var v float64
		if !d.null() {
			d.float(&v)
		}
		if out.keep(string(key), v) {
			return
		}
		if p, ok := statPercentile(key); ok {
			out.percentiles = append(out.percentiles, RatePercentile{P: p, Value: v})
		}
	})
	if len(out.percentiles) == 0 {
		out.percentiles = nil // as jsonPercentiles leaves it
	}
	slices.SortFunc(out.percentiles, func(a, b RatePercentile) int { return cmp.Compare(a.P, b.P) })
	for i := 1; i < len(out.percentiles); i++ {
		if cmp.Compare(out.percentiles[i-1].P, out.percentiles[i].P) == 0 {
			d.ok = false
		}
	}
	*s = out
}

// statPercentile reads a "p97_5" key as jsonPercentiles does.
func statPercentile(key []byte) (float64, bool) {
	if len(key) == 0 || key[0] != 'p' {
		return 0, false
	}
	var buf [24]byte
	if name := key[1:]; len(name) <= len(buf) {
		n := copy(buf[:], name)
		for i, c := range buf[:n] {
			if c == '_' {
				buf[i] = '.'
			}
		}
		if p, ok := exactDecimal(buf[:n], 0); ok {
			return p, true
		}
	}
	p, err := strconv.ParseFloat(strings.ReplaceAll(string(key[1:]), "_", "."), 64)
	return p, err == nil
}
