package parse

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// wrk 4.x text output (and wrk2's, which adds wrk2Section lines):
//
//	Running 2s test @ http://127.0.0.1:18080/
//	  2 threads and 10 connections
//	  Thread Stats   Avg      Stdev     Max   +/- Stdev
//	    Latency   787.98us    1.41ms  14.85ms   91.38%
//	    Req/Sec    12.07k     2.42k   17.12k    65.00%
//	  Latency Distribution                                  with --latency
//	     50%  308.00us
//	     …
//	  48333 requests in 2.02s, 5.95MB read
//	  Socket errors: connect 0, read 9667, write 0, timeout 0   when non-zero
//	  Non-2xx or 3xx responses: 64540                           when non-zero
//	Requests/sec:  23926.11
//	Transfer/sec:      2.94MB
//
// Anything a Lua done() prints after Transfer/sec is not wrk's and is left
// alone. Pasted copies may lose the indentation, so lines are matched
// trimmed.

// wrkBlock reads one wrk or wrk2 run.
type wrkBlock struct {
	ctx      *context
	m        *Measurement
	last     int
	section  wrkSection
	wrk2     bool // a wrk2-only line was seen
	summary  bool // "N requests in" seen
	complete bool // "Requests/sec:" seen
	transfer bool // "Transfer/sec:" seen
}

// wrkSection is where in the output the block is.
type wrkSection int

const (
	wrkStats       wrkSection = iota
	wrkDistrib                // wrk's 4-row Latency Distribution
	wrkHdrRecorded            // wrk2's corrected histogram block
	wrkHdrOther               // wrk2's uncorrected (-U) block: not kept
)

func newWrkBlock(ctx *context, first line) *wrkBlock {
	m := &Measurement{Tool: ToolWrk, Source: Source{LineStart: first.num, LineEnd: first.num}}
	b := &wrkBlock{ctx: ctx, m: m, last: first.num}
	// "Running 2m test @ <url>": the header rounds the requested duration.
	head := strings.TrimPrefix(first.trimmed(), "Running ")
	what, u, _ := strings.Cut(head, " @ ")
	m.URL = strings.TrimSpace(u)
	if d, ok := duration(strings.TrimSuffix(what, " test")); ok {
		m.Window = d
	}
	return b
}

func (b *wrkBlock) syntax(l line, format string, args ...any) error {
	return &SyntaxError{File: b.ctx.file, Line: l.num, Msg: "wrk: " + fmt.Sprintf(format, args...)}
}

func (b *wrkBlock) add(l line) (bool, error) {
	t := l.trimmed()
	if b.transfer || (b.complete && !strings.HasPrefix(t, "Transfer/sec:")) {
		return false, nil
	}
	if interrupts(t) {
		return false, nil // the next run starts: this one was cut
	}
	b.last = l.num
	m := b.m
	switch {
	case b.section >= wrkHdrRecorded && plainSpectrumRow(t):
		// Most of wrk2's spectrum, told apart before the cases below, none
		// of which takes a row of numbers; wrk2Line skips the rest.
	case t == "" || strings.HasPrefix(t, "Thread Stats"):
	case threadsLine(t):
		var counts [12]int64
		n := appendInts(counts[:0], t)
		if len(n) != 2 || !strings.HasSuffix(t, " connections") && !strings.HasSuffix(t, " connection") {
			return true, b.syntax(l, "%q: want \"N threads and N connections\"", t)
		}
		m.Threads, m.Connections = int(n[0]), int(n[1])
	case strings.HasPrefix(t, "Latency Distribution"):
		b.section = wrkDistrib
		if strings.Contains(t, "HdrHistogram") {
			b.wrk2 = true
			b.section = wrkHdrOther
			if strings.Contains(t, "Recorded Latency") || len(m.Latency.Percentiles) == 0 {
				b.section = wrkHdrRecorded
			}
		}
	case strings.HasPrefix(t, "Latency") && b.section == wrkStats:
		return true, b.latencyRow(l, t)
	case strings.HasPrefix(t, "Req/Sec"):
		return true, b.reqSecRow(l, t)
	case strings.Contains(t, " requests in "):
		return true, b.summaryLine(l, t)
	case strings.HasPrefix(t, "Socket errors:"):
		var counts [12]int64
		n := appendInts(counts[:0], t)
		if len(n) != 4 || !strings.Contains(t, "connect ") || !strings.Contains(t, ", timeout ") {
			return true, b.syntax(l, "%q: want \"Socket errors: connect N, read N, write N, timeout N\"", t)
		}
		m.Errors.Connect, m.Errors.Read, m.Errors.Write, m.Errors.Timeout = n[0], n[1], n[2], n[3]
	case strings.HasPrefix(t, "Non-2xx or 3xx responses:"):
		n, ok := atoi(strings.TrimSpace(strings.TrimPrefix(t, "Non-2xx or 3xx responses:")))
		if !ok {
			return true, b.syntax(l, "%q: the count is not an integer", t)
		}
		m.Status.Non2xx = n
	case strings.HasPrefix(t, "Requests/sec:"):
		v, ok := number(strings.TrimSpace(strings.TrimPrefix(t, "Requests/sec:")))
		if !ok {
			return true, b.syntax(l, "%q: req/s is not a number", t)
		}
		m.ToolRPS, b.complete = finite(v), true
	case strings.HasPrefix(t, "Transfer/sec:"):
		v, ok := binaryBytes(strings.TrimSpace(strings.TrimPrefix(t, "Transfer/sec:")))
		if !ok {
			return true, b.syntax(l, "%q: not a size per second", t)
		}
		m.BytesPerSec, b.transfer = v, true
	default:
		if handled, err := b.wrk2Line(l, t); handled {
			return true, err
		}
		if b.section == wrkDistrib || b.section == wrkHdrRecorded || b.section == wrkHdrOther {
			if p, ok := b.percentileRow(t); ok {
				if b.section != wrkHdrOther {
					m.Latency.Percentiles = appendPercentile(m.Latency.Percentiles, p)
				}
				return true, nil
			}
		}
		return true, b.syntax(l, "unexpected line %q", t)
	}
	return true, nil
}

