package parse

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// bombardierJSON mirrors the JSON template of bombardier v1.2.x (-o json).
// Latency figures are microseconds; durations are seconds. Its parts are
// aliases of unnamed struct types, as they were written inline before the
// fast decoder needed names for them: encoding/json names a field's type in
// its errors.
type bombardierJSON struct {
	Spec   bombardierSpec    `json:"spec"`
	Result *bombardierResult `json:"result"`
	// latency is Result.Latency.Percentiles as the fast decoder reads them,
	// ascending; nil when they are to be read from the map.
	latency []RatePercentile
}

type bombardierSpec = struct {
	NumberOfConnections int     `json:"numberOfConnections"`
	TestType            string  `json:"testType"`
	TestDurationSeconds float64 `json:"testDurationSeconds"`
	TimeoutSeconds      float64 `json:"timeoutSeconds"` // each request's; bombardier waits for those in flight up to it
	NumberOfRequests    int64   `json:"numberOfRequests"`
	Method              string  `json:"method"`
	URL                 string  `json:"url"`
	Rate                float64 `json:"rate"`
	Client              string  `json:"client"`
}

type bombardierResult = struct {
	BytesRead        int64              `json:"bytesRead"`
	BytesWritten     int64              `json:"bytesWritten"`
	TimeTakenSeconds float64            `json:"timeTakenSeconds"`
	Req1xx           int64              `json:"req1xx"`
	Req2xx           int64              `json:"req2xx"`
	Req3xx           int64              `json:"req3xx"`
	Req4xx           int64              `json:"req4xx"`
	Req5xx           int64              `json:"req5xx"`
	Others           int64              `json:"others"`
	Errors           []bombardierError  `json:"errors"`
	Latency          *bombardierLatency `json:"latency"`
	RPS              bombardierRPS      `json:"rps"`
}

type bombardierError = struct {
	Description string `json:"description"`
	Count       int64  `json:"count"`
}

type bombardierLatency = struct {
	Mean        float64            `json:"mean"`
	Stddev      float64            `json:"stddev"`
	Max         float64            `json:"max"`
	Percentiles map[string]float64 `json:"percentiles"`
}

type bombardierRPS = struct {
	Mean   float64 `json:"mean"`
	Stddev float64 `json:"stddev"`
	Max    float64 `json:"max"`
}

// jsonBlock collects the lines of one JSON document and decodes it when the
// braces balance.
type jsonBlock struct {
	ctx    *context
	first  int
	last   int
	text   []byte
	depth  int
	inStr  bool
	escape bool
	decode func(ctx *context, doc []byte, first, last int) ([]Record, error)
}

// scan follows the braces of s, outside strings.
func (b *jsonBlock) scan(s string) {
	depth, inStr, escape := b.depth, b.inStr, b.escape
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case !inStr:
			inStr = c == '"'
			depth += int(jsonNesting[c])
		case escape:
			escape = false
		case c == '\\':
			escape = true
		case c == '"':
			inStr = false
		}
	}
	b.depth, b.inStr, b.escape = depth, inStr, escape
}

// jsonNesting is +1 for the bytes that open an object or array and -1 for
// those that close one.
var jsonNesting = [256]int8{'{': 1, '[': 1, '}': -1, ']': -1}

func (b *jsonBlock) complete() bool { return b.depth <= 0 && len(b.text) > 0 }

func (b *jsonBlock) add(l line) (bool, error) {
	if b.complete() {
		return false, nil
	}
	b.text = append(b.text, l.text...)
	b.text = append(b.text, '\n')
	b.last = l.num
	b.scan(l.text)
	return true, nil
}

func (b *jsonBlock) end() ([]Record, error) {
	if !b.complete() {
		return nil, &SyntaxError{File: b.ctx.file, Line: b.last, Msg: "JSON document cut short"}
	}
	return b.decode(b.ctx, b.text, b.first, b.last)
}

// startBombardierJSON starts a block at a line that opens a bombardier JSON
// result ({"spec":…}).
func startBombardierJSON(ctx *context, l line) block {
	t := l.trimmed()
	if !strings.HasPrefix(t, "{") || !strings.Contains(t, `"spec"`) {
		return nil
	}
	b := &jsonBlock{ctx: ctx, first: l.num, decode: decodeBombardierJSON}
	b.add(l)
	return b
}

