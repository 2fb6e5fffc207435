package render

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/audit"
	runhist "github.com/fairbench/fairbench/parse/history"
	"github.com/fairbench/fairbench/parse/runjson"
	"github.com/fairbench/fairbench/parse/verdict"
)

// ResultsSchema is the version of results.json's layout. 4:
// "not_offered" lists the latency points of the runs on show that were not
// offered because they lay above the client's measured ceiling. 3: "points"
// carries every latency and sweep point (cells only closed-loop ones), and
// results.csv lists them after the cells' repetitions, with a phase column
// and the columns of an open-model point. 2: cells carry
// their interval's kind and level, rank_lo and rank_hi (no tier, no bare
// "confidence"); "verdicts", "cards" and "comparisons" carry the decision
// layer's records.
const ResultsSchema = 4

// resultsDoc is results.json: every cell of every run in base units,
// every latency and sweep point of every run, and every verdict of the
// runs on show.
type resultsDoc struct {
	Schema     int                `json:"schema"`
	Metric     string             `json:"metric"`
	PrimaryRun string             `json:"primary_run"`
	Runs       []resultsRun       `json:"runs"`
	Cells      []resultsCell      `json:"cells"`
	Points     []resultsPoint     `json:"points"`
	NotOffered []notOfferedRecord `json:"not_offered"`
	Verdicts   []verdictRecord    `json:"verdicts"`
	Cards      []resultsJudged    `json:"cards"`
	Compares   []resultsJudged    `json:"comparisons"`
	Changes    []runhist.Change   `json:"changes"`
	Findings   []audit.Finding    `json:"findings"`
}

// resultsJudged is a card or a comparison of site.toml with the verdict
// records it shows, in the order shown.
type resultsJudged struct {
	Title    string          `json:"title"`
	Verdicts []verdictRecord `json:"verdicts"`
}

type resultsRun struct {
	ID          string        `json:"id"`
	Suite       string        `json:"suite"`
	SuiteSHA256 string        `json:"suite_sha256"`
	Start       time.Time     `json:"start"`
	Host        runjson.Facts `json:"host"`
	// Resolving is what the run tells apart (runs on show only).
	Resolving *RunResolving `json:"resolving,omitempty"`
}

// resultsKey names the cell a record of results.json or a line of
// results.csv belongs to: the fields cells and points lead with, in the
// same order, so that both read alike and change together.
type resultsKey struct {
	Run      string `json:"run"`
	Scenario string `json:"scenario"`
	Name     string `json:"name"`
	Target   string `json:"target"`
	Runtime  string `json:"runtime"`
}

// csv is k as results.csv's first columns.
func (k resultsKey) csv() []string {
	return []string{parse.CSVText(k.Run), parse.CSVText(k.Scenario), parse.CSVText(k.Name), parse.CSVText(k.Target), parse.CSVText(k.Runtime)}
}

type resultsCell struct {
	resultsKey
	Tool       string           `json:"tool"`
	N          int              `json:"n"`
	Median     *float64         `json:"median"`
	GeoMean    *float64         `json:"geomean"`
	Interval   resultsInterval  `json:"interval"`
	Min        *float64         `json:"min"`
	Max        *float64         `json:"max"`
	CV         float64          `json:"cv"`
	GoodMedian *float64         `json:"good_median"`
	RankLo     *int             `json:"rank_lo"`
	RankHi     *int             `json:"rank_hi"`
	VsLeader   *resultsVsLeader `json:"vs_leader,omitempty"`
	Reps       []resultsRep     `json:"reps"`
}

// resultsInterval is the range shown around a median: "ci" with its level,
// or "min-max" (no level) below the size at which a confidence interval
// exists.
type resultsInterval struct {
	Kind  string   `json:"kind"`
	Lo    *float64 `json:"lo"`
	Hi    *float64 `json:"hi"`
	Level *float64 `json:"level"`
	Label string   `json:"label"`
}

// resultsVsLeader is the cell against its family's leader: the leader's
// name and the verdict record on the pair (a < b bytewise, as everywhere).
type resultsVsLeader struct {
	Leader  string        `json:"leader"`
	Verdict verdictRecord `json:"verdict"`
}

