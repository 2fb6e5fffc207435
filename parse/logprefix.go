package parse

import "bytes"

// logPrefix removes the prefix that docker compose puts before each line of
// a container's output ("bench_1        | Running 5s test @ …"). The prefix
// is learnt from the first prefixed line whose rest starts a tool run; from
// then on it is cut from every line that carries it, and the lines of other
// containers, which compose interleaves, are dropped.
type logPrefix struct {
	prefix []byte // "bench_1        | ", nil until learnt
}

var composeBar = []byte(" | ")

// strip returns text without the learnt prefix, and keep = false for a
// line of another container.
func (p *logPrefix) strip(text []byte) (out []byte, keep bool) {
	if p.prefix != nil {
		if rest, ok := bytes.CutPrefix(text, p.prefix); ok {
			return rest, true
		}
		// An empty line of the container is "bench_1        |".
		if bytes.Equal(text, bytes.TrimRight(p.prefix, " ")) {
			return nil, true
		}
		if _, ok := composePrefix(text); ok {
			return nil, false
		}
		return text, true
	}
	n, ok := composePrefix(text)
	if !ok || !startsRun(bytes.TrimSpace(text[n:])) {
		return text, true
	}
	p.prefix = append([]byte(nil), text[:n]...)
	return text[n:], true
}

// composePrefix returns the length of the prefix docker compose puts before
// a container's line: a service name, blanks, a bar and a blank. It reads
// the line from its start, so that a line without one, nearly every line,
// is told apart in a few bytes.
func composePrefix(text []byte) (int, bool) {
	name := 0
	for name < len(text) && nameByte(text[name], name == 0) {
		name++
	}
	bar := name
	for bar < len(text) && text[bar] == ' ' {
		bar++
	}
	if name == 0 || bar == name || bar+1 >= len(text) || text[bar] != '|' || text[bar+1] != ' ' {
		return 0, false
	}
	return bar + 2, true
}

// nameByte reports whether c may be in a compose service name: a letter or
// digit, or after the first one also _ - or .
func nameByte(c byte, first bool) bool {
	alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	return alnum || !first && (c == '_' || c == '-' || c == '.')
}

// startsRun reports whether a trimmed line opens a tool run.
func startsRun(t []byte) bool {
	for _, p := range []string{"Running ", "Bombarding ", "Statistics ", `{"spec"`, `{"url"`, `{"title"`} {
		if bytes.HasPrefix(t, []byte(p)) {
			return true
		}
	}
	return false
}
