package render

import (
	"strings"

	"github.com/fairbench/fairbench/parse"
)

// ConformancePage is who passed the gate in each run on show, who failed
// and what; each row links the run's own transcript, shown on the
// target's page (one page per target keeps every page light however many
// targets a run has) and published raw.
type ConformancePage struct {
	Page
	Rows []ConformanceRow
	None bool
}

// ConformanceRow is one target's gate in one run.
type ConformanceRow struct {
	Target     Link   // to the gate on the target's page
	Run, Suite string // when the run started (runStart), its suite
	Verdict    string
	Failed     string
	Raw        string // the raw transcript, "" when not published
	Why        string // why there is no transcript
}

// GateView is one run's conformance gate of a target, with its transcript.
type GateView struct {
	ID         string // anchors it on the target's page: "gate-<run>"
	Run, Suite string // when the run started (runStart), its suite
	Verdict    string // "pass", "fail" or ""
	Failed     string
	Transcript []TranscriptLine
	TransHref  string
	Why        string // why no transcript is shown
}

func (m *model) conformancePage() *ConformancePage {
	p := &ConformancePage{}
	p.Page = m.newPage("conformance", "conformance.html", "Conformance")
	var failed, passed []ConformanceRow
	for _, name := range m.names {
		for _, t := range m.gateTargets(name) {
			row := ConformanceRow{
				Target: Link{Href: m.links.Target(name) + "#" + gateID(t.Run), Text: name},
				Run:    m.runStart(t.Run), Suite: m.suiteName(t.Run),
				Verdict: t.Conformance, Failed: joinComma(t.Failed),
			}
			_, row.Raw, row.Why = m.transcriptRef(p.Page, t, false)
			if t.Conformance != "pass" {
				failed = append(failed, row)
			} else {
				passed = append(passed, row)
			}
		}
	}
	p.Rows = append(failed, passed...)
	p.None = len(p.Rows) == 0
	return p
}

// gateTargets are the facts of target name in every run on show that
// gated it, in the order of the runs.
func (m *model) gateTargets(name string) []*parse.Target {
	var out []*parse.Target
	target, runtime := m.targetOf(name), m.runtimeOf(name)
	for _, r := range m.runs {
		if !m.primary[r.ID] {
			continue
		}
		for _, t := range m.set.Targets {
			if t.Run == r.ID && t.Name == target && t.Conformance != "" && (t.Runtime == runtime || t.Runtime == "" || runtime == "") {
				out = append(out, t)
				break
			}
		}
	}
	return out
}

// gates are target name's gates, each with its own run's transcript.
func (m *model) gates(p Page, name string) []GateView {
	var out []GateView
	for _, t := range m.gateTargets(name) {
		g := GateView{ID: gateID(t.Run), Run: m.runStart(t.Run), Suite: m.suiteName(t.Run), Verdict: t.Conformance, Failed: joinComma(t.Failed)}
		var text string
		text, g.TransHref, g.Why = m.transcriptRef(p, t, true)
		g.Transcript = transcriptLines(text)
		out = append(out, g)
	}
	return out
}

// TranscriptLine is one line of a gate transcript, classed for colour:
// "req" (> sent), "resp" (< received), "pass", "fail", "head" (=== scenario).
type TranscriptLine struct {
	Class, Text string
}

// gateID anchors a run's gate on a target's page.
func gateID(run string) string { return "gate-" + slug(run) }

// transcriptLines classes each line of a transcript.
func transcriptLines(text string) []TranscriptLine {
	if text == "" {
		return nil
	}
	var out []TranscriptLine
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		class := ""
		switch {
		case strings.HasPrefix(l, "==="):
			class = "head"
		case strings.HasPrefix(l, ">"):
			class = "req"
		case strings.HasPrefix(l, "<"):
			class = "resp"
		case strings.HasPrefix(l, "PASS"):
			class = "pass"
		case strings.HasPrefix(l, "FAIL"), strings.HasPrefix(l, "-"), strings.HasPrefix(l, "+"), strings.HasPrefix(l, "want"), strings.HasPrefix(l, "got"):
			class = "fail"
		}
		out = append(out, TranscriptLine{Class: class, Text: l})
	}
	return out
}
