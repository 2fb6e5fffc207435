package render

import (
	"slices"
	"strconv"
	"time"

	"github.com/fairbench/fairbench/parse/verdict"
)

// The results page's long table: one row per cell (a target in a scenario
// of a run on show), with the framework, its language and runtime, the
// geometric mean every ratio divides, p99 and the rank range its
// scenario's verdicts allow. It is static HTML a reader can read without
// script; site.js sorts it and filters it by language, runtime, scenario
// and name.

// CellRow is one cell of the long table.
type CellRow struct {
	Target   Link
	Language string
	Runtime  string // the runtime's name, as the runtime filter matches it
	Version  string // the runtime as its run recorded it, for the title
	Run      string // the run's suite
	Scenario Link
	RPS      Num // geometric mean of the repetitions, the statistic ratios divide
	P99      Num // median over repetitions of the tool's 99th percentile
	Rank     Num
}

// languages are the languages of the runtimes fairbench knows; a runtime
// it does not know is its own language.
var languages = map[string]string{"go": "Go", "node": "JavaScript", "bun": "JavaScript", "deno": "JavaScript"}

// languageOf is runtime rt's language.
func languageOf(rt string) string {
	if l, ok := languages[rt]; ok {
		return l
	}
	return rt
}

// cellRows are the long table's rows, in the order of the scenarios,
// then the families' order (highest geometric mean first); languages,
// runtimes are the filters' choices, sorted.
func (m *model) cellRows(p Page) (rows []CellRow, langs, runtimes []string) {
	for _, s := range m.scenarios {
		for _, run := range m.runsIn(s) {
			for _, sv := range m.dec.Families(run, s) {
				for _, c := range sv.Cells {
					rows = append(rows, m.cellRow(p, c))
				}
			}
		}
	}
	for _, r := range rows {
		if r.Language != "" && !slices.Contains(langs, r.Language) {
			langs = append(langs, r.Language)
		}
		if r.Runtime != "" && !slices.Contains(runtimes, r.Runtime) {
			runtimes = append(runtimes, r.Runtime)
		}
	}
	slices.Sort(langs)
	slices.Sort(runtimes)
	return rows, langs, runtimes
}

// cellRow is cell c as a row of the long table.
func (m *model) cellRow(p Page, c *verdict.Cell) CellRow {
	st := c.Stat(m.metric)
	r := CellRow{Target: Link{Href: p.href(m.links.Target(c.Name)), Text: c.Name},
		Runtime: c.Runtime, Language: languageOf(c.Runtime), Run: m.suiteName(c.Run),
		Scenario: Link{Href: p.href(m.links.Scenario(c.Scenario)), Text: c.Scenario},
		RPS:      Num{Text: "–", Sort: "-1"}, P99: Num{Text: "–", Sort: "-1"}, Rank: Num{Text: "–", Sort: "1e9"}}
	if c.Runtime != "" {
		r.Version = m.runtimeVersion(c.Name, c.Runtime)
	}
	if st.N > 0 && st.GeoMean > 0 {
		r.RPS = Num{Text: Count(st.GeoMean), Sort: strconv.FormatFloat(st.GeoMean, 'g', -1, 64),
			Href: p.href(m.links.Target(c.Name) + "#" + m.links.scenario[c.Scenario])}
	}
	if d, ok := p99Of(c); ok {
		r.P99 = Num{Text: Latency(d), Sort: strconv.FormatFloat(d.Seconds(), 'g', -1, 64)}
	}
	if rk := m.ranks[c]; rk.Ranked {
		r.Rank = Num{Text: rankText(rk), Sort: strconv.Itoa(rk.Lo)}
	}
	return r
}

// p99Of is the median over c's repetitions of the 99th percentile its
// tool printed; ok is false when none printed one.
func p99Of(c *verdict.Cell) (time.Duration, bool) {
	var ds []time.Duration
	for _, rep := range c.Reps {
		for _, pc := range rep.Latency.Percentiles {
			if pc.P == 99 {
				ds = append(ds, pc.Value)
			}
		}
	}
	if len(ds) == 0 {
		return 0, false
	}
	slices.Sort(ds)
	if n := len(ds); n%2 == 0 {
		return (ds[n/2-1] + ds[n/2]) / 2, true
	}
	return ds[len(ds)/2], true
}
