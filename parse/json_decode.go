package parse

import (
	"strconv"
	"unicode/utf8"
)

// The JSON dialects are decoded twice over: first by jsonReader, a strict
// reader without reflection that knows only the documents the tools write,
// and, when it gives up, by encoding/json. jsonReader gives up on anything
// it does not expect (an escape, a value of another type than the field's,
// a key given twice, a key that only matches a field when case is ignored,
// deep nesting, text after the document), so that what is accepted, what
// is decoded and every error message stay those of encoding/json.
// FuzzJSONDecode checks the two against each other.

// jsonMaxDepth bounds the nesting jsonReader skips; deeper documents are
// left to encoding/json.
const jsonMaxDepth = 64

// jsonReader reads one JSON document. ok turns false, for good, at the
// first thing it does not handle.
type jsonReader struct {
	b  []byte
	i  int
	ok bool
}

func newJSONReader(doc []byte) *jsonReader { return &jsonReader{b: doc, ok: true} }

// done reports whether the document was read whole: one value, then only
// white space.
func (d *jsonReader) done() bool {
	d.space()
	return d.ok && d.i == len(d.b)
}

func (d *jsonReader) space() {
	b, i := d.b, d.i
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	d.i = i
}

// next returns the next byte after white space, 0 at the end.
func (d *jsonReader) next() byte {
	d.space()
	if d.i < len(d.b) {
		return d.b[d.i]
	}
	return 0
}

// eat consumes c if it comes next.
func (d *jsonReader) eat(c byte) bool {
	if d.ok && d.next() == c {
		d.i++
		return true
	}
	return false
}

// object calls member with each key of an object, for it to read the value.
func (d *jsonReader) object(member func(key []byte)) {
	if !d.eat('{') {
		d.ok = false
		return
	}
	if d.eat('}') {
		return
	}
	for d.ok {
		key := d.rawString()
		if !d.eat(':') {
			d.ok = false
			return
		}
		member(key)
		if d.eat(',') {
			continue
		}
		if !d.eat('}') {
			d.ok = false
		}
		return
	}
}

// array calls elem for each element of an array, for it to read it.
func (d *jsonReader) array(elem func()) {
	if !d.eat('[') {
		d.ok = false
		return
	}
	if d.eat(']') {
		return
	}
	for d.ok {
		elem()
		if d.eat(',') {
			continue
		}
		if !d.eat(']') {
			d.ok = false
		}
		return
	}
}

// rawString reads a string without escapes or control characters and
// returns its bytes, unquoted.
func (d *jsonReader) rawString() []byte {
	if !d.eat('"') {
		d.ok = false
		return nil
	}
	b, start := d.b, d.i
	for i := start; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			d.i = i + 1
			return b[start:i]
		case c == '\\' || c < ' ':
			d.ok = false
			return nil
		}
	}
	d.ok = false
	return nil
}

// str reads a string value. Invalid UTF-8, which encoding/json would
// replace, gives up.
func (d *jsonReader) str() string {
	raw := d.rawString()
	if !d.ok || !utf8.Valid(raw) {
		d.ok = false
		return ""
	}
	return string(raw)
}

// string reads a string into v; null leaves v alone.
func (d *jsonReader) string(v *string) {
	if !d.null() {
		*v = d.str()
	}
}

// null consumes a null if it comes next.
func (d *jsonReader) null() bool {
	if d.next() == 'n' && d.literal("null") {
		return true
	}
	return false
}

// literal consumes word, reporting whether it came next.
func (d *jsonReader) literal(word string) bool {
	if len(d.b)-d.i >= len(word) && string(d.b[d.i:d.i+len(word)]) == word {
		d.i += len(word)
		return true
	}
	return false
}

// number reads a number as JSON spells it and returns its text.
func (d *jsonReader) number() []byte {
	d.space()
	b, start := d.b, d.i
	end := jsonNumberEnd(b, start)
	if end < 0 {
		d.ok = false
		return nil
	}
	d.i = end
	return b[start:end]
}

