package render

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"time"

	"github.com/fairbench/fairbench/parse"
)

// closedOnly are the closed-loop measurements of ms (Phase ""): the only
// ones cells, verdicts, cards, tables and history are made from.
func closedOnly(ms []*parse.Measurement) []*parse.Measurement {
	out := make([]*parse.Measurement, 0, len(ms))
	for _, m := range ms {
		if m.Phase == parse.PhaseThroughput {
			out = append(out, m)
		}
	}
	return out
}

// closedLoop is set with only its closed-loop measurements.
func closedLoop(set *parse.Set) *parse.Set {
	return &parse.Set{Runs: set.Runs, Targets: set.Targets, Measurements: closedOnly(set.Measurements)}
}

// openPoints are the latency and sweep measurements of the runs on show,
// warm-ups left out, sorted by scenario, phase, target, rate, connections
// and repetition.
func (m *model) openPoints(set *parse.Set) []*parse.Measurement {
	var out []*parse.Measurement
	for _, meas := range set.Measurements {
		if !meas.Warmup && m.primary[meas.Run] && meas.Phase != parse.PhaseThroughput {
			out = append(out, meas)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		switch {
		case a.Scenario != b.Scenario:
			return a.Scenario < b.Scenario
		case a.Phase != b.Phase:
			return a.Phase < b.Phase
		case m.pointName(a) != m.pointName(b):
			return m.pointName(a) < m.pointName(b)
		case a.Rate != b.Rate:
			return a.Rate < b.Rate
		case a.Connections != b.Connections:
			return a.Connections < b.Connections
		}
		return a.Rep < b.Rep
	})
	return out
}

// pointName names a point's target as the tables name cells.
func (m *model) pointName(meas *parse.Measurement) string {
	return m.in.cellName(meas.Target, meas.Runtime)
}

// When a point's sending fell behind its schedule, the requests it sent
// late waited in the load tool, and their wait is in no latency it
// printed: the point shows the client's failure, not the server's latency.
const (
	// sendShortfall is how far below the offered rate the send rate may
	// fall before the point counts as behind: 5%, above the rounding of a
	// short window's start and end.
	sendShortfall = 0.05
	// behindLimit is how late the latest request may go out: 50 ms, more
	// than a scheduler tick or a garbage-collection pause of the load tool,
	// and already a p99 at most loads this site measures.
	behindLimit = 50 * time.Millisecond
)

// fellBehind says why a latency point's sending fell behind its schedule,
// "" when it kept to it (or its tool does not say).
func fellBehind(meas *parse.Measurement) string {
	if meas.Phase != parse.PhaseLatency {
		return ""
	}
	o := meas.Open
	switch {
	case meas.Rate > 0 && o.SendRate > 0 && o.SendRate < meas.Rate*(1-sendShortfall):
		return fmt.Sprintf("the load tool sent %s req/s of the %s offered (%.0f%% short): its latency is the client's failure, not the server's", Count(o.SendRate), Count(meas.Rate), (1-o.SendRate/meas.Rate)*100)
	case o.Behind > behindLimit:
		return fmt.Sprintf("the load tool's sending fell %s behind its schedule (more than %s): its latency leaves out that wait and is the client's failure, not the server's", Latency(o.Behind), Latency(behindLimit))
	}
	return ""
}

// percentileOf is percentile q of a measurement, false if not printed.
func percentileOf(meas *parse.Measurement, q float64) (time.Duration, bool) {
	for _, p := range meas.Latency.Percentiles {
		if p.P == q {
			return p.Value, true
		}
	}
	return 0, false
}

// PointTable is the table of every latency and sweep point of a scenario
// or a target.
type PointTable struct {
	ShowTarget, ShowScenario bool
	Rows                     []PointRow
	// Notes say which points were not offered and why (a target page's;
	// a scenario page's are OpenSection.Notes).
	Notes []string
}

// PointRow is one point: one repetition at one offered rate or one count
// of connections.
type PointRow struct {
	Target, Scenario Link
	Phase            string
	Rate, Fraction   Num
	Connections      Num
	Rep              string
	Achieved, Sent   Num
	P50, P99, Max    Num
	Success          Num
	Behind           string // why the point shows the client's failure, "" if it does not
	Dump             Link
}

