package render

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/rundir"
)

// DumpPage shows one raw dump with numbered, linkable lines; the lines each
// measurement was read from are marked, with the command that wrote them.
type DumpPage struct {
	Page
	File, SHA256, Size string
	Raw                string
	Changed            bool // the file's sha256 is not the one recorded
	Records            []DumpRecord
	Lines              []DumpLine
}

// DumpRecord is one measurement read from the dump.
type DumpRecord struct {
	What, Lines, Command, Value string
	Href                        string
}

// DumpLine is one line; Cut counts the bytes left out of a very long line
// (the raw file has them).
type DumpLine struct {
	N    int
	Text string
	Mark bool
	Cut  int
}

const maxLineShown = 4000

// dumpFiles are the source files that get a dump page: those of the
// primary run's measurements, warm-ups included, sorted.
func (m *model) dumpFiles() map[string][]*parse.Measurement {
	files := map[string][]*parse.Measurement{}
	for _, meas := range m.set.Measurements {
		if m.primary[meas.Run] && meas.Source.File != "" && m.links.raw[meas.Source.File] != "" {
			files[meas.Source.File] = append(files[meas.Source.File], meas)
		}
	}
	return files
}

// dumpPage is the page of the dump file, whose bytes are b.
func (m *model) dumpPage(file string, b []byte, ms []*parse.Measurement) *DumpPage {
	rel := m.links.raw[file]
	p := &DumpPage{File: file, Size: Bytes(int64(len(b)))}
	p.Page = m.newPage("dump", "dump/"+rel+".html", "Dump "+rel)
	p.SHA256 = rundir.SHA256(b)
	p.Raw = p.href("raw/" + inertName(rel))
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].Source.LineStart < ms[j].Source.LineStart })
	marked := map[int]bool{}
	for _, meas := range ms {
		if meas.Source.SHA256 != "" && meas.Source.SHA256 != p.SHA256 {
			p.Changed = true
		}
		what := fmt.Sprintf("%s / %s rep %d", meas.Target, meas.Scenario, meas.Rep)
		if meas.Warmup {
			what += " (warm-up, not counted)"
		}
		rec := DumpRecord{
			What: what, Command: argv(meas.Argv),
			Value: fmt.Sprintf("%s req/s as printed; %s requests", Count(meas.ToolRPS), group(meas.Requests)),
			Href:  fmt.Sprintf("#L%d", max(1, meas.Source.LineStart)),
		}
		if meas.Source.LineStart > 0 {
			rec.Lines = fmt.Sprintf("lines %d–%d", meas.Source.LineStart, meas.Source.LineEnd)
			for l := meas.Source.LineStart; l <= max(meas.Source.LineStart, meas.Source.LineEnd); l++ {
				marked[l] = true
			}
		}
		p.Records = append(p.Records, rec)
	}
	text := strings.TrimSuffix(string(b), "\n")
	for i, line := range strings.Split(text, "\n") {
		dl := DumpLine{N: i + 1, Mark: marked[i+1]}
		line = strings.TrimSuffix(line, "\r")
		if len(line) > maxLineShown {
			cut := maxLineShown
			for cut > 0 && !utf8.RuneStart(line[cut]) {
				cut--
			}
			dl.Cut = len(line) - cut
			line = line[:cut]
		}
		dl.Text = string(bytes.ToValidUTF8([]byte(line), []byte("\uFFFD")))
		p.Lines = append(p.Lines, dl)
	}
	return p
}
