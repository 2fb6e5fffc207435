package parse

import (
	"fmt"
	"strings"
	"time"
)

// bombardier plain-text output (v1.0–v2.x):
//
//	Bombarding http://127.0.0.1:18080/ for 2s using 10 connection(s)
//	<progress bar frames, CR-separated>
//	Done!
//	Statistics        Avg      Stdev        Max
//	  Reqs/sec     28063.38    7151.48   45257.71
//	  Latency      353.95us   444.70us    19.18ms
//	  Latency Distribution                       with -l: 50 75 90 95 99 (old: 4 rows)
//	     50%   260.00us
//	  HTTP codes:
//	    1xx - 0, 2xx - 56103, 3xx - 0, 4xx - 0, 5xx - 0
//	    others - 0
//	  Errors:                                    when any
//	    dial tcp 127.0.0.1:18099: connect: connection refused - 57833
//	  Throughput:     5.14MB/s                   bytes read + written, 1024-based
//
// The intro and progress lines are missing with -p r. An error message may
// hold " - " and even line breaks: each entry is split on its last " - ".
// The text does not print the measured duration, so Duration stays 0.

// bombardierText reads one bombardier text run.
type bombardierText struct {
	ctx     *context
	m       *Measurement
	last    int
	stats   bool // "Statistics" header seen
	errors  bool // inside "Errors:"
	codes   bool // "HTTP codes:" line read
	done    bool // "Throughput:" read
	handed  bool // the run's result is a JSON document that follows
	pending string
	pendAt  int
}

// startBombardierText starts a block at bombardier's intro line or, with
// -p r, at its Statistics header.
func startBombardierText(ctx *context, l line) block {
	t := l.trimmed()
	intro := strings.HasPrefix(t, "Bombarding ")
	if !intro && !isBombardierStats(t) {
		return nil
	}
	b := &bombardierText{ctx: ctx, m: &Measurement{Tool: ToolBombardier, Source: Source{LineStart: l.num}}, last: l.num}
	if intro {
		b.intro(t)
	} else {
		b.stats = true
	}
	return b
}

func isBombardierStats(t string) bool {
	if !strings.HasPrefix(t, "Statistics") {
		return false
	}
	var buf [4]string
	f := fields(buf[:0], t)
	return len(f) == 4 && f[0] == "Statistics" && f[1] == "Avg" && f[2] == "Stdev" && f[3] == "Max"
}

// intro reads "Bombarding <url> for 10s using 500 connection(s)" or
// "Bombarding <url> with 2000 request(s) using 5 connection(s)".
func (b *bombardierText) intro(t string) {
	rest := strings.TrimPrefix(t, "Bombarding ")
	u, rest, _ := strings.Cut(rest, " ")
	b.m.URL = u
	if d, ok := strings.CutPrefix(rest, "for "); ok {
		d, _, _ = strings.Cut(d, " ")
		if w, err := time.ParseDuration(d); err == nil {
			b.m.Window = w
		}
	}
	if _, c, ok := strings.Cut(rest, " using "); ok {
		b.m.Connections = leadingInt(c)
	}
}

func (b *bombardierText) syntax(l line, format string, args ...any) error {
	return &SyntaxError{File: b.ctx.file, Line: l.num, Msg: "bombardier: " + fmt.Sprintf(format, args...)}
}

