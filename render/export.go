package render

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
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

func (m *model) resultsJSON() ([]byte, error) {
	doc := resultsDoc{Schema: ResultsSchema, Metric: m.metric.String(), PrimaryRun: m.run, Findings: m.findings}
	if doc.Findings == nil {
		doc.Findings = []parse.Finding{}
	}
	for _, r := range m.set.Runs {
		doc.Runs = append(doc.Runs, resultsRun{ID: r.ID, Suite: r.Suite, SuiteSHA256: r.SuiteSHA256, Start: r.Start, Host: r.Host})
	}
	for _, c := range m.all {
		st := c.Stat(m.metric)
		rc := resultsCell{
			Run: c.Run, Scenario: c.Scenario, Name: c.Name, Target: c.Target, Runtime: c.Runtime, Tool: c.Tool,
			N: st.N, Median: finite(st.Median), Lo: finite(st.Lo), Hi: finite(st.Hi), Confidence: st.Confidence,
			Min: finite(st.Min), Max: finite(st.Max), CV: st.CV, GoodMedian: finite(c.GoodRPS.Median),
			Tier: m.rank[c],
		}
		if cmp, ok := m.vsLeader[c]; ok {
			rc.VsLeader = &resultsRatio{Ratio: finite(cmp.Ratio), Lo: finite(cmp.Lo), Hi: finite(cmp.Hi), Delta: cmp.Delta(), Reason: cmp.Reason}
		}
		for i, rep := range c.Reps {
			src := rep.Source
			src.File = m.links.Raw(src.File)
			rc.Reps = append(rc.Reps, resultsRep{Rep: rep.Rep, Value: st.Values[i], GoodRPS: c.GoodRPS.Values[i], Argv: rep.Argv, Source: src})
		}
		doc.Cells = append(doc.Cells, rc)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// resultsCSV writes one line per repetition (warm-ups excluded) in base
// units, with the dump each came from.
func (m *model) resultsCSV() ([]byte, error) {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	_ = w.Write([]string{"run", "scenario", "name", "target", "runtime", "rep", "tool", "tool_version",
		"rps", "good_rps", "requests", "duration_s", "latency_mean_s", "latency_p50_s", "latency_p99_s",
		"errors", "non_2xx", "dump", "line_start", "line_end", "sha256"})
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	pct := func(l parse.Latency, q float64) string {
		for _, p := range l.Percentiles {
			if p.P == q {
				return f(p.Value.Seconds())
			}
		}
		return ""
	}
	for _, c := range m.all {
		for _, r := range c.Reps {
			non2xx := r.Status.Non2xx
			if r.Status.Known {
				non2xx = r.Status.C1xx + r.Status.C3xx + r.Status.C4xx + r.Status.C5xx + r.Status.Other
			}
			_ = w.Write([]string{c.Run, c.Scenario, c.Name, c.Target, c.Runtime, strconv.Itoa(r.Rep), r.Tool, r.ToolVersion,
				f(r.RPS), f(r.GoodRPS()), strconv.FormatInt(r.Requests, 10), f(r.Duration.Seconds()),
				f(r.Latency.Mean.Seconds()), pct(r.Latency, 50), pct(r.Latency, 99),
				strconv.FormatInt(r.Errors.Total(), 10), strconv.FormatInt(non2xx, 10),
				m.links.Raw(r.Source.File), strconv.Itoa(r.Source.LineStart), strconv.Itoa(r.Source.LineEnd), r.Source.SHA256})
		}
	}
	w.Flush()
	return b.Bytes(), w.Error()
}
