package render

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/fairbench/fairbench/parse"

	"github.com/samber/lo"
)

// OpenSection is a scenario page's open-model part: p50 and p99 against
// offered load, throughput against connections with the knee, and every
// point in a table. nil when the scenario has no such point.
type OpenSection struct {
	Intro  string
	Charts []LineChart
	Notes  []string
	Table  PointTable
	// Points links the page of every point where there are more than
	// maxInlinePoints (Table is then empty): a sweep of 25 targets is
	// hundreds of rows, which would make the scenario page too heavy.
	Points      Link
	PointsCount int
}

// maxInlinePoints is the most latency and sweep points a scenario page
// lists itself; more go to scenario/points/<scenario>.html.
const maxInlinePoints = 40

// openSection lays out the latency and sweep points of scenario s.
func (m *model) openSection(p Page, s string) *OpenSection {
	var lat, sweep, ceil []*parse.Measurement
	for _, meas := range m.points {
		if meas.Scenario != s {
			continue
		}
		switch meas.Phase {
		case parse.PhaseSweep:
			sweep = append(sweep, meas)
		case parse.PhaseCeiling:
			ceil = append(ceil, meas)
		default:
			lat = append(lat, meas)
		}
	}
	notes := m.ceilingNotes(ceil)
	notes = append(notes, m.notOfferedNotes(m.notOffered(s, ""), true, false)...)
	if len(lat)+len(sweep)+len(notes) == 0 {
		return nil
	}
	o := &OpenSection{Table: PointTable{ShowTarget: true},
		Intro: "Apart from the closed-loop numbers above. In the latency phase the load tool sends requests on a schedule at an offered rate, whatever the answers do, so a slow answer does not hold back the requests behind it (no coordinated omission); the rate is a share of each target's own capacity (its median closed-loop req/s here), so every target is loaded alike. The sweep runs the closed-loop tool at several counts of connections."}
	id := m.links.scenario[s]
	o.Notes = notes
	if len(lat) > 0 {
		for _, q := range []float64{50, 99} {
			if countUnplaced(lat) < len(lat) {
				o.Charts = append(o.Charts, m.latencyChart(p, s, id, lat, q))
			}
		}
		if n := countUnplaced(lat); n > 0 {
			o.Notes = append(o.Notes, fmt.Sprintf("%s of %d said no offered rate (a wrk2 dump without its -R command line): in the table only, not on the charts.", parse.Plural(n, "latency point"), len(lat)))
		}
		if n := countBehind(lat); n > 0 {
			o.Notes = append(o.Notes, fmt.Sprintf("%s of %d fell behind the schedule: drawn hollow and left out of the lines, for such a point's latency is the load tool's failure, not the target's (hover a point, or see the table, for by how much).", parse.Plural(n, "latency point"), len(lat)))
		}
	}
	if len(sweep) > 0 {
		chart, notes := m.sweepChart(p, s, id, sweep)
		o.Charts = append(o.Charts, chart)
		o.Notes = append(o.Notes, notes...)
	}
	points := slices.Concat(ceil, lat, sweep)
	if len(points) > maxInlinePoints && p.Template == "scenario" {
		o.Points = Link{Href: p.href(m.pointsPath(s)), Text: "every point"}
		o.PointsCount = len(points)
		return o
	}
	for _, meas := range points {
		o.Table.Rows = append(o.Table.Rows, m.pointRow(p, meas))
	}
	return o
}

// pointsPath is the page of every latency and sweep point of scenario s.
func (m *model) pointsPath(s string) string {
	return "scenario/points/" + m.links.scenario[s] + ".html"
}

// PointsPage is every latency and sweep point of one scenario, for a
// scenario page with more than maxInlinePoints.
type PointsPage struct {
	Page
	Name     string
	Scenario Link
	Table    PointTable
}

// pointsPage is scenario s's points page; nil when its scenario page lists
// them itself.
func (m *model) pointsPage(s string) *PointsPage {
	var points []*parse.Measurement
	for _, meas := range m.points {
		if meas.Scenario == s {
			points = append(points, meas)
		}
	}
	if len(points) <= maxInlinePoints {
		return nil
	}
	p := &PointsPage{Name: s}
	p.Page = m.newPage("scenario-points", m.pointsPath(s), s+": every latency and sweep point")
	p.Script = true
	p.Scenario = Link{Href: p.href(m.links.Scenario(s)), Text: s}
	p.Table = PointTable{ShowTarget: true}
	// The order of the scenario page's table: ceiling, latency, sweep.
	for _, phase := range []func(*parse.Measurement) bool{
		func(x *parse.Measurement) bool { return x.Phase == parse.PhaseCeiling },
		func(x *parse.Measurement) bool { return x.Phase != parse.PhaseCeiling && x.Phase != parse.PhaseSweep },
		func(x *parse.Measurement) bool { return x.Phase == parse.PhaseSweep },
	} {
		for _, meas := range points {
			if phase(meas) {
				p.Table.Rows = append(p.Table.Rows, m.pointRow(p.Page, meas))
			}
		}
	}
	return p
}

