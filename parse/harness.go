package parse

import (
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// Harness files hold several tool runs and say things around them: the
// command line of each run, and facts about the target (bundle size,
// startup time, memory before and after). The shape followed here is
// bun-http-framework-benchmark's results/<runtime>/<framework>.txt:
//
//	Bundle: 160.8 KB                       current format (2025-)
//	Startup: 51.1 ms
//	Memory before: 37.0 MB
//
//	bombardier --fasthttp -c 500 -d 10s http://127.0.0.1:3000/
//	<bombardier's whole stdout>
//	…
//	Memory after: 45.7 MB
//
//	bombardier --fasthttp -c 500 -d 10s http://127.0.0.1:3000/    old format (-2024)
//	Reqs/sec    537823.18,537823.18
//
// Sizes there are 1024-based ("KB", "MB"), as the harness divides by 1024.

// context is what a dump says around tool runs. Blocks read it when they end.
type context struct {
	file  string
	cmd   *command // the last command line seen before a block
	order int      // blocks labelled so far
	facts targetFacts
	// bun is set for a results/<runtime>/<framework>.txt path.
	bun             bool
	runtime, target string
	post            postContext // titles and fences of a pasted post
}

func newContext(file string) context {
	c := context{file: file}
	c.runtime, c.target, c.bun = bunLayout(file)
	return c
}

// targetFacts are a harness's lines about the target.
type targetFacts struct {
	seen        bool
	first, last int
	artifact    int64
	startup     time.Duration
	before      int64
	after       int64
}

// startHarness reads command lines and target facts into the context. It
// never starts a block.
func startHarness(ctx *context, l line) block {
	t := l.trimmed()
	if argv, ok := parseCommand(t); ok {
		ctx.cmd = &command{line: l.num, argv: argv}
		return nil
	}
	key, val, ok := strings.Cut(t, ": ")
	if !ok {
		return nil
	}
	f := &ctx.facts
	var err error
	switch key {
	case "Bundle":
		f.artifact, err = harnessSize(val)
	case "Startup":
		var ok bool
		if f.startup, ok = duration(strings.ReplaceAll(val, " ", "")); !ok {
			err = fmt.Errorf("startup time %q is not a duration", val)
		}
	case "Memory before":
		f.before, err = harnessSize(val)
	case "Memory after":
		f.after, err = harnessSize(val)
	default:
		return nil
	}
	if err != nil {
		return &doneBlock{err: &SyntaxError{File: ctx.file, Line: l.num, Msg: err.Error()}}
	}
	if !f.seen {
		f.first = l.num
	}
	f.seen, f.last = true, l.num
	return nil
}

// harnessSize parses "160.8 KB", "1.2 MB" (1024-based) or "n/a" (0).
func harnessSize(s string) (int64, error) {
	if s == "n/a" {
		return 0, nil
	}
	v, ok := binaryBytes(strings.ReplaceAll(s, " ", ""))
	if !ok {
		return 0, fmt.Errorf("size %q is not a number of bytes", s)
	}
	return roundInt64(v), nil
}

// startBunOldLine reads the old harness format's one result line,
// "Reqs/sec    537823.18,537823.18" (the match and the group of its regular
// expression over bombardier's output), at column 0.
func startBunOldLine(ctx *context, l line) block {
	rest, ok := strings.CutPrefix(l.text, "Reqs/sec")
	if !ok {
		return nil
	}
	a, b, ok := strings.Cut(strings.TrimSpace(rest), ",")
	if !ok {
		return nil
	}
	x, okx := number(a)
	y, oky := number(b)
	if !okx || !oky {
		return &doneBlock{err: &SyntaxError{File: ctx.file, Line: l.num, Msg: fmt.Sprintf("harness result %q is not two numbers", rest)}}
	}
	m := &Measurement{Tool: ToolBombardier, ToolRPS: finite(x), Source: Source{LineStart: l.num, LineEnd: l.num}}
	if ctx.cmd != nil {
		m.Source.LineStart = ctx.cmd.line
	}
	if x != y {
		m.Warnings = append(m.Warnings, fmt.Sprintf("%s:%d: the harness printed two different req/s, %s and %s; kept the first", ctx.file, l.num, a, b))
	}
	return &doneBlock{recs: []Record{m}}
}

// doneBlock is a block read from one line.
type doneBlock struct {
	recs []Record
	err  error
}

func (b *doneBlock) add(line) (bool, error) { return false, nil }
func (b *doneBlock) end() ([]Record, error) { return b.recs, b.err }

// bunLayout reports the runtime and framework of a
// results/<runtime>/<framework>.txt path.
func bunLayout(file string) (runtime, target string, ok bool) {
	p := filepath.ToSlash(filepath.Clean(file))
	// p is …[/]results/<runtime>/<framework>.txt: cut at its last three slashes.
	last := strings.LastIndexByte(p, '/')
	if last < 0 {
		return "", "", false
	}
	mid := strings.LastIndexByte(p[:last], '/')
	if mid < 0 || p[strings.LastIndexByte(p[:mid], '/')+1:mid] != "results" {
		return "", "", false
	}
	base := p[last+1:]
	return p[mid+1 : last], strings.TrimSuffix(base, path.Ext(base)), true
}

// bunScenarios are the harness's requests, in the order it runs them.
var bunScenarios = []struct{ method, target, name string }{
	{"GET", "/", "ping"},
	{"GET", "/id/1?name=bun", "query"},
	{"POST", "/json", "body"},
	{"GET", "/video", "video"},
}

// bunScenario names a measurement's scenario from its request, or else
// from its position in the file.
func bunScenario(m *Measurement) string {
	if u, err := url.Parse(m.URL); err == nil && m.URL != "" {
		target := u.EscapedPath()
		if target == "" {
			target = "/"
		}
		if u.RawQuery != "" {
			target += "?" + u.RawQuery
		}
		for _, s := range bunScenarios {
			if s.target == target && (m.Method == "" || m.Method == s.method) {
				return s.name
			}
		}
		return ""
	}
	if m.Order >= 1 && m.Order <= len(bunScenarios) {
		return bunScenarios[m.Order-1].name
	}
	return ""
}

// label gives a measurement what the context knows: its position in the
// file, its command line, and for a harness file its target, runtime and
// scenario.
func (c *context) label(m *Measurement) {
	c.order++
	m.Order = c.order
	before := settingsBefore(m)
	if c.cmd != nil {
		c.cmd.apply(m)
		c.cmd.applySettings(m)
		if c.cmd.line < m.Source.LineStart {
			m.Source.LineStart = c.cmd.line
		}
	}
	settle(m, before, c.cmd)
	c.cmd = nil
	c.post.name(m)
	if c.bun {
		m.Target, m.Runtime = c.target, c.runtime
		if m.Scenario == "" {
			m.Scenario = bunScenario(m)
		}
	}
}

// end returns the target the harness lines described, if any.
func (c *context) end() []Record {
	f := c.facts
	if !f.seen {
		return nil
	}
	t := &Target{
		Startup:       f.startup,
		RSSBefore:     f.before,
		RSSAfter:      f.after,
		ArtifactBytes: f.artifact,
		Source:        Source{LineStart: f.first, LineEnd: f.last},
	}
	if c.bun {
		t.Name, t.Runtime = c.target, c.runtime
	} else {
		base := filepath.Base(c.file)
		t.Name = strings.TrimSuffix(base, filepath.Ext(base))
	}
	return []Record{t}
}
