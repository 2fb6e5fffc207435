package parse

import (
	"strings"
	"time"
)

// wrk, wrk2 and autocannon all open with "Running <what> test @ <url>"; the
// next line tells them apart: "  2 threads and 10 connections" (wrk, wrk2)
// or "10 connections" (autocannon).

// startRunning starts a block at a "Running … @ …" line.
func startRunning(ctx *context, l line) block {
	t := l.trimmed()
	if !strings.HasPrefix(t, "Running ") || !strings.Contains(t, " @ ") {
		return nil
	}
	return &runningBlock{ctx: ctx, first: l}
}

// runningBlock waits for the second line, then hands both to the block of
// the dialect they show.
type runningBlock struct {
	ctx   *context
	first line
	inner block
}

func (b *runningBlock) add(l line) (bool, error) {
	if b.inner != nil {
		return b.inner.add(l)
	}
	t := l.trimmed()
	switch {
	case t == "":
		return true, nil // a pasted copy may double the line breaks
	case threadsLine(t):
		b.inner = newWrkBlock(b.ctx, b.first)
	case autocannonConnections(t):
		b.inner = newAutocannonText(b.ctx, b.first)
	default:
		return false, nil
	}
	return b.inner.add(l)
}

func (b *runningBlock) end() ([]Record, error) {
	if b.inner == nil {
		return nil, &SyntaxError{File: b.ctx.file, Line: b.first.num, Msg: `"Running … @ …" is not followed by wrk's "N threads and N connections" or autocannon's "N connections"`}
	}
	return b.inner.end()
}

// requestsLine splits the summary both tools print, "48333 requests in
// 2.02s, 5.95MB read", reading the count and size with the tool's own units.
func requestsLine(t string, count func(string) (int64, bool), size func(string) (float64, bool)) (n int64, d time.Duration, bytes float64, ok bool) {
	num, rest, _ := strings.Cut(t, " requests in ")
	dur, sz, ok1 := strings.Cut(rest, ", ")
	sz, ok2 := strings.CutSuffix(sz, " read")
	n, ok3 := count(num)
	d, ok4 := duration(dur)
	bytes, ok5 := size(sz)
	return n, d, bytes, ok1 && ok2 && ok3 && ok4 && ok5
}
