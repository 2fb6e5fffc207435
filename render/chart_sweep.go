package render

import (
	"fmt"
	"math"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// sweepChart is throughput against connections for scenario s, a line per
// target with its knee marked (audit.FindKnee), and a note per target
// saying where the knee is or why none is shown.
func (m *model) sweepChart(p Page, s, id string, ms []*parse.Measurement) (LineChart, []string) {
	spec := LineSpec{ID: "sweep-" + id, LogX: true, XUnit: "connections (log scale)", YUnit: "req/s",
		Title: s + ": throughput against connections, one line per target, knee marked",
		Desc:  "Each dot is one repetition's req/s at one count of connections (closed loop), the line joins the medians; a ring marks the knee, where more connections stop buying throughput while latency grows."}
	names, g := m.byName(ms)
	var lines []LineInput
	var notes []string
	for _, name := range names {
		li := LineInput{Name: name, Series: m.seriesOf(name), Knee: math.NaN()}
		for _, meas := range g[name] {
			title := fmt.Sprintf("rep %d at %d connections: %s req/s", meas.Rep, meas.Connections, Count(meas.Throughput()))
			if v, ok := sweepLatency(meas); ok {
				title += ", latency " + latencySeconds(v.Seconds())
			}
			li.Points = append(li.Points, PointInput{X: float64(meas.Connections), Y: meas.Throughput(), Title: title, Href: p.href(m.links.Dump(meas.Source))})
		}
		curve := sweepCurve(g[name])
		if k, ok := verdict.FindKnee(curve); ok {
			grows := fmt.Sprintf("grows at most %+.0f%% (to %s req/s)", (k.Best/k.Throughput-1)*100, Count(k.Best))
			if k.Best < k.Throughput {
				grows = fmt.Sprintf("falls (%s req/s at most, %+.0f%%)", Count(k.Best), (k.Best/k.Throughput-1)*100)
			}
			why := fmt.Sprintf("past it throughput %s while latency grows %.1f× (to %s at %d connections)",
				grows, k.LatencyGrowth, Latency(k.Last.Latency), k.Last.Connections)
			li.Knee, li.KneeTitle = float64(k.Connections), why
			notes = append(notes, fmt.Sprintf("%s: knee at %d connections (%s req/s): %s.", name, k.Connections, Count(k.Throughput), why))
		} else {
			notes = append(notes, fmt.Sprintf("%s: no knee on %d counts of connections: %s.", name, len(curve), noKneeWhy(curve)))
		}
		lines = append(lines, li)
	}
	return NewLineChart(spec, lines), notes
}

// sweepLatency is the latency a sweep point's knee is judged by: its p50,
// else the mean the tool printed.
func sweepLatency(meas *parse.Measurement) (time.Duration, bool) {
	if v, ok := percentileOf(meas, 50); ok {
		return v, true
	}
	return meas.Latency.Mean, meas.Latency.Mean > 0
}

// sweepCurve is one target's curve: per count of connections, the median
// throughput and median latency of its repetitions.
func sweepCurve(ms []*parse.Measurement) []verdict.CurvePoint {
	type acc struct{ x, l []float64 }
	by := map[int]*acc{}
	var conns []int
	for _, meas := range ms {
		a := by[meas.Connections]
		if a == nil {
			a = &acc{}
			by[meas.Connections] = a
			conns = append(conns, meas.Connections)
		}
		a.x = append(a.x, meas.Throughput())
		if v, ok := sweepLatency(meas); ok {
			a.l = append(a.l, float64(v))
		}
	}
	var out []verdict.CurvePoint
	for _, c := range conns {
		a := by[c]
		pt := verdict.CurvePoint{Connections: c, Throughput: verdict.MedianOf(a.x)}
		if len(a.l) > 0 {
			pt.Latency = time.Duration(verdict.MedianOf(a.l))
		}
		out = append(out, pt)
	}
	return out
}

// noKneeWhy says why a curve shows no knee.
func noKneeWhy(curve []verdict.CurvePoint) string {
	if len(curve) < 3 {
		return "a knee needs at least three counts of connections"
	}
	return fmt.Sprintf("throughput still grew by %.0f%% or more past every count but the last, or latency did not grow, so the curve has not flattened in the range measured", verdict.KneeGain*100)
}