// threadsLine reports whether t holds " threads and " or " thread and ",
// looking for what they share once.
func threadsLine(t string) bool {
	i := strings.Index(t, " thread")
	if i < 0 {
		return false
	}
	t = t[i:]
	return strings.Contains(t, " threads and ") || strings.Contains(t, " thread and ")
}

// interrupts reports whether a line starts another run or command, so that
// a block missing its last lines ends there instead of swallowing the next.
func interrupts(t string) bool {
	if strings.HasPrefix(t, "Running ") && strings.Contains(t, " @ ") || strings.HasPrefix(t, "Bombarding ") || isFence(t) {
		return true
	}
	_, ok := parseCommand(t)
	return ok
}

// latencyRow reads "Latency   787.98us    1.41ms  14.85ms   91.38%".
func (b *wrkBlock) latencyRow(l line, t string) error {
	var buf [16]string
	f := fields(buf[:0], t)
	if len(f) < 4 {
		return b.syntax(l, "%q: want Latency avg, stdev, max", t)
	}
	var ds [3]time.Duration
	for i := range ds {
		d, ok := duration(f[i+1])
		if !ok {
			return b.syntax(l, "latency %q is not a duration", f[i+1])
		}
		ds[i] = d
	}
	b.m.Latency.Mean, b.m.Latency.Stdev, b.m.Latency.Max = ds[0], ds[1], ds[2]
	return nil
}

// reqSecRow reads "Req/Sec    12.07k     2.42k   17.12k    65.00%". wrk2
// prints "-nan" averages for runs shorter than its calibration.
func (b *wrkBlock) reqSecRow(l line, t string) error {
	var buf [16]string
	f := fields(buf[:0], t)
	if len(f) < 4 {
		return b.syntax(l, "%q: want Req/Sec avg, stdev, max", t)
	}
	var vs [3]float64
	for i := range vs {
		if n, ok := number(f[i+1]); ok && n != n {
			b.wrk2 = true // NaN: only wrk2 prints -nan as a value
			continue
		}
		v, ok := metric(f[i+1])
		if !ok {
			return b.syntax(l, "req/s %q is not a number", f[i+1])
		}
		vs[i] = v
	}
	b.m.PerThreadRPS = Spread{Mean: vs[0], Stdev: vs[1], Max: vs[2]}
	return nil
}

// summaryLine reads "48333 requests in 2.02s, 5.95MB read".
func (b *wrkBlock) summaryLine(l line, t string) error {
	reqs, d, bytes, ok := requestsLine(t, atoi, binaryBytes)
	if !ok {
		return b.syntax(l, "%q: want \"N requests in <duration>, <size> read\"", t)
	}
	b.m.Requests, b.m.Duration, b.m.BytesRead = reqs, d, roundInt64(bytes)
	b.summary = true
	return nil
}

// percentileRow reads "50%  308.00us" (wrk) or "99.900%    3.60ms" (wrk2).
func (b *wrkBlock) percentileRow(t string) (Percentile, bool) {
	var buf [16]string
	f := fields(buf[:0], t)
	if len(f) != 2 || !strings.HasSuffix(f[0], "%") {
		return Percentile{}, false
	}
	p, err := strconv.ParseFloat(strings.TrimSuffix(f[0], "%"), 64)
	if err != nil {
		return Percentile{}, false
	}
	d, ok := duration(f[1])
	if !ok {
		return Percentile{}, false
	}
	return Percentile{P: p, Value: d}, true
}

func (b *wrkBlock) end() ([]Record, error) {
	m := b.m
	m.Source.LineEnd = b.last
	if !b.summary || !b.complete {
		missing := `"N requests in …"`
		if b.summary {
			missing = `"Requests/sec:"`
		}
		return nil, &SyntaxError{File: b.ctx.file, Line: b.last, Msg: "wrk output cut short: no " + missing + " line"}
	}
	if c := b.ctx.cmd; b.wrk2 || c != nil && (c.tool() == ToolWrk2 || hasFlag(c, "-R", "--rate")) {
		m.Tool = ToolWrk2
		m.Latency.Corrected = true
		m.Phase = PhaseLatency // wrk2 sends on a schedule (-R): an open-model point
	}
	return []Record{m}, nil
}

func hasFlag(c *command, names ...string) bool {
	_, ok := c.flag(names...)
	return ok
}