// seriesOf is the style of a target's line on every chart: its place
// among the site's targets.
func (m *model) seriesOf(name string) int {
	if i := slices.Index(m.names, name); i >= 0 {
		return i
	}
	return len(m.names) + slices.Index(m.openNames, name)
}

// countUnplaced counts the latency points the charts cannot place: no
// offered rate known.
func countUnplaced(ms []*parse.Measurement) int {
	return lo.CountBy(ms, func(meas *parse.Measurement) bool { return meas.Rate <= 0 && meas.Open.Fraction <= 0 })
}

// countBehind counts the points whose sending fell behind.
func countBehind(ms []*parse.Measurement) int {
	return lo.CountBy(ms, func(meas *parse.Measurement) bool { return fellBehind(meas) != "" })
}

// byName groups points by target name, names sorted.
func (m *model) byName(ms []*parse.Measurement) ([]string, map[string][]*parse.Measurement) {
	g := map[string][]*parse.Measurement{}
	for _, meas := range ms {
		g[m.pointName(meas)] = append(g[m.pointName(meas)], meas)
	}
	return slices.Sorted(maps.Keys(g)), g
}

// latencyChart is percentile q against offered load, a line per target:
// x as a share of each target's capacity where every point was offered
// so, else in req/s.
func (m *model) latencyChart(p Page, s, id string, ms []*parse.Measurement, q float64) LineChart {
	share := true
	for _, meas := range ms {
		share = share && (meas.Open.Fraction > 0 || meas.Rate <= 0)
	}
	pq := "p" + strconv.FormatFloat(q, 'f', -1, 64)
	spec := LineSpec{ID: fmt.Sprintf("lat-%s-%s", id, pq), YScale: 1000, YUnit: pq + " latency, ms",
		Title: fmt.Sprintf("%s: %s latency against offered load, one line per target", s, pq)}
	if share {
		spec.XUnit, spec.XMax = "offered load, % of the target's own capacity (its median closed-loop req/s)", 100
	} else {
		spec.XUnit = "offered load, req/s"
	}
	spec.Desc = fmt.Sprintf("Each dot is one repetition's %s at one offered rate, timed from when each request was due where the collector read the results (a request the target kept waiting counts its wait), the line joins the medians; hollow dots are where the load tool itself fell behind its schedule. The table under the charts lists every point.", pq)
	names, g := m.byName(ms)
	var lines []LineInput
	for _, name := range names {
		li := LineInput{Name: name, Series: m.seriesOf(name), Knee: math.NaN()}
		for _, meas := range g[name] {
			v, due, ok := dueLatency(meas, q)
			if !ok || meas.Rate <= 0 && meas.Open.Fraction <= 0 {
				continue
			}
			x := meas.Rate
			if share {
				x = meas.Open.Fraction * 100
			}
			title := fmt.Sprintf("rep %d at %s req/s offered", meas.Rep, Count(meas.Rate))
			if meas.Open.Fraction > 0 {
				title = fmt.Sprintf("rep %d at %.0f%% of capacity (%s req/s offered)", meas.Rep, meas.Open.Fraction*100, Count(meas.Rate))
			}
			title += fmt.Sprintf(", %s req/s achieved: %s %s", Count(meas.Throughput()), pq, latencySeconds(v.Seconds()))
			if due {
				if printed, ok := percentileOf(meas, q); ok {
					title += fmt.Sprintf(" timed from when each request was due (%s printed)", latencySeconds(printed.Seconds()))
				}
			}
			why := fellBehind(meas)
			if why != "" {
				title += "; " + why
			}
			li.Points = append(li.Points, PointInput{X: x, Y: v.Seconds(), Title: title, Href: p.href(m.links.Dump(meas.Source)), Behind: why != ""})
		}
		if len(li.Points) > 0 {
			lines = append(lines, li)
		}
	}
	return NewLineChart(spec, lines)
}
