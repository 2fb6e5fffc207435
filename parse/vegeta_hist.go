package parse

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// vegeta's histogram report (`vegeta report -type='hist[0,1ms,…]'`) is a
// header and one row per bucket:
//
//	Bucket         #    %       Histogram
//	[0s,    1ms]   195  97.50%  ####…
//	[50ms,  +Inf]  0    0.00%
//
// Its hdrplot report (`-type=hdrplot`) is a header and one row per
// quantile of a fixed list, the latency in milliseconds (%f):
//
//	Value(ms)  Percentile  TotalCount  1/(1-Percentile)
//	0.095803   0.000000    0           1.000000
//
// Alone, each makes a Measurement with only its latency figures and the
// number of requests; the rest is in the other reports of the same results.

// latencyOnly is the warning on a histogram or hdrplot report read alone.
const latencyOnly = "vegeta latency report alone: no durations, rates or status counts (keep vegeta report -type=json of the same results beside it)"

// isVegetaHistHeader reports whether a trimmed line is the histogram
// report's header.
func isVegetaHistHeader(t string) bool {
	if !strings.HasPrefix(t, "Bucket") {
		return false // most lines: no need to split them
	}
	f := strings.Fields(t)
	return len(f) == 4 && f[0] == "Bucket" && f[1] == "#" && f[2] == "%" && f[3] == "Histogram"
}

// vegetaHist reads the rows of a histogram report.
type vegetaHist struct {
	ctx         *context
	first, last int
	buckets     []LatencyBucket
	percents    []float64 // each row's printed share, in percent
	bad         bool      // a row was reported; the histogram is not counted
}

// startVegetaHist starts a block at a histogram report's header.
func startVegetaHist(ctx *context, l line) block {
	if !isVegetaHistHeader(l.trimmed()) {
		return nil
	}
	return &vegetaHist{ctx: ctx, first: l.num, last: l.num}
}

func (h *vegetaHist) add(l line) (bool, error) {
	t := l.trimmed()
	if !strings.HasPrefix(t, "[") {
		return false, nil
	}
	h.last = l.num
	b, pct, err := parseVegetaBucket(t)
	if err != nil {
		h.bad = true
		return true, &SyntaxError{File: h.ctx.file, Line: l.num, Msg: "vegeta histogram: " + err.Error()}
	}
	if n := len(h.buckets); n > 0 && h.buckets[n-1].High != b.Low {
		h.bad = true
		return true, &SyntaxError{File: h.ctx.file, Line: l.num, Msg: fmt.Sprintf(
			"vegeta histogram: bucket from %s does not follow the one up to %s", b.Low, h.buckets[n-1].High)}
	}
	h.buckets = append(h.buckets, b)
	h.percents = append(h.percents, pct)
	return true, nil
}

// parseVegetaBucket reads one row: "[lo, hi]  count  pct%  ###".
func parseVegetaBucket(t string) (LatencyBucket, float64, error) {
	var b LatencyBucket
	inner, rest, ok := strings.Cut(t[1:], "]")
	lo, hi, ok2 := strings.Cut(inner, ",")
	fields := strings.Fields(rest)
	if !ok || !ok2 || len(fields) < 2 || len(fields) > 3 || len(fields) == 3 && strings.Trim(fields[2], "#") != "" {
		return b, 0, fmt.Errorf("row %q is not \"[low, high] count percent bars\"", t)
	}
	var err error
	if b.Low, err = vegetaDuration(strings.TrimSpace(lo)); err != nil {
		return b, 0, err
	}
	if hi = strings.TrimSpace(hi); hi != "+Inf" {
		if b.High, err = vegetaDuration(hi); err != nil {
			return b, 0, err
		}
		if b.High <= b.Low {
			return b, 0, fmt.Errorf("bucket [%s, %s] is empty", lo, hi)
		}
	}
	if b.Count, err = vegetaCount(fields[0]); err != nil {
		return b, 0, err
	}
	pct, ok := strings.CutSuffix(fields[1], "%")
	v, err := vegetaFloat(pct)
	if !ok || err != nil {
		return b, 0, fmt.Errorf("%q is not a percentage", fields[1])
	}
	return b, v, nil
}

