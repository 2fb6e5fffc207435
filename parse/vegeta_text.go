package parse

import (
	"fmt"
	"strings"
)

// vegeta's text report (`vegeta report`, -type=text) is a table of
// "Label  [names]  values" lines, then "Error Set:" and each distinct
// error on a line of its own (lib/reporters.go):
//
//	Requests      [total, rate, throughput]         1000, 500.52, 500.27
//	Duration      [total, attack, wait]             1.999s, 1.998s, 994.57µs
//	Latencies     [min, mean, 50, 90, 95, 99, max]  95.803µs, 1.287ms, …
//	Bytes In      [total, mean]                     0, 0.00
//	Bytes Out     [total, mean]                     0, 0.00
//	Success       [ratio]                           100.00%
//	Status Codes  [code:count]                      200:1000
//	Error Set:
//
// Durations are Go's (time.Duration.String), rounded to the unit below
// their largest; the error set ends at a blank line, the end of the file,
// another vegeta report or a line that may start another dump.

// vegetaTextBlock reads one text report.
type vegetaTextBlock struct {
	ctx         *context
	first, last int
	s           vegetaSummary
	seen        map[string]bool // the labels read
	errorSet    bool            // past "Error Set:"
	err         error           // the first bad line
}

// startVegetaText starts a block at a text report's Requests line.
func startVegetaText(ctx *context, l line) block {
	t := l.trimmed()
	if !strings.HasPrefix(t, "Requests") || !strings.Contains(t, "[total, rate, throughput]") {
		return nil
	}
	b := &vegetaTextBlock{ctx: ctx, first: l.num, seen: map[string]bool{}}
	b.add(l)
	return b
}

// vegetaTextLabels are the report's lines, in order, with the names in
// brackets vegeta prints for each.
var vegetaTextLabels = map[string]string{
	"Requests":     "total, rate, throughput",
	"Duration":     "total, attack, wait",
	"Latencies":    "min, mean, 50, 90, 95, 99, max",
	"Bytes In":     "total, mean",
	"Bytes Out":    "total, mean",
	"Success":      "ratio",
	"Status Codes": "code:count",
}

func (b *vegetaTextBlock) add(l line) (bool, error) {
	t := l.trimmed()
	if b.errorSet {
		if t == "" || startsVegetaReport(t) || !vegetaErrorLine(t) && mayStart([]byte(t)) {
			return false, nil
		}
		b.last = l.num
		b.s.errors = append(b.s.errors, t)
		return true, nil
	}
	if t == "Error Set:" {
		b.last, b.errorSet = l.num, true
		return true, nil
	}
	label, rest, ok := strings.Cut(t, "[")
	label = strings.TrimSpace(label)
	names, values, ok2 := strings.Cut(rest, "]")
	want, known := vegetaTextLabels[label]
	if !ok || !ok2 || !known || names != want || b.seen[label] {
		return false, nil
	}
	b.last, b.seen[label] = l.num, true
	if err := b.values(label, strings.TrimSpace(values)); err != nil && b.err == nil {
		b.err = &SyntaxError{File: b.ctx.file, Line: l.num, Msg: fmt.Sprintf("vegeta text report: %s: %v", label, err)}
	}
	return true, nil
}

// vegetaErrorLine reports whether a line has the shape of most of vegeta's
// errors: a response status ("404 Not Found") or net/http's error for a
// request (`Get "http://…": …`). Other lines of the error set are taken as
// errors too, unless they may start another dump (mayStart): the set has
// no end of its own.
func vegetaErrorLine(t string) bool {
	if _, ok := vegetaStatusError(t); ok {
		return true
	}
	method, rest, ok := strings.Cut(t, " ")
	return ok && method != "" && strings.ToUpper(method) == method && strings.HasPrefix(rest, `"`)
}

// startsVegetaReport reports whether a trimmed line opens one of vegeta's reports.
func startsVegetaReport(t string) bool {
	return strings.HasPrefix(t, "Requests") && strings.Contains(t, "[total, rate, throughput]") ||
		isVegetaHistHeader(t) || strings.HasPrefix(t, "Value(ms)") ||
		strings.HasPrefix(t, "{") && strings.Contains(t, `"latencies"`)
}

// values reads the values of one line into the summary.
func (b *vegetaTextBlock) values(label, values string) error {
	s := &b.s
	if label == "Status Codes" {
		codes := map[string]int64{}
		for _, f := range strings.Fields(values) {
			code, count, ok := strings.Cut(f, ":")
			n, err := vegetaCount(count)
			if !ok || err != nil {
				return fmt.Errorf("%q is not code:count", f)
			}
			codes[code] += n
		}
		var err error
		s.codes, err = parseVegetaCodes(codes)
		return err
	}
	v := strings.Split(values, ", ")
	if n := len(strings.Split(vegetaTextLabels[label], ", ")); len(v) != n {
		return fmt.Errorf("%d values, want %d", len(v), n)
	}
	var err error
	set := func(f func() error) {
		if err == nil {
			err = f()
		}
	}
	switch label {
	case "Requests":
		set(func() (e error) { s.requests, e = vegetaCount(v[0]); return })
		set(func() (e error) { s.rate, e = vegetaFloat(v[1]); return })
		set(func() (e error) { s.throughput, e = vegetaFloat(v[2]); return })
	case "Duration":
		set(func() (e error) { s.attack, e = vegetaDuration(v[1]); return })
		set(func() (e error) { s.wait, e = vegetaDuration(v[2]); return })
	case "Latencies":
		l := &s.latency
		set(func() (e error) { l.Min, e = vegetaDuration(v[0]); return })
		set(func() (e error) { l.Mean, e = vegetaDuration(v[1]); return })
		set(func() (e error) { l.Max, e = vegetaDuration(v[6]); return })
		for i, p := range vegetaPercentiles {
			set(func() error {
				d, e := vegetaDuration(v[2+i])
				l.Percentiles = append(l.Percentiles, Percentile{P: p, Value: d})
				return e
			})
		}
	case "Bytes In":
		set(func() (e error) { s.bytesIn, e = vegetaCount(v[0]); return })
	case "Success":
		pct, ok := strings.CutSuffix(v[0], "%")
		set(func() (e error) { s.success, e = vegetaFloat(pct); return })
		if err == nil && !ok {
			err = fmt.Errorf("%q is not a percentage", v[0])
		}
		s.success /= 100
	}
	return err
}

func (b *vegetaTextBlock) end() ([]Record, error) {
	if b.err != nil {
		return nil, b.err
	}
	for _, label := range []string{"Duration", "Latencies", "Success", "Status Codes"} {
		if !b.seen[label] {
			return nil, &SyntaxError{File: b.ctx.file, Line: b.last, Msg: fmt.Sprintf("vegeta text report cut short: no %s line", label)}
		}
	}
	return []Record{b.s.measurement(b.first, b.last)}, nil
}