type resultsRep struct {
	Rep     int     `json:"rep"`
	Value   float64 `json:"value"` // req/s: completed requests ÷ the window (rps_basis)
	GoodRPS float64 `json:"good_rps"`
	// ToolRPS is the tool's own req/s as printed; RPSBasis says which window
	// Value is over, GoodBasis what GoodRPS counts.
	ToolRPS   float64      `json:"tool_rps,omitempty"`
	RPSBasis  string       `json:"rps_basis,omitempty"`
	GoodBasis string       `json:"good_basis,omitempty"`
	Argv      []string     `json:"argv,omitempty"`
	Source    parse.Source `json:"source"`
	Href      string       `json:"href,omitempty"`
}

// finite returns nil for NaN and ±Inf, which JSON cannot hold.
func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// exportCell is a cell of any run as results.json and results.csv show
// it; model is the cell itself for the runs on show, nil for older runs.
type exportCell struct {
	key       resultsKey
	tool      string
	rps, good verdict.Stat
	reps      []exportRep
	dumps     []string // each rep's dump in the site, "" for none
	model     *verdict.Cell
}

// eachExportCell calls fn for every cell of every run, sorted by run,
// scenario and name: the runs on show from the model, older runs read back
// from the spool one run at a time.
func (m *model) eachExportCell(fn func(exportCell) error) error {
	byRun := map[string][]*verdict.Cell{}
	for _, c := range m.all {
		byRun[c.Run] = append(byRun[c.Run], c)
	}
	for _, id := range exportRuns(byRun, m.in.spool.at, nil) {
		if cells, ok := byRun[id]; ok {
			for _, c := range cells {
				ec := exportCell{key: resultsKey{Run: c.Run, Scenario: c.Scenario, Name: c.Name, Target: c.Target, Runtime: c.Runtime},
					tool: c.Tool, rps: c.RPS, good: c.GoodRPS, model: c}
				for _, r := range c.Reps {
					ec.reps = append(ec.reps, newExportRep(r))
					ec.dumps = append(ec.dumps, m.links.Raw(r.Source.File))
				}
				if err := fn(ec); err != nil {
					return err
				}
			}
			continue
		}
		cells, err := m.in.spool.get(id)
		if err != nil {
			return fmt.Errorf("render: spool of run %s: %w", id, err)
		}
		out := make([]exportCell, len(cells))
		dir, prefix := m.runDirs[id], "raw/"+safePath(id)+"/"
		for i, c := range cells {
			out[i] = exportCell{key: resultsKey{Run: id, Scenario: c.Scenario, Name: m.in.cellName(c.Target, c.Runtime), Target: c.Target, Runtime: c.Runtime},
				tool: c.Tool, rps: c.RPS, good: c.GoodRPS, reps: c.Reps, dumps: make([]string, len(c.Reps))}
			for k, r := range c.Reps {
				out[i].dumps[k] = rawOfOlder(dir, prefix, r.Source.File)
			}
		}
		sort.SliceStable(out, func(i, j int) bool {
			if out[i].key.Scenario != out[j].key.Scenario {
				return out[i].key.Scenario < out[j].key.Scenario
			}
			return out[i].key.Name < out[j].key.Name
		})
		for _, ec := range out {
			if err := fn(ec); err != nil {
				return err
			}
		}
	}
	return nil
}

// exportRuns are the runs the exports walk, sorted: those with records on
// show, and those kept in the spool that spooled admits (nil: all).
func exportRuns[V any](onShow map[string]V, spool map[string]span, spooled func(run string) bool) []string {
	ids := map[string]bool{}
	for id := range onShow {
		ids[id] = true
	}
	for id := range spool {
		if spooled == nil || spooled(id) {
			ids[id] = true
		}
	}
	return slices.Sorted(maps.Keys(ids))
}

