package render

import (
	"encoding/csv"
	"sort"
	"strconv"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
)

// exportPoint is one latency or sweep point as results.json and
// results.csv show it, and as the spool keeps it for runs not on show.
type exportPoint struct {
	Target, Runtime, Scenario, Phase string
	Tool, ToolVersion                string
	Rep, Connections                 int
	Rate, Fraction, Capacity         float64 // offered req/s; its share of Capacity (req/s); 0 if not so offered
	SendRate                         float64 // requests sent ÷ the time sending took; 0 if unknown
	Behind                           time.Duration
	FellBehind                       string  // why the point is the client's failure, "" if it is not
	RPS                              float64 // achieved: responses ÷ the window
	Success                          float64
	SuccessKnown                     bool
	P50, P90, P99, Max               time.Duration
	HasP50, HasP90, HasP99           bool
	Corrected                        bool          // latency corrected for coordinated omission (wrk2)
	P99Due                           time.Duration // p99 timed from when each request was due (vegeta's results); 0 if unknown
	Argv                             []string
	Source                           parse.Source
}

func newExportPoint(m *parse.Measurement) exportPoint {
	e := exportPoint{Target: m.Target, Runtime: m.Runtime, Scenario: m.Scenario, Phase: m.Phase, Tool: m.Tool, ToolVersion: m.ToolVersion,
		Rep: m.Rep, Connections: m.Connections, Rate: m.Rate, Fraction: m.Open.Fraction, Capacity: m.Open.Capacity,
		SendRate: m.Open.SendRate, Behind: m.Open.Behind, FellBehind: fellBehind(m), RPS: m.Throughput(),
		Max: m.Latency.Max, Corrected: m.Latency.Corrected, Argv: m.Argv, Source: m.Source}
	e.Success, e.SuccessKnown = successOf(m)
	e.P50, e.HasP50 = percentileOf(m, 50)
	e.P90, e.HasP90 = percentileOf(m, 90)
	e.P99, e.HasP99 = percentileOf(m, 99)
	e.P99Due, _ = m.Open.FromSchedule.Percentile(99)
	return e
}

// pointsOf are the latency and sweep points of ms, warm-ups left out.
func pointsOf(ms []*parse.Measurement) []exportPoint {
	var out []exportPoint
	for _, m := range ms {
		if !m.Warmup && m.AfterThroughput() {
			out = append(out, newExportPoint(m))
		}
	}
	return out
}

// putPoints keeps one run's points in the spool.
func (s *spool) putPoints(run string, points []exportPoint) error {
	if len(points) == 0 {
		return nil
	}
	at, err := s.putGob(points)
	if err != nil {
		return err
	}
	if s.points == nil {
		s.points = map[string]span{}
	}
	s.points[run] = at
	return nil
}

// getPoints reads back one run's points.
func (s *spool) getPoints(run string) ([]exportPoint, error) {
	var points []exportPoint
	err := s.getGob(s.points, run, &points)
	return points, err
}

// resultsPoint is a point in results.json, in base units: req/s and
// seconds; null where the dump does not say.
type resultsPoint struct {
	resultsKey
	Phase       string       `json:"phase"`
	Rep         int          `json:"rep"`
	Tool        string       `json:"tool"`
	ToolVersion string       `json:"tool_version,omitempty"`
	Connections *int         `json:"connections"`
	OfferedRPS  *float64     `json:"offered_rps"`
	Fraction    *float64     `json:"fraction"`
	CapacityRPS *float64     `json:"capacity_rps"`
	SendRPS     *float64     `json:"send_rps"`
	BehindS     *float64     `json:"behind_s"`
	FellBehind  string       `json:"fell_behind,omitempty"`
	RPS         float64      `json:"rps"`
	Success     *float64     `json:"success"`
	P50S        *float64     `json:"latency_p50_s"`
	P90S        *float64     `json:"latency_p90_s"`
	P99S        *float64     `json:"latency_p99_s"`
	MaxS        *float64     `json:"latency_max_s"`
	Corrected   bool         `json:"latency_corrected"`
	P99DueS     *float64     `json:"latency_p99_from_schedule_s,omitempty"`
	Argv        []string     `json:"argv,omitempty"`
	Source      parse.Source `json:"source"`
	Href        string       `json:"href,omitempty"`
}

// pointRecord is what the exports write of a point of run, its dump at
// href in the site ("" for none).
type pointRecord struct {
	run, name, href string
	p               exportPoint
}

// key is the cell r is a point of.
func (r pointRecord) key() resultsKey {
	return resultsKey{Run: r.run, Scenario: r.p.Scenario, Name: r.name, Target: r.p.Target, Runtime: r.p.Runtime}
}

