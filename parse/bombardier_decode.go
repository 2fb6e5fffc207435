package parse

import (
	"cmp"
	"slices"
	"strconv"
)

// The keys of bombardierJSON and the structs in it, as their tags spell them.
var (
	bombardierKeys       = []string{"spec", "result"}
	bombardierSpecKeys   = []string{"numberOfConnections", "testType", "testDurationSeconds", "timeoutSeconds", "numberOfRequests", "method", "url", "rate", "client"}
	bombardierResultKeys = []string{"bytesRead", "bytesWritten", "timeTakenSeconds", "req1xx", "req2xx", "req3xx", "req4xx", "req5xx", "others", "errors", "latency", "rps"}
	bombardierErrorKeys  = []string{"description", "count"}
	bombardierLatKeys    = []string{"mean", "stddev", "max", "percentiles"}
	bombardierRPSKeys    = []string{"mean", "stddev", "max"}
)

// decodeFast decodes doc into j as json.Unmarshal would, without
// reflection, and reports whether it could; see jsonReader.
func (j *bombardierJSON) decodeFast(doc []byte) bool {
	d := newJSONReader(doc)
	f := d.fields(bombardierKeys)
	d.object(func(key []byte) {
		switch f.field(key) {
		case "spec":
			if !d.null() {
				decodeBombardierSpec(d, &j.Spec)
			}
		case "result":
			if !d.null() {
				j.Result = new(bombardierResult)
				j.decodeResult(d)
			}
		default:
			d.skip(0)
		}
	})
	return d.done()
}

func decodeBombardierSpec(d *jsonReader, s *bombardierSpec) {
	f := d.fields(bombardierSpecKeys)
	d.object(func(key []byte) {
		switch f.field(key) {
		case "numberOfConnections":
			d.int(&s.NumberOfConnections)
		case "testType":
			d.string(&s.TestType)
		case "testDurationSeconds":
			d.float(&s.TestDurationSeconds)
		case "timeoutSeconds":
			d.float(&s.TimeoutSeconds)
		case "numberOfRequests":
			d.int64(&s.NumberOfRequests)
		case "method":
			d.string(&s.Method)
		case "url":
			d.string(&s.URL)
		case "rate":
			d.float(&s.Rate)
		case "client":
			d.string(&s.Client)
		default:
			d.skip(1)
		}
	})
}

func (j *bombardierJSON) decodeResult(d *jsonReader) {
	r := j.Result
	f := d.fields(bombardierResultKeys)
	d.object(func(key []byte) {
		switch f.field(key) {
		case "bytesRead":
			d.int64(&r.BytesRead)
		case "bytesWritten":
			d.int64(&r.BytesWritten)
		case "timeTakenSeconds":
			d.float(&r.TimeTakenSeconds)
		case "req1xx":
			d.int64(&r.Req1xx)
		case "req2xx":
			d.int64(&r.Req2xx)
		case "req3xx":
			d.int64(&r.Req3xx)
		case "req4xx":
			d.int64(&r.Req4xx)
		case "req5xx":
			d.int64(&r.Req5xx)
		case "others":
			d.int64(&r.Others)
		case "errors":
			decodeBombardierErrors(d, r)
		case "latency":
			if !d.null() {
				r.Latency = new(bombardierLatency)
				j.decodeLatency(d)
			}
		case "rps":
			if !d.null() {
				decodeBombardierRPS(d, &r.RPS)
			}
		default:
			d.skip(1)
		}
	})
}

// decodeErrors reads the error list; a null entry gives up.
func decodeBombardierErrors(d *jsonReader, r *bombardierResult) {
	if d.null() {
		return
	}
	r.Errors = []bombardierError{} // as encoding/json leaves an empty list
	d.array(func() {
		var e bombardierError
		f := d.fields(bombardierErrorKeys)
		d.object(func(key []byte) {
			switch f.field(key) {
			case "description":
				d.string(&e.Description)
			case "count":
				d.int64(&e.Count)
			default:
				d.skip(2)
			}
		})
		r.Errors = append(r.Errors, e)
	})
}

func (j *bombardierJSON) decodeLatency(d *jsonReader) {
	l := j.Result.Latency
	f := d.fields(bombardierLatKeys)
	d.object(func(key []byte) {
		switch f.field(key) {
		case "mean":
			d.float(&l.Mean)
		case "stddev":
			d.float(&l.Stddev)
		case "max":
			d.float(&l.Max)
		case "percentiles":
			if !d.null() {
				j.latency = decodeBombardierPercentiles(d)
			}
		default:
			d.skip(2)
		}
	})
}

// decodeBombardierPercentiles reads {"50": 225, …} in ascending order. A
// key that is not a number, or two keys for one percentile, give up: the
// slow path reports the one and keeps the last of the other.
func decodeBombardierPercentiles(d *jsonReader) []RatePercentile {
	var ps []RatePercentile
	d.object(func(key []byte) {
		var v float64
		d.float(&v)
		p, ok := exactDecimal(key, 0)
		if !ok {
			var err error
			p, err = strconv.ParseFloat(string(key), 64)
			ok = err == nil
		}
		if !ok {
			d.ok = false
		}
		ps = append(ps, RatePercentile{P: p, Value: v})
	})
	slices.SortFunc(ps, func(a, b RatePercentile) int { return cmp.Compare(a.P, b.P) })
	for i := 1; i < len(ps); i++ {
		if cmp.Compare(ps[i-1].P, ps[i].P) == 0 {
			d.ok = false
		}
	}
	return ps
}

func decodeBombardierRPS(d *jsonReader, s *bombardierRPS) {
	f := d.fields(bombardierRPSKeys)
	d.object(func(key []byte) {
		switch f.field(key) {
		case "mean":
			d.float(&s.Mean)
		case "stddev":
			d.float(&s.Stddev)
		case "max":
			d.float(&s.Max)
		default:
			d.skip(2)
		}
	})
}
