package render

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"time"

	"github.com/fairbench/fairbench/parse"
)

// ResultsSchema is the version of results.json's layout.
const ResultsSchema = 1

// resultsDoc is results.json: every cell of every run in base units.
type resultsDoc struct {
	Schema     int             `json:"schema"`
	Metric     string          `json:"metric"`
	PrimaryRun string          `json:"primary_run"`
	Runs       []resultsRun    `json:"runs"`
	Cells      []resultsCell   `json:"cells"`
	Findings   []parse.Finding `json:"findings"`
}

type resultsRun struct {
	ID          string     `json:"id"`
	Suite       string     `json:"suite"`
	SuiteSHA256 string     `json:"suite_sha256"`
	Start       time.Time  `json:"start"`
	Host        parse.Host `json:"host"`
}

type resultsCell struct {
	Run        string        `json:"run"`
	Scenario   string        `json:"scenario"`
	Name       string        `json:"name"`
	Target     string        `json:"target"`
	Runtime    string        `json:"runtime"`
	Tool       string        `json:"tool"`
	N          int           `json:"n"`
	Median     *float64      `json:"median"`
	Lo         *float64      `json:"lo"`
	Hi         *float64      `json:"hi"`
	Confidence float64       `json:"confidence"`
	Min        *float64      `json:"min"`
	Max        *float64      `json:"max"`
	CV         float64       `json:"cv"`
	GoodMedian *float64      `json:"good_median"`
	Tier       int           `json:"tier,omitempty"`
	VsLeader   *resultsRatio `json:"vs_leader,omitempty"`
	Reps       []resultsRep  `json:"reps"`
}

type resultsRatio struct {
	Ratio  *float64 `json:"ratio"`
	Lo     *float64 `json:"lo"`
	Hi     *float64 `json:"hi"`
	Delta  string   `json:"delta"`
	Reason string   `json:"reason"`
}

type resultsRep struct {
	Rep     int          `json:"rep"`
	Value   float64      `json:"value"`
	GoodRPS float64      `json:"good_rps"`
	Argv    []string     `json:"argv,omitempty"`
	Source  parse.Source `json:"source"`
	Href    string       `json:"href,omitempty"`
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
	run, scenario, name, target, runtime, tool string
	rps, good                                  parse.Stat
	reps                                       []exportRep
	model                                      *parse.Cell
}

