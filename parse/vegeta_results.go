package parse

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// vegeta's encoded results are one line per request, as `vegeta encode`
// writes them from its binary results (lib/results.go):
//
//	csv:  timestamp (Unix ns), code, latency (ns), bytes out, bytes in, error,
//	      body (base64), attack, seq, method, url, headers (base64)
//	json: {"attack","seq","code","timestamp" (RFC 3339),"latency" (ns),
//	      "bytes_out","bytes_in","error","body","method","url","headers"}
//
// The Reader sums them into one Measurement as vegeta's reports would,
// except that the percentiles are exact (nearest rank) where vegeta's are
// estimated by a t-digest, and that each error is counted. Results come
// in the order they completed, not by seq; a second result with seq 0
// starts the next attack's Measurement (two files of results written one
// after the other). vegeta's own
// default encoding, gob, is not read: see binaryMessage.

// VegetaResult is one request of vegeta's encoded results, the fields
// fairbench reads.
type VegetaResult struct {
	Seq       uint64        // the request's place in the attack's schedule, from 0
	Timestamp time.Time     // when the request was sent
	Code      int           // the response's status; 0 when there was none
	Latency   time.Duration // from sending to the whole response
	BytesOut  int64
	BytesIn   int64
	Error     string // "" for none
	Method    string
	URL       string
}

// ReadVegetaCSV reads the output of `vegeta encode -to csv`, one result a
// line, for a collector that needs the requests themselves (Behind). An
// error names the file and line.
func ReadVegetaCSV(r io.Reader, name string) ([]VegetaResult, error) {
	var out []VegetaResult
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, maxLine)
	for num := 1; sc.Scan(); num++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		res, err := parseVegetaCSV(sc.Text())
		if err != nil {
			return out, &SyntaxError{File: name, Line: num, Msg: "vegeta results: " + err.Error()}
		}
		out = append(out, res)
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

// parseVegetaCSV parses one CSV line of results.
func parseVegetaCSV(text string) (VegetaResult, error) {
	var r VegetaResult
	f, err := splitCSV(text)
	if err != nil {
		return r, err
	}
	if len(f) != 12 {
		return r, fmt.Errorf("%d fields, want 12 (timestamp, code, latency, bytes out, bytes in, error, body, attack, seq, method, url, headers)", len(f))
	}
	var ns, code, lat int64
	for _, v := range []struct {
		name string
		in   string
		out  *int64
	}{{"timestamp", f[0], &ns}, {"code", f[1], &code}, {"latency", f[2], &lat}, {"bytes out", f[3], &r.BytesOut}, {"bytes in", f[4], &r.BytesIn}} {
		n, err := strconv.ParseInt(v.in, 10, 64)
		if err != nil || n < 0 {
			return r, fmt.Errorf("%s %q is not a whole number from 0 to %d", v.name, v.in, int64(math.MaxInt64))
		}
		*v.out = n
	}
	if lat > int64(maxLatency) {
		return r, fmt.Errorf("latency %d ns is over %s", lat, maxLatency)
	}
	seq, err := strconv.ParseUint(f[8], 10, 64)
	if err != nil {
		return r, fmt.Errorf("seq %q is not a whole number", f[8])
	}
	if code > 65535 {
		return r, fmt.Errorf("code %d is not a status", code)
	}
	r.Seq, r.Timestamp, r.Code, r.Latency = seq, time.Unix(0, ns).UTC(), int(code), time.Duration(lat)
	r.Error, r.Method, r.URL = f[5], f[9], f[10]
	return r, nil
}

// splitCSV splits one line of CSV (RFC 4180, as encoding/csv writes it)
// into its fields.
func splitCSV(text string) ([]string, error) {
	var fields []string
	for {
		if !strings.HasPrefix(text, `"`) {
			field, rest, more := strings.Cut(text, ",")
			if strings.Contains(field, `"`) {
				return nil, fmt.Errorf("a quote inside the unquoted field %q", field)
			}
			fields = append(fields, field)
			if !more {
				return fields, nil
			}
			text = rest
			continue
		}
		var b strings.Builder
		i := 1
		for {
			j := strings.IndexByte(text[i:], '"')
			if j < 0 {
				return nil, errors.New("a quoted field is not closed (cut short, or an error over several lines)")
			}
			b.WriteString(text[i : i+j])
			i += j + 1
			if i < len(text) && text[i] == '"' {
				b.WriteByte('"')
				i++
				continue
			}
			break
		}
		fields = append(fields, b.String())
		switch {
		case i == len(text):
			return fields, nil
		case text[i] != ',':
			return nil, fmt.Errorf("%q after a quoted field", text[i:min(i+10, len(text))])
		}
		text = text[i+1:]
	}
}

