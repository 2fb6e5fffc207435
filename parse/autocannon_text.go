package parse

import (
	"fmt"
	"strconv"
	"strings"
)

// autocannon text output (v7.7+, written to stderr):
//
//	Running 2s test @ http://127.0.0.1:18080/        or "Running 5000 requests test @", "… warmup @"
//	10 connections                                   + " with 10 pipelining factor" (-p)
//	2 workers                                        with -w
//	┌─────────┬──────┬──────┬───────┬──────┬─────────┬─────────┬───────┐
//	│ Stat    │ 2.5% │ 50%  │ 97.5% │ 99%  │ Avg     │ Stdev   │ Max   │
//	│ Latency │ 0 ms │ 0 ms │ 1 ms  │ 2 ms │ 0.15 ms │ 0.51 ms │ 16 ms │
//	│ Stat      │ 1%      │ 2.5%    │ 50%     │ 97.5%  │ Avg     │ Stdev  │ Min     │
//	│ Req/Sec   │ 17,631  │ 17,631  │ 17,631  │ 19,423 │ 18,520  │ 896    │ 17,628  │
//	│ Bytes/Sec │ 2.28 MB │ 2.28 MB │ 2.28 MB │ 2.5 MB │ 2.39 MB │ 115 kB │ 2.27 MB │
//	│ Code │ Count │                                 with --renderStatusCodes
//	Req/Bytes counts sampled once per second.
//	# of samples: 2
//	│ Percentile │ Latency (ms) │                    with -l: 15 rows
//	7336 2xx responses, 22011 non 2xx responses      when non2xx > 0
//	37k requests in 2.02s, 4.78 MB read              counts ≥ 1000 rounded to "k"
//	12k errors (0 timeouts)                          when errors > 0
//	26k requests with mismatched body                when mismatches > 0
//	request pipeline was reset 3 times               when resets > 0
//
// Percentile labels are kept as printed (2.5, 97.5: never relabelled).
// Req/Sec cells use the locale's separators ("17,631", or "15.903" under
// de_DE). Bytes are SI (1000-based). In a terminal every cell is wrapped in
// ANSI colours (removed by the reader) and lines end in CRLF.

// autocannonText reads one autocannon text run.
type autocannonText struct {
	ctx     *context
	m       *Measurement
	last    int
	header  []string  // the columns of the last "Stat" header
	pct     []float64 // the percentile each of its "2.5%" columns names
	table   string    // "stat", "percentile" or "code"
	summary bool      // "N requests in" read
	pcts    map[float64]Percentile
	pasted  bool // the tables without the lines above them (autocannon_pasted.go)
	rows    int  // Latency, Req/Sec and Bytes/Sec rows read
}

// autocannonConnections reports whether t is autocannon's second line.
func autocannonConnections(t string) bool {
	n, rest, _ := strings.Cut(t, " ")
	if rest != "connections" && rest != "connection" && !strings.HasPrefix(rest, "connections with ") {
		return false
	}
	_, err := strconv.Atoi(n)
	return err == nil
}

func newAutocannonText(ctx *context, first line) *autocannonText {
	m := &Measurement{Tool: ToolAutocannon, Source: Source{LineStart: first.num}}
	head := strings.TrimPrefix(first.trimmed(), "Running ")
	what, u, _ := strings.Cut(head, " @ ")
	m.URL = strings.TrimSuffix(strings.TrimSpace(u), " (socketPath)")
	if w, ok := strings.CutSuffix(what, " warmup"); ok {
		m.Warmup, what = true, w
	}
	what = strings.TrimSuffix(what, " test")
	if d, ok := duration(what); ok {
		m.Window = d
	}
	m.Settings.Duration = FromPrinted // a duration, or a request count ("Running 5000 requests test")
	return &autocannonText{ctx: ctx, m: m, last: first.num, pcts: map[float64]Percentile{}}
}

func (b *autocannonText) syntax(l line, format string, args ...any) error {
	return &SyntaxError{File: b.ctx.file, Line: l.num, Msg: "autocannon: " + fmt.Sprintf(format, args...)}
}

