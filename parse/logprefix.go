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
		if i := bytes.Index(text, composeBar); i > 0 && containerName(bytes.TrimRight(text[:i], " ")) {
			return nil, false
		}
		return text, true
	}
	i := bytes.Index(text, composeBar)
	if i <= 0 || !containerName(bytes.TrimRight(text[:i], " ")) {
		return text, true
	}
	rest := text[i+len(composeBar):]
	if !startsRun(bytes.TrimSpace(rest)) {
		return text, true
	}
	p.prefix = append([]byte(nil), text[:i+len(composeBar)]...)
	return rest, true
}

// containerName reports whether b looks like a compose service name.
func containerName(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for i, c := range b {
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || c != '_' && c != '-' && c != '.') {
			return false
		}
	}
	return true
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