// vegetaJSONResult mirrors one line of `vegeta encode -to json`.
type vegetaJSONResult struct {
	Seq       *uint64   `json:"seq"`
	Code      uint16    `json:"code"`
	Timestamp time.Time `json:"timestamp"`
	Latency   *int64    `json:"latency"`
	BytesOut  int64     `json:"bytes_out"`
	BytesIn   int64     `json:"bytes_in"`
	Error     string    `json:"error"`
	Method    string    `json:"method"`
	URL       string    `json:"url"`
}

// parseVegetaJSONResult parses one JSON line of results.
func parseVegetaJSONResult(text string) (VegetaResult, error) {
	var j vegetaJSONResult
	if err := json.Unmarshal([]byte(text), &j); err != nil {
		return VegetaResult{}, err
	}
	switch {
	case j.Seq == nil || j.Latency == nil || j.Timestamp.IsZero():
		return VegetaResult{}, errors.New(`a result needs "seq", "timestamp" and "latency"`)
	case *j.Latency < 0 || j.BytesIn < 0 || j.BytesOut < 0:
		return VegetaResult{}, errors.New("a negative latency or byte count")
	case *j.Latency > int64(maxLatency):
		return VegetaResult{}, fmt.Errorf("latency %d ns is over %s", *j.Latency, maxLatency)
	}
	return VegetaResult{Seq: *j.Seq, Timestamp: j.Timestamp, Code: int(j.Code), Latency: time.Duration(*j.Latency),
		BytesIn: j.BytesIn, BytesOut: j.BytesOut, Error: j.Error, Method: j.Method, URL: j.URL}, nil
}

// isVegetaCSVResult reports whether a trimmed line looks like a CSV
// result: a number, then at least eleven more fields.
func isVegetaCSVResult(t string) bool {
	i := digitsEnd([]byte(t[:min(len(t), 20)]), 0)
	return i > 0 && i < len(t) && t[i] == ',' && strings.Count(t, ",") >= 11
}

// isVegetaJSONResult reports whether a trimmed line looks like a JSON result.
func isVegetaJSONResult(t string) bool {
	return strings.HasPrefix(t, "{") && strings.Contains(t, `"seq"`) && strings.Contains(t, `"timestamp"`) &&
		strings.Contains(t, `"latency"`)
}

// vegetaResultsBlock sums the results of one file.
type vegetaResultsBlock struct {
	ctx         *context
	first, last int
	csv         bool
	tally       vegetaTally
	bad         int   // lines that are not results
	firstErr    error // the first line's, given at the end
	seenZero    bool  // a result with seq 0 was read
}

// startVegetaResults starts a block at the first line of encoded results.
func startVegetaResults(ctx *context, l line) block {
	t := l.trimmed()
	csv := isVegetaCSVResult(t)
	if !csv && !isVegetaJSONResult(t) {
		return nil
	}
	b := &vegetaResultsBlock{ctx: ctx, first: l.num, csv: csv}
	_, b.firstErr = b.add(l)
	return b
}

func (b *vegetaResultsBlock) add(l line) (bool, error) {
	t := l.trimmed()
	switch {
	case t == "":
		return false, nil
	case b.csv && (t[0] < '0' || t[0] > '9'), !b.csv && t[0] != '{':
		return false, nil
	}
	var r VegetaResult
	var err error
	if b.csv {
		r, err = parseVegetaCSV(t)
	} else {
		r, err = parseVegetaJSONResult(t)
	}
	if err != nil {
		b.bad++
		b.last = l.num
		return true, &SyntaxError{File: b.ctx.file, Line: l.num, Msg: "vegeta results: " + err.Error() + "; not counted"}
	}
	if r.Seq == 0 && b.seenZero {
		return false, nil // another attack's first request
	}
	b.seenZero = b.seenZero || r.Seq == 0
	b.last = l.num
	b.tally.add(r)
	return true, nil
}

