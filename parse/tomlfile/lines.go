package tomlfile

import (
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

// searchLines bounds the search for one key: keys come in file order, so
// the next is near; a key not found (written in a way the scan misses, as
// a quoted key with escapes) keeps the line before it, and a hostile file
// costs no more than this many lines a key.
const searchLines = 200

// sourceLine is what a line of the file may declare: a table header
// ("scenario.variant") and the keys assigned on it ("path", "method").
type sourceLine struct {
	header string
	keys   []string
}

// keyLines finds the line of every key the decoder saw. The decoder gives
// the keys in file order but not where they are, so each is looked for
// from where the one before it was found: a table header for a table, a
// "key =" (bare, quoted or dotted, at a line's start or in an inline
// table) for a value. Comment lines declare nothing.
func keyLines(src []byte, md toml.MetaData) []keyLine {
	text := strings.Split(string(src), "\n")
	lines := make([]sourceLine, len(text))
	for i, l := range text {
		lines[i] = scanLine(l)
	}
	counts := map[string]int{} // array of tables → tables so far
	var out []keyLine
	at := 0
	for _, k := range md.Keys() {
		name := k.String()
		typ := md.Type(k...)
		header := strings.Join(k, ".")
		asHeader := typ == "ArrayHash" || typ == "Hash" && nextIsHeader(lines, at, header, k[len(k)-1])
		for l := at; l < min(len(lines), at+searchLines); l++ {
			if asHeader && lines[l].header == header || !asHeader && lines[l].has(k[len(k)-1]) {
				at = l
				break
			}
		}
		if typ == "ArrayHash" {
			counts[name]++
		}
		out = append(out, keyLine{key: name, path: indexed(k, counts), line: at + 1})
	}
	return out
}

func (s sourceLine) has(key string) bool {
	for _, k := range s.keys {
		if k == key {
			return true
		}
	}
	return false
}

// nextIsHeader reports whether table k is written as a header ([load])
// rather than as a key (load = { … }): whichever comes first from at.
func nextIsHeader(lines []sourceLine, at int, header, key string) bool {
	for l := at; l < min(len(lines), at+searchLines); l++ {
		if lines[l].header == header {
			return true
		}
		if lines[l].has(key) {
			return false
		}
	}
	return false
}

// scanLine finds the header or the assigned keys of one line.
func scanLine(l string) sourceLine {
	t := strings.TrimSpace(l)
	if strings.HasPrefix(t, "#") {
		return sourceLine{}
	}
	if strings.HasPrefix(t, "[") {
		if end := strings.Index(t, "]"); end > 0 && !strings.Contains(t[:end], "=") {
			name := strings.Trim(t[:end], "[ \t")
			parts := strings.Split(name, ".")
			for i, p := range parts {
				parts[i] = strings.Trim(strings.TrimSpace(p), `"'`)
			}
			return sourceLine{header: strings.Join(parts, ".")}
		}
	}
	var s sourceLine
	for i := 0; i < len(l); i++ {
		if l[i] == '=' {
			if k := keyBefore(l[:i]); k != "" {
				s.keys = append(s.keys, k)
			}
		}
	}
	return s
}

// keyBefore is the key that ends just before an '=' (spaces and a closing
// quote aside), if what precedes it can start a key: the line's start, a
// space, '{', ',', '.' or an opening quote.
func keyBefore(s string) string {
	s = strings.TrimRight(s, " \t")
	if strings.HasSuffix(s, `"`) || strings.HasSuffix(s, "'") {
		q := s[len(s)-1:]
		s = s[:len(s)-1]
		open := strings.LastIndex(s, q)
		if open < 0 {
			return ""
		}
		return s[open+1:]
	}
	end := len(s)
	start := end
	for start > 0 && isBareKeyChar(s[start-1]) {
		start--
	}
	if start == end {
		return ""
	}
	if start > 0 && !strings.ContainsRune(" \t{,.\"'", rune(s[start-1])) {
		return ""
	}
	return s[start:end]
}

func isBareKeyChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
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
