package tomlfile

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// keyLine is one key of a file: as TOML names it ("target.port"), as a
// path with array indexes ("target.2.port"), and its line.
type keyLine struct {
	key, path string
	line      int
}

// keyLines finds the line of every key the decoder saw. The decoder gives
// the keys in file order but not where they are, so each is looked for
// from where the one before it was found: a table header for a table, a
// "key =" (bare, quoted or dotted, at a line's start or in an inline
// table) for a value. Comment lines are skipped.
func keyLines(src []byte, md toml.MetaData) []keyLine {
	lines := strings.Split(string(src), "\n")
	counts := map[string]int{} // array of tables → tables so far
	var out []keyLine
	at := 0
	for _, k := range md.Keys() {
		name := k.String()
		isArray := md.Type(k...) == "ArrayHash"
		var pattern *regexp.Regexp
		if isArray || md.Type(k...) == "Hash" && isHeader(lines, at, k) {
			pattern = headerPattern(k)
		} else {
			pattern = keyPattern(k[len(k)-1])
		}
		for l := at; l < len(lines); l++ {
			t := strings.TrimSpace(lines[l])
			if strings.HasPrefix(t, "#") || !pattern.MatchString(lines[l]) {
				continue
			}
			at = l
			break
		}
		if isArray {
			counts[name]++
		}
		out = append(out, keyLine{key: name, path: indexed(k, counts), line: at + 1})
	}
	return out
}

// isHeader reports whether the next header-looking line from at names
// table k, telling [load] from load = { … }.
func isHeader(lines []string, at int, k toml.Key) bool {
	p := headerPattern(k)
	for l := at; l < len(lines); l++ {
		if p.MatchString(lines[l]) {
			return true
		}
		if keyPattern(k[len(k)-1]).MatchString(lines[l]) {
			return false
		}
	}
	return false
}

// indexed is k as a path, each array of tables in it followed by the
// number (from 1) of its current table.
func indexed(k toml.Key, counts map[string]int) string {
	var b strings.Builder
	for i, piece := range k {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(piece)
		if n := counts[k[:i+1].String()]; n > 0 {
			b.WriteString("." + strconv.Itoa(n))
		}
	}
	return b.String()
}

// headerPattern matches [a.b] or [[a.b]], spaces and quotes aside.
func headerPattern(k toml.Key) *regexp.Regexp {
	parts := make([]string, len(k))
	for i, piece := range k {
		parts[i] = `\s*["']?` + regexp.QuoteMeta(piece) + `["']?\s*`
	}
	return regexp.MustCompile(`^\s*\[\[?` + strings.Join(parts, `\.`) + `\]\]?`)
}

// keyPattern matches key = at a line's start, after a dot (a dotted key)
// or in an inline table.
func keyPattern(key string) *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[\s{,.])["']?` + regexp.QuoteMeta(key) + `["']?\s*=`)
}
