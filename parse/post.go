package parse

import (
	"bytes"
	"strings"
)

// Posts and READMEs paste tool output among prose: several runs in one
// file, each introduced by a line that names it, often inside Markdown code
// fences after a shell prompt and the command line:
//
//	## Full Results                                 a heading names the runs below it
//	🔬 Benchmarking Hono at http://localhost:3003    a script's line names the next run (and its URL)
//	- **Express**:                                  so does a list item
//	```console                                      a fence ends any run it interrupts
//	$ wrk -t2 -c64 -d3s http://127.0.0.1:3101/      the command line (command.go), which
//	                                                may go on over lines ending in "\"
//
// A heading stays the name until the next heading; a "Benchmarking" line or
// a list item overrides it until the next such line, or until prose comes
// between it and a run. Lines inside a fence are output, not Markdown: a
// shell comment there is not a heading.

// postTitle is one line that names runs.
type postTitle struct {
	text string // the line as printed, trimmed
	line int
	name string // what it names, without Markdown marks
	url  string // the URL a "Benchmarking X at URL" line gives, else ""
}

// postContext is what a post has said outside the runs so far.
type postContext struct {
	heading postTitle // the last Markdown heading outside a fence
	item    postTitle // the last "Benchmarking" line or list item, until prose
	inFence bool
}

// title returns the line that names the next run, if any.
func (p *postContext) title() (postTitle, bool) {
	if p.item.line > 0 {
		return p.item, true
	}
	return p.heading, p.heading.line > 0
}

// prose notes a line that is neither a run, a command nor a title: it
// separates a list item or a "Benchmarking" line from what follows.
func (p *postContext) prose() { p.item = postTitle{} }

// continuing reports whether the last command line ended in a backslash,
// so that the next line goes on with it.
func (c *context) continuing() bool {
	return c.cmd != nil && len(c.cmd.argv) > 0 && c.cmd.argv[len(c.cmd.argv)-1] == `\`
}

// see reads a line outside any run: a command line's continuation, a
// fence or a title. It reports true for a line that is nothing else.
func (c *context) see(l line) bool {
	if c.continuing() {
		c.cmd.argv = append(c.cmd.argv[:len(c.cmd.argv)-1], shellWords(l.trimmed())...)
		return true
	}
	return c.post.see(l)
}

// see reads a line outside any run. It reports true for a fence line,
// which is nothing else.
func (p *postContext) see(l line) bool {
	t := l.trimmed()
	if isFence(t) {
		p.inFence = !p.inFence
		return true
	}
	if name, url, ok := benchmarkingLine(t); ok {
		p.item = postTitle{text: t, line: l.num, name: name, url: url}
		return false
	}
	if p.inFence {
		return false
	}
	if name, ok := headingLine(t); ok {
		p.heading = postTitle{text: t, line: l.num, name: name}
		p.item = postTitle{}
		return false
	}
	if name, ok := listItem(t); ok {
		if _, cmd := parseCommand(t); !cmd {
			p.item = postTitle{text: t, line: l.num, name: name}
		}
	}
	return false
}

// isFence reports whether a trimmed line opens or closes a Markdown code
// fence: three or more backticks or tildes, then an optional info string.
func isFence(t string) bool {
	return strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
}

// mayName reports whether a trimmed line may be a fence, a title or a
// pasted table, for mayStart: its first byte, or the word "Benchmarking".
func mayName(t []byte) bool {
	switch t[0] {
	case '`', '~', '#', '-', '*', '+', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9',
		'|', 0xe2: // a table's border or row: "|", "+", "┌", "│"
		return true
	}
	return bytes.Contains(t, benchmarkingWord)
}

var benchmarkingWord = []byte("Benchmarking ")

// benchmarkingLine reads a benchmark script's "🔬 Benchmarking Hono at
// http://localhost:3003" (anything may come before the word): the name and,
// when the line gives one, the URL.
func benchmarkingLine(t string) (name, url string, ok bool) {
	i := strings.Index(t, string(benchmarkingWord))
	if i < 0 {
		return "", "", false
	}
	rest := strings.TrimSpace(t[i+len(benchmarkingWord):])
	if j := strings.LastIndex(rest, " at "); j >= 0 && strings.Contains(rest[j:], "://") {
		rest, url = rest[:j], strings.TrimRight(strings.TrimSpace(rest[j+len(" at "):]), ".:…")
	}
	name = plainName(strings.TrimRight(rest, ".:…"))
	return name, url, name != ""
}

// headingLine reads an ATX heading ("### Hono"), but not autocannon's
// "# of samples: 10".
func headingLine(t string) (string, bool) {
	n := 0
	for n < len(t) && t[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || n == len(t) || t[n] != ' ' || strings.HasPrefix(t, "# of samples") {
		return "", false
	}
	name := plainName(strings.TrimRight(strings.TrimSpace(t[n:]), "# "))
	return name, name != ""
}

// listItem reads a Markdown list item ("- **Express**:", "2. Fastify").
func listItem(t string) (string, bool) {
	rest := ""
	switch {
	case len(t) > 2 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && t[1] == ' ':
		rest = t[2:]
	default:
		n := 0
		for n < len(t) && n < 9 && t[n] >= '0' && t[n] <= '9' {
			n++
		}
		if n == 0 || n+1 >= len(t) || (t[n] != '.' && t[n] != ')') || t[n+1] != ' ' {
			return "", false
		}
		rest = t[n+2:]
	}
	name := plainName(rest)
	return name, name != ""
}

// plainName drops Markdown emphasis and code marks and a trailing colon.
func plainName(s string) string {
	s = strings.NewReplacer("**", "", "__", "", "`", "").Replace(s)
	s = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(s), ":"))
	return strings.Trim(s, "*_ ")
}

// name labels a measurement from the post's title line, if any: its title,
// its target where nothing else named one, and its URL where neither the
// tool nor a command line gave one.
func (p *postContext) name(m *Measurement) {
	t, ok := p.title()
	if !ok {
		return
	}
	m.Title, m.TitleLine = t.text, t.line
	if m.Target == "" {
		m.Target = t.name
	}
	if m.URL == "" && t.url != "" {
		m.URL = t.url
		m.Settings.URL = FromTitle
	}
}