func (b *vegetaResultsBlock) end() ([]Record, error) {
	if b.tally.n == 0 {
		return nil, b.firstErr // each other bad line is reported
	}
	m := b.tally.measurement(b.first, b.last)
	if cmd := b.ctx.cmd; cmd != nil && cmd.tool() == ToolVegeta {
		// The rate the command line offered (applied to m when it is
		// labelled) gives the schedule the results fell behind.
		if v, ok := vegetaFlag(cmd.argv, "rate"); ok {
			if rate, ok := vegetaRate(v); ok {
				late := lateness(b.tally.sent, rate)
				m.Open.Behind = behind(late)
				m.Open.FromSchedule = fromSchedule(b.tally.sent, late)
			}
		}
	}
	if b.bad > 0 {
		m.Warnings = append(m.Warnings, fmt.Sprintf("%d lines of results could not be read and are not counted", b.bad))
	}
	return []Record{m}, b.firstErr
}

// vegetaTally sums results as vegeta's Metrics does.
type vegetaTally struct {
	n, success, bytesIn    int64
	latencies              []time.Duration
	total                  time.Duration
	earliest, latest, last time.Time // last: the latest response
	codes                  map[int]int64
	errIndex               map[string]int
	s                      vegetaSummary
	sent                   []sending
	method, url            string
	mixed                  bool // more than one method or URL
}

func (t *vegetaTally) add(r VegetaResult) {
	if t.n == 0 {
		t.codes, t.errIndex = map[int]int64{}, map[string]int{}
		t.earliest, t.latest, t.method, t.url = r.Timestamp, r.Timestamp, r.Method, r.URL
	}
	t.n++
	t.codes[r.Code]++
	t.bytesIn += r.BytesIn
	t.latencies = append(t.latencies, r.Latency)
	t.sent = append(t.sent, sending{r.Seq, r.Timestamp.UnixNano(), r.Latency})
	t.total += r.Latency
	if r.Timestamp.Before(t.earliest) {
		t.earliest = r.Timestamp
	}
	if r.Timestamp.After(t.latest) {
		t.latest = r.Timestamp
	}
	if end := r.Timestamp.Add(r.Latency); end.After(t.last) {
		t.last = end
	}
	if r.Code >= 200 && r.Code < 400 {
		t.success++
	}
	t.mixed = t.mixed || r.Method != t.method || r.URL != t.url
	if r.Error == "" {
		return
	}
	i, ok := t.errIndex[r.Error]
	if !ok {
		i = len(t.s.errors)
		t.errIndex[r.Error] = i
		t.s.errors = append(t.s.errors, r.Error)
		t.s.counts = append(t.s.counts, 0)
		t.s.noResponse = append(t.s.noResponse, 0)
	}
	t.s.counts[i]++
	if r.Code == 0 {
		t.s.noResponse[i]++
	}
}

// measurement is the tally's Measurement, read from lines first to last.
func (t *vegetaTally) measurement(first, last int) *Measurement {
	s := &t.s
	if s.counts == nil {
		s.counts, s.noResponse = []int64{}, []int64{}
	}
	s.requests, s.bytesIn = t.n, t.bytesIn
	s.attack, s.wait = t.latest.Sub(t.earliest), t.last.Sub(t.latest)
	s.rate, s.throughput = float64(t.n), float64(t.success)
	if secs := s.attack.Seconds(); secs > 0 {
		s.rate /= secs
		s.throughput /= (s.attack + s.wait).Seconds()
	}
	s.success = float64(t.success) / float64(t.n)
	for code, n := range t.codes {
		s.codes = append(s.codes, vegetaCode{code, n})
	}
	slices.SortFunc(s.codes, func(a, b vegetaCode) int { return a.code - b.code })
	slices.Sort(t.latencies)
	s.latency = Latency{Min: t.latencies[0], Max: t.latencies[len(t.latencies)-1], Mean: t.total / time.Duration(t.n)}
	for _, p := range vegetaPercentiles {
		rank := int(math.Ceil(p / 100 * float64(len(t.latencies))))
		s.latency.Percentiles = append(s.latency.Percentiles, Percentile{P: p, Value: t.latencies[max(rank, 1)-1]})
	}
	m := s.measurement(first, last)
	if !t.mixed {
		m.Method, m.URL = t.method, t.url
	}
	return m
}