func decodeBombardierJSON(ctx *context, doc []byte, first, last int) ([]Record, error) {
	var j bombardierJSON
	if !j.decodeFast(doc) {
		j = bombardierJSON{}
		if err := json.Unmarshal(doc, &j); err != nil {
			return nil, &SyntaxError{File: ctx.file, Line: first, Msg: fmt.Sprintf("bombardier JSON: %v", err)}
		}
	}
	if j.Result == nil {
		return nil, &SyntaxError{File: ctx.file, Line: first, Msg: `bombardier JSON without "result"`}
	}
	if msg := j.check(doc); msg != "" {
		return nil, &SyntaxError{File: ctx.file, Line: first, Msg: "bombardier JSON: " + msg}
	}
	r := j.Result
	m := &Measurement{
		Tool:        ToolBombardier,
		Method:      j.Spec.Method,
		URL:         j.Spec.URL,
		Connections: j.Spec.NumberOfConnections,
		Rate:        j.Spec.Rate,
		Duration:    seconds(r.TimeTakenSeconds),
		ToolRPS:     r.RPS.Mean,
		RPSStdev:    r.RPS.Stddev,
		RPSMax:      r.RPS.Max,
		BytesRead:   r.BytesRead,
		Status: StatusCounts{Known: true, C1xx: r.Req1xx, C2xx: r.Req2xx, C3xx: r.Req3xx,
			C4xx: r.Req4xx, C5xx: r.Req5xx, Other: r.Others},
		Source: Source{LineStart: first, LineEnd: last},
	}
	if j.Spec.TestType == "timed" {
		m.Window = seconds(j.Spec.TestDurationSeconds)
	}
	m.Requests = r.Req1xx + r.Req2xx + r.Req3xx + r.Req4xx + r.Req5xx + r.Others
	if r.TimeTakenSeconds > 0 {
		m.BytesPerSec = float64(r.BytesRead+r.BytesWritten) / r.TimeTakenSeconds
		m.BytesPerSecCountsWrites = true
	}
	if lat := r.Latency; lat != nil {
		m.Latency.Mean = micros(lat.Mean)
		m.Latency.Stdev = micros(lat.Stddev)
		m.Latency.Max = micros(lat.Max)
		ps, err := j.latencyPercentiles()
		if err != nil {
			return nil, &SyntaxError{File: ctx.file, Line: first, Msg: "bombardier JSON: " + err.Error()}
		}
		if len(ps) > 0 {
			m.Latency.Percentiles = make([]Percentile, 0, len(ps))
		}
		for _, p := range ps {
			m.Latency.Percentiles = append(m.Latency.Percentiles, Percentile{P: p.P, Value: micros(p.Value)})
		}
	}
	for _, e := range r.Errors {
		m.Errors.Messages = append(m.Errors.Messages, ErrorMessage{Text: e.Description, Count: e.Count})
		addBombardierError(&m.Errors, e.Description, e.Count)
	}
	if msg := j.checkWindow(m, ctx.file, first); msg != "" {
		return nil, &SyntaxError{File: ctx.file, Line: first, Msg: "bombardier JSON: " + msg}
	}
	return []Record{m}, nil
}

// latencyPercentiles returns the latency percentiles in ascending order of
// P, with values in microseconds.
func (j *bombardierJSON) latencyPercentiles() ([]RatePercentile, error) {
	if j.latency != nil {
		return j.latency, nil
	}
	var ps []RatePercentile
	for k, v := range j.Result.Latency.Percentiles {
		p, err := strconv.ParseFloat(k, 64)
		if err != nil {
			return nil, fmt.Errorf("percentile %q is not a number", k)
		}
		ps = append(ps, RatePercentile{P: p, Value: v})
	}
	slices.SortFunc(ps, func(a, b RatePercentile) int { return cmp.Compare(a.P, b.P) })
	return ps, nil
}

// addBombardierError sorts one bombardier error message into a kind.
func addBombardierError(e *Errors, msg string, n int64) {
	low := strings.ToLower(msg)
	switch {
	case strings.Contains(low, "timeout") || strings.Contains(low, "timed out") || strings.Contains(low, "deadline exceeded"):
		e.Timeout += n
	case strings.Contains(low, "connect:") || strings.Contains(low, "dial"):
		e.Connect += n
	case strings.Contains(low, "read") || strings.Contains(low, "eof") || strings.Contains(low, "closed connection") || strings.Contains(low, "reset by peer"):
		e.Read += n
	case strings.Contains(low, "write") || strings.Contains(low, "broken pipe"):
		e.Write += n
	default:
		e.Other += n
	}
}

// seconds converts a float number of seconds to a Duration (nanoseconds).
func seconds(s float64) time.Duration { return nanos(s * float64(time.Second)) }

// micros converts a float number of microseconds to a Duration.
func micros(us float64) time.Duration { return nanos(us * float64(time.Microsecond)) }