func (m *model) resultsCell(c exportCell) resultsCell {
	st := c.rps
	if m.metric == verdict.MetricGoodRPS {
		st = c.good
	}
	iv := st.Interval()
	rc := resultsCell{
		resultsKey: c.key, Tool: c.tool,
		N: st.N, Median: finite(st.Median), GeoMean: finite(st.GeoMean),
		Interval: resultsInterval{Kind: iv.Kind, Lo: finite(iv.Lo), Hi: finite(iv.Hi), Label: iv.Label()},
		Min:      finite(st.Min), Max: finite(st.Max), CV: st.CV, GoodMedian: finite(c.good.Median),
	}
	if iv.Kind == verdict.IntervalCI {
		rc.Interval.Level = finite(iv.Level)
	}
	if c.model != nil {
		if r := m.ranks[c.model]; r.Ranked {
			rc.RankLo, rc.RankHi = &r.Lo, &r.Hi
		}
		if cmp, ok := m.vsLeader[c.model]; ok {
			rc.VsLeader = &resultsVsLeader{Leader: m.leader[c.model].Name, Verdict: verdictRecord(cmp.Verdict)}
		}
	}
	if len(c.reps) > 0 {
		rc.Reps = make([]resultsRep, 0, len(c.reps))
	}
	for i, rep := range c.reps {
		src := rep.Source
		src.File = c.dumps[i]
		rc.Reps = append(rc.Reps, resultsRep{Rep: rep.Rep, Value: st.Values[i], GoodRPS: c.good.Values[i],
			ToolRPS: rep.ToolRPS, RPSBasis: rep.RPSBasis, GoodBasis: rep.GoodBasis, Argv: publicArgv(rep.Argv), Source: src})
	}
	return rc
}

// rawOfOlder is the path in the site of a dump of a run not on show, whose
// run dir is dir ("" if unknown) and whose files are under prefix there.
func rawOfOlder(dir, prefix, file string) string {
	if dir == "" {
		return ""
	}
	rel, err := filepath.Rel(dir, filepath.Clean(file))
	if err != nil || !filepath.IsLocal(rel) {
		return ""
	}
	return inertName(prefix + safePath(filepath.ToSlash(rel)))
}

// jsonIndenter encodes values as the results.json encoder writes them at
// one depth, through buffers it reuses.
type jsonIndenter struct {
	buf bytes.Buffer
	enc *json.Encoder
}

func newJSONIndenter(prefix string) *jsonIndenter {
	j := &jsonIndenter{}
	j.enc = json.NewEncoder(&j.buf)
	j.enc.SetIndent(prefix, "  ")
	j.enc.SetEscapeHTML(false)
	return j
}

// encode is v indented, valid until the next call.
func (j *jsonIndenter) encode(v any) ([]byte, error) {
	j.buf.Reset()
	if err := j.enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(j.buf.Bytes(), []byte("\n")), nil
}

// writeExports writes results.json and results.csv in one pass over the
// cells, a cell at a time, so that each older run is read back from the
// spool once.
func (m *model) writeExports(w *writer) error {
	jf, err := w.create("results.json")
	if err != nil {
		return err
	}
	cf, err := w.create("results.csv")
	if err != nil {
		jf.Close()
		return err
	}
	if err := m.exports(jf, cf); err != nil {
		jf.Close()
		cf.Close()
		return err
	}
	if err := w.close(jf); err != nil {
		cf.Close()
		return err
	}
	if err := w.close(cf); err != nil {
		return err
	}
	vf, err := w.create("verdicts.csv")
	if err != nil {
		return err
	}
	if err := m.verdictsCSV(vf); err != nil {
		vf.Close()
		return fmt.Errorf("verdicts.csv: %w", err)
	}
	return w.close(vf)
}

// verdictsCSVHeader are the columns of verdicts.csv: results.json's
// "verdicts" records, one line per pair of targets within a scenario of one
// run, a < b bytewise; empty fields where the pair was not tested.
var verdictsCSVHeader = []string{"run", "scenario", "metric", "a", "b", "ratio", "lo", "hi", "level", "p", "p_adj",
	"family", "floor", "verdict", "reason", "method"}

// verdictsCSV writes every verdict of the runs on show.
func (m *model) verdictsCSV(out io.Writer) error {
	w := csv.NewWriter(out)
	fl := func(v float64) string {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return ""
		}
		return csvFloat(v)
	}
	_ = w.Write(verdictsCSVHeader)
	for _, v := range m.dec.All() {
		_ = w.Write([]string{parse.CSVText(v.Run), parse.CSVText(v.Scenario), v.Metric.String(), parse.CSVText(v.A), parse.CSVText(v.B),
			fl(v.Ratio), fl(v.Lo), fl(v.Hi), fl(v.Level), fl(v.P), fl(v.PAdj), strconv.Itoa(v.Family), fl(v.Floor),
			v.Verdict, v.Reason, v.Method})
	}
	w.Flush()
	return w.Error()
}