// eachExportCell calls fn for every cell of every run, sorted by run,
// scenario and name: the runs on show from the model, older runs read back
// from the spool one run at a time.
func (m *model) eachExportCell(fn func(exportCell) error) error {
	byRun := map[string][]*parse.Cell{}
	for _, c := range m.all {
		byRun[c.Run] = append(byRun[c.Run], c)
	}
	ids := map[string]bool{}
	for id := range byRun {
		ids[id] = true
	}
	for id := range m.in.spool.at {
		ids[id] = true
	}
	for _, id := range sortedKeys(ids) {
		if cells, ok := byRun[id]; ok {
			for _, c := range cells {
				ec := exportCell{run: c.Run, scenario: c.Scenario, name: c.Name, target: c.Target, runtime: c.Runtime, tool: c.Tool,
					rps: c.RPS, good: c.GoodRPS, model: c}
				for _, r := range c.Reps {
					ec.reps = append(ec.reps, newExportRep(r))
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
		for i, c := range cells {
			out[i] = exportCell{run: id, scenario: c.Scenario, name: m.in.cellName(c.Target, c.Runtime), target: c.Target, runtime: c.Runtime,
				tool: c.Tool, rps: c.RPS, good: c.GoodRPS, reps: c.Reps}
		}
		sort.SliceStable(out, func(i, j int) bool {
			if out[i].scenario != out[j].scenario {
				return out[i].scenario < out[j].scenario
			}
			return out[i].name < out[j].name
		})
		for _, ec := range out {
			if err := fn(ec); err != nil {
				return err
			}
		}
	}
	return nil
}

func (m *model) resultsCell(c exportCell) resultsCell {
	st := c.rps
	if m.metric == parse.MetricGoodRPS {
		st = c.good
	}
	rc := resultsCell{
		Run: c.run, Scenario: c.scenario, Name: c.name, Target: c.target, Runtime: c.runtime, Tool: c.tool,
		N: st.N, Median: finite(st.Median), Lo: finite(st.Lo), Hi: finite(st.Hi), Confidence: st.Confidence,
		Min: finite(st.Min), Max: finite(st.Max), CV: st.CV, GoodMedian: finite(c.good.Median),
	}
	if c.model != nil {
		rc.Tier = m.rank[c.model]
		if cmp, ok := m.vsLeader[c.model]; ok {
			rc.VsLeader = &resultsRatio{Ratio: finite(cmp.Ratio), Lo: finite(cmp.Lo), Hi: finite(cmp.Hi), Delta: cmp.Delta(), Reason: cmp.Reason}
		}
	}
	for i, rep := range c.reps {
		src := rep.Source
		src.File = m.links.Raw(src.File)
		if c.model == nil {
			src.File = m.rawOfOlder(c.run, rep.Source.File)
		}
		rc.Reps = append(rc.Reps, resultsRep{Rep: rep.Rep, Value: st.Values[i], GoodRPS: c.good.Values[i], Argv: rep.Argv, Source: src})
	}
	return rc
}

// rawOfOlder is the path under raw/ of a dump of a run not on show.
func (m *model) rawOfOlder(run, file string) string {
	dir, ok := m.runDirs[run]
	if !ok {
		return ""
	}
	rel, err := filepath.Rel(dir, filepath.Clean(file))
	if err != nil || !filepath.IsLocal(rel) {
		return ""
	}
	return "raw/" + safePath(run) + "/" + safePath(filepath.ToSlash(rel))
}

// jsonIndented is v as the results.json encoder writes it at depth prefix.
func jsonIndented(v any, prefix string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent(prefix, "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// writeResultsJSON writes results.json a cell at a time: the same bytes
// encoding one resultsDoc would give.
func (m *model) writeResultsJSON(w *writer) error {
	f, err := w.create("results.json")
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	if err := m.resultsJSON(bw); err != nil {
		f.Close()
		return fmt.Errorf("results.json: %w", err)
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return w.close(f)
}

func (m *model) resultsJSON(out io.Writer) error {
	var runs []resultsRun
	for _, r := range m.in.runs {
		runs = append(runs, resultsRun{ID: r.ID, Suite: r.Suite, SuiteSHA256: r.SuiteSHA256, Start: r.Start, Host: r.Host})
	}
	findings := m.findings
	if findings == nil {
		findings = []parse.Finding{}
	}
	field := func(name string, v any, last bool) error {
		b, err := jsonIndented(v, "  ")
		if err != nil {
			return err
		}
		sep := ",\n"
		if last {
			sep = "\n"
		}
		_, err = fmt.Fprintf(out, "  %q: %s%s", name, b, sep)
		return err
	}
	io.WriteString(out, "{\n")
	for _, f := range []struct {
		name string
		v    any
	}{{"schema", ResultsSchema}, {"metric", m.metric.String()}, {"primary_run", m.run}, {"runs", runs}} {
		if err := field(f.name, f.v, false); err != nil {
			return err
		}
	}
	n := 0
	err := m.eachExportCell(func(c exportCell) error {
		b, err := jsonIndented(m.resultsCell(c), "    ")
		if err != nil {
			return err
		}
		lead := ",\n    "
		if n == 0 {
			lead = "  \"cells\": [\n    "
		}
		n++
		_, err = fmt.Fprintf(out, "%s%s", lead, b)
		return err
	})
	if err != nil {
		return err
	}
	if n == 0 {
		io.WriteString(out, "  \"cells\": null,\n")
	} else {
		io.WriteString(out, "\n  ],\n")
	}
	if err := field("findings", findings, true); err != nil {
		return err
	}
	_, err = io.WriteString(out, "}\n")
	return err
}

// writeResultsCSV writes one line per repetition (warm-ups excluded) in
// base units, with the dump each came from, a cell at a time.
func (m *model) writeResultsCSV(wr *writer) error {
	f, err := wr.create("results.csv")
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	_ = w.Write([]string{"run", "scenario", "name", "target", "runtime", "rep", "tool", "tool_version",
		"rps", "good_rps", "requests", "duration_s", "latency_mean_s", "latency_p50_s", "latency_p99_s",
		"errors", "non_2xx", "dump", "line_start", "line_end", "sha256"})
	fl := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	pct := func(v time.Duration, ok bool) string {
		if !ok {
			return ""
		}
		return fl(v.Seconds())
	}
	err = m.eachExportCell(func(c exportCell) error {
		for _, r := range c.reps {
			dump := m.links.Raw(r.Source.File)
			if c.model == nil {
				dump = m.rawOfOlder(c.run, r.Source.File)
			}
			if err := w.Write([]string{c.run, c.scenario, c.name, c.target, c.runtime, strconv.Itoa(r.Rep), r.Tool, r.ToolVersion,
				fl(r.RPS), fl(r.GoodRPS), strconv.FormatInt(r.Requests, 10), fl(r.Duration.Seconds()),
				fl(r.Mean.Seconds()), pct(r.P50, r.HasP50), pct(r.P99, r.HasP99),
				strconv.FormatInt(r.Errors, 10), strconv.FormatInt(r.Non2xx, 10),
				dump, strconv.Itoa(r.Source.LineStart), strconv.Itoa(r.Source.LineEnd), r.Source.SHA256}); err != nil {
				return err
			}
		}
		return nil
	})
	w.Flush()
	if err == nil {
		err = w.Error()
	}
	if err != nil {
		f.Close()
		return fmt.Errorf("results.csv: %w", err)
	}
	return wr.close(f)
}