// pointRow lays out one point for a page.
func (m *model) pointRow(p Page, meas *parse.Measurement) PointRow {
	name := m.pointName(meas)
	r := PointRow{
		Target:   Link{Href: p.href(m.links.Target(name)), Text: name},
		Scenario: Link{Href: p.href(m.links.Scenario(meas.Scenario)), Text: meas.Scenario},
		Phase:    meas.Phase,
		Rep:      strconv.Itoa(meas.Rep),
		Behind:   fellBehind(meas),
		Dump:     Link{Href: p.href(m.links.Dump(meas.Source)), Text: filepath.Base(filepath.Dir(meas.Source.File)) + "/" + dumpLabel(meas.Source), Title: "sha256 " + meas.Source.SHA256},
	}
	if m.links.Target(name) == "" {
		r.Target.Href = ""
	}
	if _, ok := m.links.scenario[meas.Scenario]; !ok {
		r.Scenario.Href = ""
	}
	dash := Num{Text: "—", Sort: "-1"}
	rate := func(v float64) Num {
		if v <= 0 {
			return dash
		}
		return Num{Text: Count(v), Sort: strconv.FormatFloat(v, 'g', -1, 64), Title: Grouped(v, 2) + " req/s"}
	}
	lat := func(d time.Duration, ok bool, what string) Num {
		if !ok {
			return Num{Text: "—", Sort: "-1", Title: what + ": not printed"}
		}
		return Num{Text: latencySeconds(d.Seconds()), Sort: strconv.FormatFloat(d.Seconds(), 'g', -1, 64), Title: what + " " + exactMillis(d.Seconds())}
	}
	r.Rate, r.Achieved, r.Sent = rate(meas.Rate), rate(meas.Throughput()), rate(meas.Open.SendRate)
	r.Fraction = dash
	if f := meas.Open.Fraction; f > 0 {
		r.Fraction = Num{Text: fmt.Sprintf("%.0f%%", f*100), Sort: strconv.FormatFloat(f, 'g', -1, 64),
			Title: fmt.Sprintf("%.1f%% of a capacity of %s req/s", f*100, Grouped(meas.Open.Capacity, 1))}
	}
	r.Connections = dash
	if meas.Connections > 0 {
		r.Connections = Num{Text: strconv.Itoa(meas.Connections), Sort: strconv.Itoa(meas.Connections)}
	}
	p50, ok50 := percentileOf(meas, 50)
	p99, ok99 := percentileOf(meas, 99)
	r.P50, r.P99 = lat(p50, ok50, "p50"), lat(p99, ok99, "p99")
	r.Max = lat(meas.Latency.Max, meas.Latency.Max > 0, "max")
	r.Success = dash
	if s, ok := successOf(meas); ok {
		r.Success = Num{Text: fmt.Sprintf("%.2f%%", s*100), Sort: strconv.FormatFloat(s, 'g', -1, 64)}
	}
	return r
}

// successOf is the share of requests answered with success: the tool's own
// (vegeta's "success"), else good responses ÷ completed requests.
func successOf(meas *parse.Measurement) (float64, bool) {
	if meas.Open.SuccessKnown {
		return meas.Open.Success, true
	}
	if meas.Requests > 0 && meas.GoodBasis != "" {
		return math.Min(1, float64(meas.GoodRequests())/float64(meas.Requests)), true
	}
	return 0, false
}

// targetPoints is the table of every point of one target, with the notes
// on its points not offered; nil for neither.
func (m *model) targetPoints(p Page, name string) *PointTable {
	t := &PointTable{ShowScenario: true, Notes: m.notOfferedNotes(m.notOffered("", name), false, true)}
	for _, meas := range m.points {
		if m.pointName(meas) == name {
			t.Rows = append(t.Rows, m.pointRow(p, meas))
		}
	}
	if len(t.Rows)+len(t.Notes) == 0 {
		return nil
	}
	return t
}
