package render

import "strings"

// ConformancePage is who passed the gate, who failed, and the transcripts
// that show the bytes each target answered.
type ConformancePage struct {
	Page
	Rows []ConformanceRow
	None bool
}

// ConformanceRow is one target's gate verdict with its transcript.
type ConformanceRow struct {
	Target     Link
	Verdict    string
	Failed     string
	Transcript []TranscriptLine
	Raw        string
	Open       bool
	Why        string
}

// TranscriptLine is one line of a gate transcript, classed for colour:
// "req" (> sent), "resp" (< received), "pass", "fail", "head" (=== scenario).
type TranscriptLine struct {
	Class, Text string
}

func (m *model) conformancePage() *ConformancePage {
	p := &ConformancePage{}
	p.Page = m.newPage("conformance", "conformance.html", "Conformance")
	var failed, passed []ConformanceRow
	for _, name := range m.names {
		t := m.facts[name]
		if t == nil || t.Conformance == "" {
			continue
		}
		row := ConformanceRow{
			Target:  Link{Href: m.links.Target(name), Text: name},
			Verdict: t.Conformance, Failed: joinComma(t.Failed),
			Open: t.Conformance != "pass",
		}
		var text string
		text, row.Raw, row.Why = m.transcript(p.Page, t)
		row.Transcript = transcriptLines(text)
		if row.Open {
			failed = append(failed, row)
		} else {
			passed = append(passed, row)
		}
	}
	p.Rows = append(failed, passed...)
	p.None = len(p.Rows) == 0
	return p
}

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