// jsonNumberEnd returns where the JSON number at b[i:] ends, or -1 if there is
// none: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func jsonNumberEnd(b []byte, i int) int {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digitsEnd(b, i)
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		if j := digitsEnd(b, i+1); j > i+1 {
			i = j
		} else {
			return -1
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digitsEnd(b, i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

// digitsEnd returns where the run of digits at b[i:] ends.
func digitsEnd(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

// float reads a number into a float64 as encoding/json would; null leaves
// v alone.
func (d *jsonReader) float(v *float64) {
	if d.null() {
		return
	}
	if f, ok := jsonFloat(d.number()); ok && d.ok {
		*v = f
		return
	}
	d.ok = false
}

// jsonFloat converts a valid JSON number as strconv.ParseFloat does,
// without making a string of it when it is a plain decimal.
func jsonFloat(num []byte) (float64, bool) {
	if f, ok := exactDecimal(num, 0); ok {
		return f, true
	}
	f, err := strconv.ParseFloat(string(num), 64)
	return f, err == nil
}

// int64 reads an integer into v as encoding/json would; null leaves v
// alone, and a fraction or exponent, which encoding/json refuses for an
// integer field, gives up.
func (d *jsonReader) int64(v *int64) {
	if d.null() {
		return
	}
	num := d.number()
	n, ok := jsonInt(num)
	if !ok || !d.ok {
		d.ok = false
		return
	}
	*v = n
}

// int reads an integer into v as int64 does, within int's range.
func (d *jsonReader) int(v *int) {
	n := int64(*v)
	d.int64(&n)
	if int64(int(n)) != n {
		d.ok = false
		return
	}
	*v = int(n)
}

// jsonInt converts a valid JSON number that is an integer within int64.
func jsonInt(num []byte) (int64, bool) {
	neg := len(num) > 0 && num[0] == '-'
	digits := num
	if neg {
		digits = num[1:]
	}
	if len(digits) == 0 || len(digits) > 18 {
		n, err := strconv.ParseInt(string(num), 10, 64)
		return n, err == nil
	}
	var n int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// skip reads any value and drops it. Strings with escapes give up, as do
// values nested deeper than jsonMaxDepth.
func (d *jsonReader) skip(depth int) {
	if depth > jsonMaxDepth {
		d.ok = false
		return
	}
	switch d.next() {
	case '{':
		d.object(func([]byte) { d.skip(depth + 1) })
	case '[':
		d.array(func() { d.skip(depth + 1) })
	case '"':
		d.rawString()
	case 't':
		d.ok = d.ok && d.literal("true")
	case 'f':
		d.ok = d.ok && d.literal("false")
	case 'n':
		d.ok = d.ok && d.literal("null")
	default:
		d.number()
	}
}

// jsonFields tells the keys of one JSON object apart for a struct that
// encoding/json would decode it into: each field's key, in its exact
// spelling, at most once. A key given twice, or one that encoding/json
// would match to a field only when ignoring case, makes the reader give up.
type jsonFields struct {
	d     *jsonReader
	names []string
	seen  uint64
}

func (d *jsonReader) fields(names []string) jsonFields { return jsonFields{d: d, names: names} }

// field returns the name key matches, or "" for a key the struct does not
// have.
func (f *jsonFields) field(key []byte) string {
	for i, n := range f.names {
		if string(key) == n {
			if f.seen&(1<<i) != 0 {
				f.d.ok = false
			}
			f.seen |= 1 << i
			return n
		}
	}
	for _, c := range key {
		if c >= utf8.RuneSelf {
			f.d.ok = false // Unicode case folding: "ſpec" is "spec" to encoding/json
			return ""
		}
	}
	for _, n := range f.names {
		if foldEqual(key, n) {
			f.d.ok = false
		}
	}
	return ""
}

// foldEqual reports whether ASCII key equals name when case is ignored.
func foldEqual(key []byte, name string) bool {
	if len(key) != len(name) {
		return false
	}
	for i, a := range key {
		b := name[i]
		if a == b {
			continue
		}
		if lower := a | 0x20; lower != b|0x20 || lower < 'a' || lower > 'z' {
			return false
		}
	}
	return true
}