func (b *bombardierText) add(l line) (bool, error) {
	t := l.trimmed()
	if b.done {
		return false, nil
	}
	if !b.stats {
		switch {
		case isBombardierStats(t):
			b.stats = true
		case strings.HasPrefix(t, "{"):
			b.handed = true // -o json after the intro and progress bar
			return false, nil
		case interrupts(t):
			return false, nil
		}
		b.last = l.num
		return true, nil // progress frames, "Done!"
	}
	if b.errors {
		return true, b.errorLine(l, t)
	}
	if interrupts(t) {
		return false, nil
	}
	b.last = l.num
	m := b.m
	// The cases that read fields need a line that starts with Reqs/sec or
	// Latency, or holds a '%': others are not split.
	var buf [16]string
	f := buf[:1]
	if strings.HasPrefix(t, "Reqs/sec") || strings.HasPrefix(t, "Latency") || strings.IndexByte(t, '%') >= 0 {
		f = fields(buf[:0], t)
	}
	switch {
	case t == "", strings.HasPrefix(t, "There wasn't enough data"):
	case strings.HasPrefix(t, "Reqs/sec") && len(f) == 4:
		var vs [3]float64
		for i := range vs {
			v, ok := number(f[i+1])
			if !ok {
				return true, b.syntax(l, "req/s %q is not a number", f[i+1])
			}
			vs[i] = finite(v)
		}
		m.ToolRPS, m.RPSStdev, m.RPSMax = vs[0], vs[1], vs[2]
	case strings.HasPrefix(t, "Latency Distribution"):
	case f[0] == "Latency" && len(f) == 4:
		var ds [3]time.Duration
		for i := range ds {
			d, ok := duration(f[i+1])
			if !ok {
				return true, b.syntax(l, "latency %q is not a duration", f[i+1])
			}
			ds[i] = d
		}
		m.Latency.Mean, m.Latency.Stdev, m.Latency.Max = ds[0], ds[1], ds[2]
	case len(f) == 2 && strings.HasSuffix(f[0], "%"):
		p, ok1 := number(f[0])
		d, ok2 := duration(f[1])
		if !ok1 || !ok2 {
			return true, b.syntax(l, "%q: want a percentile and a latency", t)
		}
		m.Latency.Percentiles = appendPercentile(m.Latency.Percentiles, Percentile{P: p, Value: d})
	case t == "HTTP codes:":
	case strings.HasPrefix(t, "1xx - "):
		var counts [12]int64
		n := appendInts(counts[:0], t)
		if len(n) != 10 || !strings.Contains(t, ", 5xx - ") {
			return true, b.syntax(l, "%q: want \"1xx - N, 2xx - N, 3xx - N, 4xx - N, 5xx - N\"", t)
		}
		s := &m.Status
		s.C1xx, s.C2xx, s.C3xx, s.C4xx, s.C5xx = n[1], n[3], n[5], n[7], n[9]
		s.Known, b.codes = true, true
	case strings.HasPrefix(t, "others - "):
		n, ok := atoi(strings.TrimPrefix(t, "others - "))
		if !ok {
			return true, b.syntax(l, "%q: the count is not an integer", t)
		}
		m.Status.Other = n
	case t == "Errors:":
		b.errors = true
	case strings.HasPrefix(t, "Throughput:"):
		return true, b.throughput(l, t)
	default:
		return true, b.syntax(l, "unexpected line %q", t)
	}
	return true, nil
}

// errorLine reads one "message - count" entry of the Errors block; a line
// without a count continues a message that holds line breaks.
func (b *bombardierText) errorLine(l line, t string) error {
	b.last = l.num
	if strings.HasPrefix(t, "Throughput:") {
		b.errors = false
		var err error
		if b.pending != "" {
			err = b.syntax(line{num: b.pendAt}, "error message %q has no count", b.pending)
		}
		return firstErr(err, b.throughput(l, t))
	}
	text := strings.TrimLeft(l.text, " \t")
	if b.pending != "" {
		text = b.pending + "\n" + text
	} else {
		b.pendAt = l.num
	}
	i := strings.LastIndex(text, " - ")
	if i >= 0 {
		if n, ok := atoi(strings.TrimSpace(text[i+3:])); ok {
			msg := text[:i]
			b.m.Errors.Messages = append(b.m.Errors.Messages, ErrorMessage{Text: msg, Count: n})
			addBombardierError(&b.m.Errors, msg, n)
			b.pending = ""
			return nil
		}
	}
	b.pending = text
	return nil
}

// throughput reads "Throughput:     5.14MB/s" and ends the run.
func (b *bombardierText) throughput(l line, t string) error {
	b.done = true
	v := strings.TrimSpace(strings.TrimPrefix(t, "Throughput:"))
	bps, ok := binaryBytes(strings.TrimSuffix(v, "/s"))
	if !ok || !strings.HasSuffix(v, "/s") {
		return b.syntax(l, "throughput %q is not a size per second", v)
	}
	b.m.BytesPerSec, b.m.BytesPerSecCountsWrites = bps, true
	return nil
}

func (b *bombardierText) end() ([]Record, error) {
	m := b.m
	m.Source.LineEnd = b.last
	switch {
	case b.handed:
		return nil, nil
	case !b.stats:
		return nil, &SyntaxError{File: b.ctx.file, Line: b.last, Msg: "bombardier output cut short before its Statistics"}
	case !b.done:
		return nil, &SyntaxError{File: b.ctx.file, Line: b.last, Msg: `bombardier output cut short: no "Throughput:" line`}
	case !b.codes:
		return nil, &SyntaxError{File: b.ctx.file, Line: b.last, Msg: `bombardier output without its "HTTP codes:" counts`}
	}
	s := m.Status
	m.Requests = s.C1xx + s.C2xx + s.C3xx + s.C4xx + s.C5xx + s.Other
	return []Record{m}, nil
}

// firstErr returns the first non-nil error.
func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
