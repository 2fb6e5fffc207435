package render

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/audit"
)

// TargetPage is one target: its facts, every scenario with every
// repetition, and its conformance transcript.
type TargetPage struct {
	Page
	Name        string
	Facts       []Fact
	Scenarios   []TargetScenario
	Verdict     string // "pass", "fail" or ""
	Failed      string
	Transcript  []TranscriptLine
	TransHref   string
	Unavailable string // why no transcript is shown
}

// Fact is one labelled value in a facts table.
type Fact struct {
	Label, Value, Title, Href string
}

// TargetScenario is one scenario of one target.
type TargetScenario struct {
	ID       string
	Name     Link
	Median   string
	Interval string
	Tier     string
	CV       string
	Reps     []RepRow
	Badges   []Badge
}

// RepRow is one repetition: its numbers, its dump and its command.
type RepRow struct {
	Rep, Value, Good, Mean, Errors string
	Dump                           Link
	Command                        string
}

func (m *model) targetPage(name string) *TargetPage {
	p := &TargetPage{Name: name}
	p.Page = m.newPage("target", m.links.Target(name), name)
	p.Facts = m.targetFacts(name)
	for _, s := range m.scenarios {
		c := m.cell(s, name)
		if c == nil {
			continue
		}
		p.Scenarios = append(p.Scenarios, m.targetScenario(p.Page, c))
	}
	t := m.facts[name]
	if t == nil {
		p.Unavailable = "No conformance gate ran for this target (its dumps came from outside a fairbench run)."
		return p
	}
	p.Verdict = t.Conformance
	p.Failed = joinComma(t.Failed)
	var text string
	text, p.TransHref, p.Unavailable = m.transcript(p.Page, t)
	p.Transcript = transcriptLines(text)
	return p
}

// targetFacts are the rows of a target's facts table.
func (m *model) targetFacts(name string) []Fact {
	facts := []Fact{{Label: "target", Value: m.targetOf(name)}}
	if rt := m.runtimeOf(name); rt != "" {
		v := rt
		if m.runInfo != nil {
			if tv, ok := m.runInfo.Tools[rt]; ok && tv.Version != "" {
				v = tv.Version
			}
		}
		facts = append(facts, Fact{Label: "runtime", Value: v})
	}
	tools := map[string]bool{}
	for _, c := range m.cells {
		if c.Name != name {
			continue
		}
		for _, r := range c.Reps {
			tv := r.Tool
			if r.ToolVersion != "" {
				tv += " " + r.ToolVersion
			}
			tools[tv] = true
		}
	}
	for _, tv := range sortedKeys(tools) {
		facts = append(facts, Fact{Label: "load generator", Value: tv})
	}
	t := m.facts[name]
	if t == nil {
		return facts
	}
	src := ""
	if t.Source.File != "" {
		src = "from " + t.Source.File
	}
	return append(facts,
		Fact{Label: "build time", Value: Seconds(t.Build), Title: src},
		Fact{Label: "startup (spawn to first correct response)", Value: Seconds(t.Startup), Title: src},
		Fact{Label: "memory before / after load", Value: MemoryPair(t.RSSBefore, t.RSSAfter), Title: src},
		Fact{Label: "peak memory", Value: Bytes(t.RSSPeak), Title: src},
		Fact{Label: "artifact size", Value: Bytes(t.ArtifactBytes), Title: src},
	)
}

func (m *model) targetScenario(p Page, c *audit.Cell) TargetScenario {
	st := c.Stat(m.metric)
	ts := TargetScenario{
		ID:     m.links.scenario[c.Scenario],
		Name:   Link{Href: p.href(m.links.Scenario(c.Scenario)), Text: c.Scenario},
		Median: Count(st.Median) + " " + m.metric.String(),
		Tier:   "unranked",
		Badges: badges(p, m.cellFindings(c)),
	}
	if st.N > 1 {
		ts.CV = fmt.Sprintf("%.1f%%", st.CV*100)
	}
	if lo, hi, label := interval(st); label != "" && st.N > 1 {
		ts.Interval = fmt.Sprintf("%s %s–%s", label, Count(lo), Count(hi))
	}
	if r := m.ranks[c]; r.Ranked {
		ts.Tier = "rank " + rankText(r)
	}
	for i, rep := range c.Reps {
		row := RepRow{
			Rep:    strconv.Itoa(rep.Rep),
			Value:  Count(st.Values[i]),
			Good:   Count(c.GoodRPS.Values[i]),
			Mean:   Latency(rep.Latency.Mean),
			Errors: group(rep.Errors.Total()),
			Dump: Link{
				Href:  p.href(m.links.Dump(rep.Source)),
				Text:  dumpLabel(rep.Source),
				Title: "sha256 " + rep.Source.SHA256,
			},
			Command: argv(rep.Argv),
		}
		if rep.Rep == 0 {
			row.Rep = strconv.Itoa(i + 1)
		}
		ts.Reps = append(ts.Reps, row)
	}
	return ts
}

// dumpLabel is a dump's file name and lines, "1.txt:5–15".
func dumpLabel(src parse.Source) string {
	s := filepath.Base(src.File)
	switch {
	case src.LineStart > 0 && src.LineEnd > src.LineStart:
		s += fmt.Sprintf(":%d–%d", src.LineStart, src.LineEnd)
	case src.LineStart > 0:
		s += fmt.Sprintf(":%d", src.LineStart)
	}
	return s
}

// transcript reads a target's conformance transcript from its run dir.
func (m *model) transcript(p Page, t *parse.Target) (text, href, why string) {
	if t.Transcript == "" {
		return "", "", "The run recorded no conformance transcript for this target."
	}
	var run *parse.Run
	for _, r := range m.set.Runs {
		if r.ID == t.Run {
			run = r
		}
	}
	if run == nil || run.Path == "" || !filepath.IsLocal(filepath.FromSlash(t.Transcript)) {
		return "", "", "The transcript is not in the run dir."
	}
	b, err := os.ReadFile(filepath.Join(run.Path, filepath.FromSlash(t.Transcript)))
	if err != nil {
		return "", "", "The transcript could not be read: " + err.Error()
	}
	return string(b), p.href("raw/" + safePath(run.ID) + "/" + safePath(t.Transcript)), ""
}

func joinComma(xs []string) string {
	s := ""
	for i, x := range xs {
		if i > 0 {
			s += ", "
		}
		s += x
	}
	return s
}