func (b *autocannonText) add(l line) (bool, error) {
	t := l.trimmed()
	if b.summary {
		return b.afterSummary(l, t)
	}
	if interrupts(t) {
		return false, nil
	}
	b.last = l.num
	m := b.m
	switch {
	case t == "", strings.HasPrefix(t, "running ["), strings.HasPrefix(t, "Req/Bytes counts sampled"),
		strings.HasPrefix(t, "# of samples:"):
	case autocannonConnections(t):
		// "10 connections" or "10 connections with 10 pipelining factor"
		m.Connections = leadingInt(t)
		// The line names the pipelining factor above 1, and a "N workers"
		// line follows it when there are workers: both are printed.
		m.Settings.Pipelining, m.Settings.Threads = FromPrinted, FromPrinted
		if p, ok := strings.CutPrefix(t[strings.IndexByte(t, ' ')+1:], "connections with "); ok {
			m.Pipelining = leadingInt(p)
		}
	case strings.HasSuffix(t, " workers") || strings.HasSuffix(t, " worker"):
		m.Threads = leadingInt(t)
	case isTableRule(t):
	case isTableRow(t):
		var buf [16]string
		return true, b.tableRow(l, appendCells(buf[:0], t))
	case strings.HasSuffix(t, " non 2xx responses"):
		var good, bad int64
		if _, err := fmt.Sscanf(t, "%d 2xx responses, %d non 2xx responses", &good, &bad); err != nil {
			return true, b.syntax(l, "%q: want \"N 2xx responses, N non 2xx responses\"", t)
		}
		m.Status.C2xx, m.Status.Non2xx = good, bad
	case strings.Contains(t, " requests in "):
		return true, b.summaryLine(l, t)
	case b.pasted:
		return false, nil // the post goes on
	default:
		return true, b.syntax(l, "unexpected line %q", t)
	}
	return true, nil
}

// afterSummary reads the optional lines after "N requests in …".
func (b *autocannonText) afterSummary(l line, t string) (bool, error) {
	m := b.m
	var buf [16]string
	f := fields(buf[:0], t)
	switch {
	case len(f) == 4 && f[1] == "errors" && f[3] == "timeouts)":
		n, ok1 := lossyCount(f[0])
		to, ok2 := lossyCount(strings.TrimPrefix(f[2], "("))
		if !ok1 || !ok2 {
			return true, b.syntax(l, "%q: want \"N errors (N timeouts)\"", t)
		}
		m.Errors.Timeout, m.Errors.Other = to, max(n-to, 0)
	case strings.HasSuffix(t, " requests with mismatched body"):
		n, ok := lossyCount(f[0])
		if !ok {
			return true, b.syntax(l, "%q: the count is not a number", t)
		}
		m.Errors.Mismatches = n
	case strings.HasPrefix(t, "request pipeline was reset"):
		m.Warnings = append(m.Warnings, fmt.Sprintf("%s:%d: %s", b.ctx.file, l.num, t))
	default:
		return false, nil
	}
	b.last = l.num
	return true, nil
}

// summaryLine reads "37k requests in 2.02s, 4.78 MB read". The count is of
// requests sent, rounded to thousands from 1000 on.
func (b *autocannonText) summaryLine(l line, t string) error {
	reqs, d, bytes, ok := requestsLine(t, lossyCount, siBytes)
	if !ok {
		return b.syntax(l, "%q: want \"N requests in <duration>, <size> read\"", t)
	}
	m := b.m
	m.Requests, m.RequestsSent, m.Duration, m.BytesRead = reqs, reqs, d, roundInt64(bytes)
	if n, _, _ := strings.Cut(t, " "); strings.HasSuffix(n, "k") {
		m.Warnings = append(m.Warnings, fmt.Sprintf("%s:%d: autocannon rounds its text counts to thousands (%s requests sent); run it with --json for exact counts", b.ctx.file, l.num, n))
	}
	b.summary = true
	return nil
}

// lossyCount parses autocannon's "37k" (37000) or "912".
func lossyCount(s string) (int64, bool) {
	if k, ok := strings.CutSuffix(s, "k"); ok {
		n, ok := atoi(k)
		return n * 1000, ok
	}
	return atoi(s)
}

func (b *autocannonText) end() ([]Record, error) {
	m := b.m
	m.Source.LineEnd = b.last
	switch {
	case !b.summary && b.pasted && b.rows > 0:
		m.Warnings = append(m.Warnings, fmt.Sprintf(`%s:%d: autocannon's tables without their "N requests in …" line: requests, duration and bytes read unknown`, b.ctx.file, b.last))
	case !b.summary:
		return nil, &SyntaxError{File: b.ctx.file, Line: b.last, Msg: `autocannon output cut short: no "N requests in …" line`}
	}
	m.Latency.Percentiles = sortedPercentiles(b.pcts)
	return []Record{m}, nil
}
