package parse

import (
	"path"
	"strconv"
	"strings"
	"time"
)

// command is a load generator's command line found in a dump: harnesses and
// people pasting their terminal print it before the tool's output.
type command struct {
	line int
	argv []string // from the tool's name on
}

// toolNames are the executables whose command lines are recognised.
var toolNames = map[string]string{
	"wrk": ToolWrk, "wrk2": ToolWrk2, "bombardier": ToolBombardier, "autocannon": ToolAutocannon,
	"vegeta": ToolVegeta,
}

// parseCommand finds a load generator command in a line, after any prompt
// ("$ ", "> ", "➜  repo git:(main) ✗ ", "PS C:\x> "). It needs a flag or a
// URL after the tool's name, so that prose mentioning "wrk" is not a command.
func parseCommand(text string) ([]string, bool) {
	if !mayBeCommand(text) {
		return nil, false
	}
	if !strings.Contains(text, "wrk") && !strings.Contains(text, "bombardier") && !strings.Contains(text, "autocannon") &&
		!strings.Contains(text, "vegeta") {
		return nil, false
	}
	words := shellWords(text)
	for i, w := range words {
		if _, ok := toolNames[path.Base(w)]; !ok {
			continue
		}
		for _, a := range words[i+1:] {
			if strings.HasPrefix(a, "-") || strings.Contains(a, "://") {
				return words[i:], true
			}
		}
		return nil, false
	}
	return nil, false
}

// mayBeCommand reports whether text may hold what parseCommand needs after
// the tool's name: a word that starts with '-' or holds "://". Most lines
// of a tool's output have neither, and a few byte searches tell so sooner
// than looking for the tool names. Quotes, which shellWords removes when it
// joins words, are left to parseCommand.
func mayBeCommand(text string) bool {
	dash, colon := strings.IndexByte(text, '-'), strings.IndexByte(text, ':')
	if dash < 0 && colon < 0 {
		return false
	}
	if strings.IndexByte(text, '\'') >= 0 || strings.IndexByte(text, '"') >= 0 {
		return true
	}
	for dash >= 0 {
		if dash == 0 || isBlank(text[dash-1]) {
			return true // a flag
		}
		next := strings.IndexByte(text[dash+1:], '-')
		if next < 0 {
			break
		}
		dash += next + 1
	}
	return colon >= 0 && strings.Contains(text[colon:], "://")
}

// shellWords splits a command line on blanks, honouring single and double
// quotes the way a POSIX shell would for plain words.
func shellWords(s string) []string {
	if !strings.ContainsAny(s, `'"`) {
		return blankFields(s)
	}
	var words []string
	var cur strings.Builder
	in := false
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(c)
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\t':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words
}

// blankFields splits s around runs of spaces and tabs, as
// strings.FieldsFunc would with a function reporting those two. Both are
// single bytes that no multi-byte character holds, so bytes are compared.
func blankFields(s string) []string {
	n := 0
	for i := 0; i < len(s); i++ {
		if !isBlank(s[i]) && (i == 0 || isBlank(s[i-1])) {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	words := make([]string, 0, n)
	start := -1
	for i := 0; i <= len(s); i++ {
		switch {
		case i < len(s) && !isBlank(s[i]):
			if start < 0 {
				start = i
			}
		case start >= 0:
			words = append(words, s[start:i])
			start = -1
		}
	}
	return words
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// tool is the dialect the command runs.
func (c *command) tool() string { return toolNames[path.Base(c.argv[0])] }

// flag returns the value of the first of names present ("-c 10", "-c10",
// "--connections=10"), and whether one was.
func (c *command) flag(names ...string) (string, bool) {
	for i := 1; i < len(c.argv); i++ {
		a := c.argv[i]
		for _, n := range names {
			switch {
			case a == n && i+1 < len(c.argv):
				return c.argv[i+1], true
			case strings.HasPrefix(n, "--") && len(a) > len(n) && a[len(n)] == '=' && strings.HasPrefix(a, n):
				return a[len(n)+1:], true
			case len(n) == 2 && len(a) > 2 && strings.HasPrefix(a, n) && a[2] != '-' && !strings.HasPrefix(a, "--"):
				return a[2:], true
			}
		}
	}
	return "", false
}

// url is the first argument that looks like a URL.
func (c *command) url() string {
	for _, a := range c.argv[1:] {
		if strings.Contains(a, "://") {
			return a
		}
	}
	return ""
}

// method is the HTTP method the command asks for; "GET" when it sets none,
// except for wrk, whose method a Lua script may change.
func (c *command) method() string {
	if m, ok := c.flag("-m", "--method"); ok {
		return strings.ToUpper(m)
	}
	if c.tool() == ToolWrk || c.tool() == ToolWrk2 {
		return ""
	}
	return "GET"
}

// window is the requested duration (-d): a Go or wrk duration ("10s", "1m"),
// or plain seconds (autocannon).
func (c *command) window() time.Duration { return c.durationFlag("-d", "--duration") }

// timeout is bombardier's and autocannon's request timeout (-t), as window
// reads it; 0 when not given. (wrk's -t is its threads: windowProblem does
// not ask wrk for a timeout.)
func (c *command) timeout() time.Duration { return c.durationFlag("-t", "--timeout") }

// durationFlag is the value of the first of names as a duration, 0 when
// none is given or it is not one.
func (c *command) durationFlag(names ...string) time.Duration {
	d, ok := c.flag(names...)
	if !ok {
		return 0
	}
	if numberEnd(d) {
		if n, err := strconv.ParseFloat(d, 64); err == nil {
			return seconds(n) // autocannon's plain seconds
		}
	}
	if w, err := time.ParseDuration(d); err == nil {
		return w
	}
	if w, ok := duration(d); ok {
		return w
	}
	return 0
}

// apply fills what the dump itself did not say from the command line.
func (c *command) apply(m *Measurement) {
	if m.Argv == nil {
		m.Argv = c.argv
	}
	if c.tool() == ToolVegeta {
		c.applyVegeta(m) // its flags are not wrk's
		return
	}
	if m.URL == "" {
		m.URL = c.url()
	}
	if m.Method == "" {
		m.Method = c.method()
	}
	if w := c.window(); w > 0 {
		m.Window = w // exact, where the tool's header rounds ("Running 2m test" for 90s)
	}
	if m.Connections == 0 {
		if v, ok := c.flag("-c", "--connections"); ok {
			n, _ := strconv.Atoi(v)
			m.Connections = n
		}
	}
	if m.Rate == 0 {
		var v string
		var ok bool
		switch c.tool() {
		case ToolWrk, ToolWrk2:
			v, ok = c.flag("-R", "--rate")
		case ToolBombardier:
			v, ok = c.flag("-r", "--rate")
		}
		if ok {
			m.Rate, _ = strconv.ParseFloat(v, 64)
		}
	}
}