func (h *vegetaHist) end() ([]Record, error) {
	bad := func(msg string) error {
		return &SyntaxError{File: h.ctx.file, Line: h.first, Msg: "vegeta histogram: " + msg}
	}
	switch {
	case h.bad:
		return nil, nil // each bad row is reported
	case len(h.buckets) == 0:
		return nil, bad("a header without buckets")
	case h.buckets[len(h.buckets)-1].High != 0:
		return nil, bad(fmt.Sprintf("cut short: the last bucket ends at %s, not +Inf", h.buckets[len(h.buckets)-1].High))
	}
	var total int64
	for _, b := range h.buckets {
		if badCount(b.Count) || total+b.Count > maxCount {
			return nil, bad(fmt.Sprintf("count %d is out of range", b.Count))
		}
		total += b.Count
	}
	for i, b := range h.buckets {
		if share := 100 * float64(b.Count) / float64(total); total > 0 && math.Abs(share-h.percents[i]) > 0.006 {
			return nil, bad(fmt.Sprintf("bucket [%s, …] prints %.2f%% of %d requests for a count of %d (%.2f%%): the dump was cut or changed",
				b.Low, h.percents[i], total, b.Count, share))
		}
	}
	m := &Measurement{Tool: ToolVegeta, Phase: PhaseLatency, Requests: total, RequestsSent: total,
		Source: Source{LineStart: h.first, LineEnd: h.last}}
	m.Latency.Samples, m.Latency.Buckets = total, h.buckets
	m.Warnings = append(m.Warnings, latencyOnly)
	return []Record{m}, nil
}

// vegetaHDRPlot reads an hdrplot report.
type vegetaHDRPlot struct {
	ctx         *context
	first, last int
	rows        []Percentile
	count       int64 // the last row's TotalCount
	bad         bool
}

// startVegetaHDRPlot starts a block at an hdrplot report's header.
func startVegetaHDRPlot(ctx *context, l line) block {
	if !strings.HasPrefix(l.trimmed(), "Value(ms)") {
		return nil // most lines: no need to split them
	}
	f := strings.Fields(l.trimmed())
	if len(f) != 4 || f[0] != "Value(ms)" || f[1] != "Percentile" || f[2] != "TotalCount" {
		return nil
	}
	return &vegetaHDRPlot{ctx: ctx, first: l.num, last: l.num}
}

func (h *vegetaHDRPlot) add(l line) (bool, error) {
	f := strings.Fields(l.trimmed())
	if len(f) != 4 || f[0] == "" || (f[0][0] < '0' || f[0][0] > '9') && f[0][0] != '-' {
		return false, nil
	}
	h.last = l.num
	bad := func(err error) (bool, error) {
		h.bad = true
		return true, &SyntaxError{File: h.ctx.file, Line: l.num, Msg: "vegeta hdrplot: " + err.Error()}
	}
	ns, ok := scaled(f[0], 6) // milliseconds → nanoseconds
	if !ok || math.IsNaN(ns) || ns < 0 || ns > float64(maxLatency) {
		return bad(fmt.Errorf("latency %q ms is not a number from 0 to %s", f[0], maxLatency))
	}
	p, ok := scaled(f[1], 2) // quantile → percent
	if !ok || math.IsNaN(p) || p < 0 || p > 100 {
		return bad(fmt.Errorf("quantile %q is not a number from 0 to 1", f[1]))
	}
	n, err := vegetaCount(f[2])
	if err != nil {
		return bad(err)
	}
	if k := len(h.rows); k > 0 && p <= h.rows[k-1].P {
		return bad(fmt.Errorf("quantile %s after %g", f[1], h.rows[k-1].P/100))
	}
	h.rows = append(h.rows, Percentile{P: p, Value: time.Duration(math.Round(ns))})
	h.count = n
	return true, nil
}

func (h *vegetaHDRPlot) end() ([]Record, error) {
	switch {
	case h.bad:
		return nil, nil
	case len(h.rows) < 2 || h.rows[0].P != 0 || h.rows[len(h.rows)-1].P != 100:
		return nil, &SyntaxError{File: h.ctx.file, Line: h.first, Msg: "vegeta hdrplot: cut short: the rows do not run from quantile 0 to 1"}
	}
	m := &Measurement{Tool: ToolVegeta, Phase: PhaseLatency, Requests: h.count, RequestsSent: h.count,
		Source: Source{LineStart: h.first, LineEnd: h.last}}
	last := len(h.rows) - 1
	m.Latency.Min, m.Latency.Max, m.Latency.Samples = h.rows[0].Value, h.rows[last].Value, h.count
	m.Latency.Percentiles = h.rows[1:last]
	m.Warnings = append(m.Warnings, latencyOnly)
	return []Record{m}, nil
}