// exports writes results.json to jf, the same bytes encoding one resultsDoc
// would give, and results.csv to cf, one line per repetition (warm-ups
// excluded) in base units with the dump each came from.
func (m *model) exports(jf, cf io.Writer) error {
	jw := bufio.NewWriter(jf)
	cw := csv.NewWriter(cf)
	rj := &resultsJSON{m: m, out: jw, field: newJSONIndenter("  "), elem: newJSONIndenter("    ")}
	if err := rj.head(); err != nil {
		return fmt.Errorf("results.json: %w", err)
	}
	_ = cw.Write(append(resultsCSVHeader[:len(resultsCSVHeader):len(resultsCSVHeader)], pointCSVHeader...))
	err := m.eachExportCell(func(c exportCell) error {
		if err := rj.add(c); err != nil {
			return fmt.Errorf("results.json: %w", err)
		}
		if err := m.csvRows(cw, c); err != nil {
			return fmt.Errorf("results.csv: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := rj.endArray("cells", rj.n); err != nil {
		return fmt.Errorf("results.json: %w", err)
	}
	np := 0
	err = m.eachPoint(func(r pointRecord) error {
		if err := rj.element("points", np, r.json()); err != nil {
			return fmt.Errorf("results.json: %w", err)
		}
		np++
		if err := csvPoint(cw, r); err != nil {
			return fmt.Errorf("results.csv: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := rj.endArray("points", np); err != nil {
		return fmt.Errorf("results.json: %w", err)
	}
	if err := rj.tail(); err != nil {
		return fmt.Errorf("results.json: %w", err)
	}
	if err := jw.Flush(); err != nil {
		return fmt.Errorf("results.json: %w", err)
	}
	if cw.Flush(); cw.Error() != nil {
		return fmt.Errorf("results.csv: %w", cw.Error())
	}
	return nil
}

// resultsJSON writes results.json: head, then add for each cell, then
// tail.
type resultsJSON struct {
	m     *model
	out   io.Writer
	field *jsonIndenter // a field of the document
	elem  *jsonIndenter // an element of an array field
	n     int           // cells written
}

func (r *resultsJSON) writeField(name string, v any, last bool) error {
	b, err := r.field.encode(v)
	if err != nil {
		return err
	}
	sep := ",\n"
	if last {
		sep = "\n"
	}
	_, err = fmt.Fprintf(r.out, "  %q: %s%s", name, b, sep)
	return err
}

// head writes the fields before the cells, the runs a run at a time.
func (r *resultsJSON) head() error {
	m := r.m
	io.WriteString(r.out, "{\n")
	for _, f := range []struct {
		name string
		v    any
	}{{"schema", ResultsSchema}, {"metric", m.metric.String()}, {"primary_run", m.run}} {
		if err := r.writeField(f.name, f.v, false); err != nil {
			return err
		}
	}
	for i := range m.in.runs {
		run := &m.in.runs[i]
		v := resultsRun{ID: run.id, Suite: run.env.suite, SuiteSHA256: run.env.suiteSHA256, Start: run.start, Host: run.host()}
		if rr, ok := m.runResolving(run.id); ok {
			v.Resolving = &rr
		}
		if err := r.element("runs", i, v); err != nil {
			return err
		}
	}
	return r.endArray("runs", len(m.in.runs))
}

// element writes the i-th element of the array field name, as encoding
// the whole array at depth 1 would.
func (r *resultsJSON) element(name string, i int, v any) error {
	b, err := r.elem.encode(v)
	if err != nil {
		return err
	}
	lead := ",\n    "
	if i == 0 {
		lead = "  " + strconv.Quote(name) + ": [\n    "
	}
	if _, err := io.WriteString(r.out, lead); err != nil {
		return err
	}
	_, err = r.out.Write(b)
	return err
}

// endArray ends the array field name of n elements, null when empty as a
// nil slice encodes.
func (r *resultsJSON) endArray(name string, n int) error {
	var err error
	if n == 0 {
		_, err = io.WriteString(r.out, "  "+strconv.Quote(name)+": null,\n")
	} else {
		_, err = io.WriteString(r.out, "\n  ],\n")
	}
	return err
}

func (r *resultsJSON) add(c exportCell) error {
	r.n++
	return r.element("cells", r.n-1, r.m.resultsCell(c))
}

// tail writes the fields after the cells and points.
func (r *resultsJSON) tail() error {
	for _, f := range []struct {
		name string
		v    any
	}{{"not_offered", r.m.notOfferedRecords()}, {"verdicts", verdictRecords(r.m.dec.All())}, {"cards", r.m.judgedCards()}, {"comparisons", r.m.judgedComparisons()}} {
		if err := r.writeField(f.name, f.v, false); err != nil {
			return err
		}
	}
	// changes: steps across the runs of each suite (parse/history), the
	// twins' own series as the control; empty when there are none.
	if err := r.writeField("changes", runhist.ChangesIn(r.m.in.found()), false); err != nil {
		return err
	}
	findings := r.m.findings
	if findings == nil {
		findings = []audit.Finding{}
	}
	if err := r.writeField("findings", findings, true); err != nil {
		return err
	}
	_, err := io.WriteString(r.out, "}\n")
	return err
}

// judgedCards are the site's cards with the verdicts each shows: per
// scenario, subject against baseline, then against each escape.
func (m *model) judgedCards() []resultsJudged {
	out := []resultsJudged{}
	for _, spec := range m.site.Cards {
		v := m.card(Page{}, spec)
		j := resultsJudged{Title: v.Title, Verdicts: []verdictRecord{}}
		for _, row := range v.Rows {
			j.Verdicts = append(j.Verdicts, verdictRecord(row.J.Verdict))
			for _, e := range row.Escapes {
				j.Verdicts = append(j.Verdicts, verdictRecord(e.J.Verdict))
			}
		}
		out = append(out, j)
	}
	return out
}

// judgedComparisons are the site's comparisons with the verdicts each
// shows, pair by pair, scenario by scenario.
func (m *model) judgedComparisons() []resultsJudged {
	out := []resultsJudged{}
	for _, spec := range m.site.Comparisons {
		v := m.comparison(spec)
		j := resultsJudged{Title: v.Title, Verdicts: []verdictRecord{}}
		for _, row := range v.Rows {
			for _, c := range row.Cells {
				if c.Measured {
					j.Verdicts = append(j.Verdicts, verdictRecord(c.J.Verdict))
				}
			}
		}
		out = append(out, j)
	}
	return out
}

var resultsCSVHeader = []string{"run", "scenario", "name", "target", "runtime", "rep", "tool", "tool_version",
	"rps", "rps_basis", "tool_rps", "good_rps", "good_basis", "requests", "duration_s", "latency_mean_s", "latency_p50_s", "latency_p99_s",
	"errors", "non_2xx", "dump", "line_start", "line_end", "sha256"}

// csvFloat is v as the CSV exports write a number: the shortest text that
// reads back as v.
func csvFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// csvSeconds is d in seconds as the CSV exports write it, "" unless ok.
func csvSeconds(d time.Duration, ok bool) string {
	if !ok {
		return ""
	}
	return csvFloat(d.Seconds())
}

// csvRows writes a line for each repetition of c.
func (m *model) csvRows(w *csv.Writer, c exportCell) error {
	fl, pct := csvFloat, csvSeconds
	for i, r := range c.reps {
		dump := c.dumps[i]
		row := append(c.key.csv(),
			strconv.Itoa(r.Rep), parse.CSVText(r.Tool), parse.CSVText(r.ToolVersion),
			fl(r.RPS), r.RPSBasis, fl(r.ToolRPS), fl(r.GoodRPS), r.GoodBasis, strconv.FormatInt(r.Requests, 10), fl(r.Duration.Seconds()),
			fl(r.Mean.Seconds()), pct(r.P50, r.HasP50), pct(r.P99, r.HasP99),
			strconv.FormatInt(r.Errors, 10), strconv.FormatInt(r.Non2xx, 10),
			parse.CSVText(dump), strconv.Itoa(r.Source.LineStart), strconv.Itoa(r.Source.LineEnd), r.Source.SHA256,
			parse.PhaseThroughput)
		// a closed-loop row leaves the points' other columns empty
		if err := w.Write(append(row, make([]string, len(pointCSVHeader)-1)...)); err != nil {
			return err
		}
	}
	return nil
}
