package render

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/audit"

	"github.com/samber/lo"
)

// closedOnly are the closed-loop measurements of ms (Phase ""): the only
// ones cells, verdicts, cards, tables and history are made from.
func closedOnly(ms []*parse.Measurement) []*parse.Measurement {
	return lo.Filter(ms, func(m *parse.Measurement, _ int) bool { return m.Phase == parse.PhaseThroughput })
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
		if !meas.Warmup && m.primary[meas.Run] && meas.AfterThroughput() {
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

// fellBehind says why a latency point measures the client rather than
// the server, "" when it does not: the audit's judgment, so that a page
// and the findings never disagree about a point.
func fellBehind(meas *parse.Measurement) string {
	return audit.ClientFellBehind(meas)
}

// percentileOf is percentile q of a measurement, false if not printed.
func percentileOf(meas *parse.Measurement, q float64) (time.Duration, bool) {
	return meas.Latency.Percentile(q)
}

// dueLatency is percentile q of a latency point as a user on its schedule
// met it: timed from when each request was due (due true) where the
// collector read the results and kept that percentile, else as the tool
// printed it; false if neither.
func dueLatency(meas *parse.Measurement, q float64) (v time.Duration, due, ok bool) {
	if v, ok := meas.Open.FromSchedule.Percentile(q); ok {
		return v, true, true
	}
	v, ok = percentileOf(meas, q)
	return v, false, ok
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
	P99Due           Num // p99 timed from when each request was due, where the results were read
	Success          Num
	Behind           string // why the point shows the client's failure, "" if it does not
	Held             string // why its requests left late because the target held every worker, "" if they did not
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
		Held:     audit.TargetHeldWorkers(meas),
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
	due, okDue := meas.Open.FromSchedule.Percentile(99)
	r.P99Due = lat(due, okDue, "p99 timed from when each request was due")
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