// eachPoint calls fn for every point of every run, sorted by run: the runs
// on show from the model, older runs read back from the spool.
func (m *model) eachPoint(fn func(pointRecord) error) error {
	byRun := map[string][]pointRecord{}
	for _, meas := range m.points {
		byRun[meas.Run] = append(byRun[meas.Run], pointRecord{run: meas.Run, name: m.pointName(meas), href: m.links.Raw(meas.Source.File), p: newExportPoint(meas)})
	}
	for _, id := range exportRuns(byRun, m.in.spool.points, func(id string) bool { return !m.primary[id] }) {
		recs, ok := byRun[id]
		if !ok {
			ps, err := m.in.spool.getPoints(id)
			if err != nil {
				return err
			}
			dir, prefix := m.runDirs[id], "raw/"+safePath(id)+"/"
			for _, p := range ps {
				recs = append(recs, pointRecord{run: id, name: m.in.cellName(p.Target, p.Runtime), href: rawOfOlder(dir, prefix, p.Source.File), p: p})
			}
			sort.SliceStable(recs, func(i, j int) bool { return pointLess(recs[i], recs[j]) })
		}
		for _, r := range recs {
			if err := fn(r); err != nil {
				return err
			}
		}
	}
	return nil
}

// pointLess orders points as openPoints does.
func pointLess(a, b pointRecord) bool {
	switch {
	case a.p.Scenario != b.p.Scenario:
		return a.p.Scenario < b.p.Scenario
	case a.p.Phase != b.p.Phase:
		return a.p.Phase < b.p.Phase
	case a.name != b.name:
		return a.name < b.name
	case a.p.Rate != b.p.Rate:
		return a.p.Rate < b.p.Rate
	case a.p.Connections != b.p.Connections:
		return a.p.Connections < b.p.Connections
	}
	return a.p.Rep < b.p.Rep
}

func (r pointRecord) json() resultsPoint {
	p := r.p
	pos := func(v float64) *float64 {
		if v <= 0 {
			return nil
		}
		return finite(v)
	}
	dur := func(d time.Duration, ok bool) *float64 {
		if !ok {
			return nil
		}
		return finite(d.Seconds())
	}
	src := p.Source
	src.File = r.href
	out := resultsPoint{resultsKey: r.key(), Phase: p.Phase,
		Rep: p.Rep, Tool: p.Tool, ToolVersion: p.ToolVersion, OfferedRPS: pos(p.Rate), Fraction: pos(p.Fraction),
		CapacityRPS: pos(p.Capacity), SendRPS: pos(p.SendRate), BehindS: dur(p.Behind, p.Behind > 0), FellBehind: p.FellBehind,
		RPS: p.RPS, P50S: dur(p.P50, p.HasP50), P90S: dur(p.P90, p.HasP90), P99S: dur(p.P99, p.HasP99), MaxS: dur(p.Max, p.Max > 0),
		Corrected: p.Corrected, P99DueS: dur(p.P99Due, p.P99Due > 0), Argv: publicArgv(p.Argv), Source: src, Href: r.href}
	if p.Connections > 0 {
		out.Connections = &p.Connections
	}
	if p.SuccessKnown {
		out.Success = finite(p.Success)
	}
	return out
}

// pointCSVHeader are the columns results.csv adds after the closed-loop
// ones; a closed-loop row leaves them empty but its phase, "".
var pointCSVHeader = []string{"phase", "connections", "offered_rps", "fraction", "capacity_rps", "send_rps", "behind_s",
	"fell_behind", "success", "latency_p90_s", "latency_max_s", "latency_p99_from_schedule_s"}

// csvPoint writes one point as a results.csv line: the columns the
// closed-loop rows share, then pointCSVHeader's.
func csvPoint(w *csv.Writer, r pointRecord) error {
	p := r.p
	fl, dur := csvFloat, csvSeconds
	pos := func(v float64) string {
		if v <= 0 {
			return ""
		}
		return fl(v)
	}
	conns, success := "", ""
	if p.Connections > 0 {
		conns = strconv.Itoa(p.Connections)
	}
	if p.SuccessKnown {
		success = fl(p.Success)
	}
	return w.Write(append(r.key().csv(),
		strconv.Itoa(p.Rep), parse.CSVText(p.Tool), parse.CSVText(p.ToolVersion),
		fl(p.RPS), "", "", "", "", "", "", "", dur(p.P50, p.HasP50), dur(p.P99, p.HasP99), "", "",
		parse.CSVText(r.href), strconv.Itoa(p.Source.LineStart), strconv.Itoa(p.Source.LineEnd), p.Source.SHA256,
		p.Phase, conns, pos(p.Rate), pos(p.Fraction), pos(p.Capacity), pos(p.SendRate), dur(p.Behind, p.Behind > 0),
		parse.CSVText(p.FellBehind), success, dur(p.P90, p.HasP90), dur(p.Max, p.Max > 0), dur(p.P99Due, p.P99Due > 0)))
}

// notOfferedRecord is a latency point the collector did not offer, as
// results.json writes it: run.json's record with its run.
type notOfferedRecord struct {
	Run string `json:"run"`
	runjson.NotOffered
}

// notOfferedRecords are the points not offered in the runs on show.
func (m *model) notOfferedRecords() []notOfferedRecord {
	out := []notOfferedRecord{}
	for _, p := range m.notOffered("", "") {
		out = append(out, notOfferedRecord{Run: p.run.ID, NotOffered: p.NotOffered})
	}
	return out
}
