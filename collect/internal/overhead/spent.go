package main

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/fairbench/fairbench/parse/runjson"
)

// spent is where the wall time of one collect went, from its run.json.
type spent struct {
	wall, windows time.Duration
	n             int
	// preflight is from the command's start to the run dir's: tools
	// found, versions asked, host facts.
	preflight time.Duration
	// lead is from the run dir to the first window: builds, gates. build
	// is the wall time while a target was building (buildSpan); buildSum
	// the targets' own build times, which overlap when they build side by
	// side.
	lead, build, buildSum time.Duration
	// tool is the load tool's own time around its windows (start, exit).
	tool time.Duration
	// within is the time between two windows on one server process
	// (stats, dumps written, run.json rewritten), across is the time
	// between the last window on one server and the first on the next
	// (stop, start, readiness), each with the number of gaps.
	within, across   time.Duration
	nWithin, nAcross int
	// tail is from the last window to the command's end.
	tail time.Duration
}

// account reads where the time of a collect started at start and lasting
// wall went.
func account(m runjson.Manifest, start time.Time, wall, window, warmup time.Duration) spent {
	ms := slices.Clone(m.Measurements)
	slices.SortFunc(ms, func(a, b runjson.Measurement) int { return a.Order - b.Order })
	sp := spent{wall: wall, n: len(ms)}
	for _, t := range m.Targets {
		sp.buildSum += time.Duration(t.BuildS * float64(time.Second))
	}
	for i, mr := range ms {
		w := window
		if mr.Warmup {
			w = warmup
		}
		sp.windows += w
		sp.tool += mr.End.Sub(mr.Start) - w
		if i == 0 {
			continue
		}
		prev := ms[i-1]
		gap := mr.Start.Sub(prev.End)
		if prev.Target == mr.Target && prev.Rep == mr.Rep {
			sp.within += gap
			sp.nWithin++
		} else {
			sp.across += gap
			sp.nAcross++
		}
	}
	if len(ms) > 0 {
		sp.preflight = m.Start.Sub(start)
		sp.lead = ms[0].Start.Sub(m.Start)
		sp.tail = start.Add(wall).Sub(ms[len(ms)-1].End)
	}
	return sp
}

// ratio is wall ÷ windows; ownRatio leaves the time spent building out of
// the wall: it is the Go toolchain's time, and the first run of a round
// warms its cache for the next.
func (sp spent) ratio() float64    { return sp.wall.Seconds() / sp.windows.Seconds() }
func (sp spent) ownRatio() float64 { return (sp.wall - sp.build).Seconds() / sp.windows.Seconds() }

// tally is the rounds of one collector: wall ÷ windows with and without
// the builds, and the last round's breakdown.
type tally struct {
	all, own []float64
	last     spent
}

func (t *tally) add(sp spent) {
	t.all, t.own, t.last = append(t.all, sp.ratio()), append(t.own, sp.ownRatio()), sp
}

// String lists the parts, each with its share of the windows.
func (sp spent) String() string {
	var b strings.Builder
	line := func(what string, d time.Duration, detail string) {
		fmt.Fprintf(&b, "    %-40s %7.2f s  %5.1f%% of the windows%s\n", what, d.Seconds(), 100*d.Seconds()/sp.windows.Seconds(), detail)
	}
	per := func(d time.Duration, n int) string {
		if n == 0 {
			return ""
		}
		return fmt.Sprintf("  (%d, %v each)", n, (d / time.Duration(n)).Round(time.Millisecond))
	}
	line("windows", sp.windows, fmt.Sprintf("  (%d)", sp.n))
	line("before the run dir (preflight)", sp.preflight, "")
	line("to the first window (builds, gates)", sp.lead, "")
	line("  of which builds", sp.build, fmt.Sprintf("  (the targets' own times add up to %.2f s)", sp.buildSum.Seconds()))
	line("tool start and exit around its window", sp.tool, per(sp.tool, sp.n))
	line("between windows on one server", sp.within, per(sp.within, sp.nWithin))
	line("between servers (stop, start, ready)", sp.across, per(sp.across, sp.nAcross))
	line("after the last window", sp.tail, "")
	return b.String()
}

// stamped is a progress line and when it came.
type stamped struct {
	at   time.Time
	line string
}

// stampWriter keeps what is written to it, and each line with when its
// end came.
type stampWriter struct {
	all   bytes.Buffer
	part  []byte
	lines []stamped
}

func (w *stampWriter) Write(p []byte) (int, error) {
	now := time.Now()
	w.all.Write(p)
	w.part = append(w.part, p...)
	for {
		i := bytes.IndexByte(w.part, '\n')
		if i < 0 {
			return len(p), nil
		}
		w.lines = append(w.lines, stamped{now, string(w.part[:i])})
		w.part = w.part[i+1:]
	}
}

// buildSpan is the wall time while targets were building, from the
// progress lines: from each "<target>: building" line that follows
// another kind of line to the next line that is not a build's. It serves
// a collector that builds one target after another (each build its own
// span, ended by its gate) and one that builds them side by side (one
// span, from the first build to the first gate).
func buildSpan(lines []stamped) time.Duration {
	var span time.Duration
	var from time.Time
	for _, l := range lines {
		building := strings.Contains(l.line, ": building")
		switch {
		case building && from.IsZero():
			from = l.at
		case !building && !from.IsZero():
			span += l.at.Sub(from)
			from = time.Time{}
		}
	}
	return span
}
