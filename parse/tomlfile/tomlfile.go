// Package tomlfile reads fairbench's TOML inputs (suites, hosts files,
// site.toml) the one way: bounded in size, regular files only, decoded
// with github.com/BurntSushi/toml, every error as file:line: key: message.
// It checks no meaning; its callers do, and find the line of what they
// refuse with File.Line.
package tomlfile

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/fairbench/fairbench/parse/rundir"

	"github.com/BurntSushi/toml"
)

// maxUnknown is how many unknown keys an error lists before it counts the rest.
const maxUnknown = 20

// MaxBytes is the largest TOML file fairbench reads: a suite of a hundred
// targets is some 20 KiB.
const MaxBytes = 1 << 20

// Read reads a TOML file of at most MaxBytes. Devices, FIFOs, sockets and
// folders are refused before a byte is read, so /dev/zero or a pipe
// cannot make it wait or grow.
func Read(path string) ([]byte, error) {
	b, err := ReadRegular(path, MaxBytes)
	if errors.Is(err, errTooBig) {
		return nil, fmt.Errorf("%s: over the %d KiB limit of a TOML file: is it the right file?", path, MaxBytes>>10)
	}
	return b, err
}

var errTooBig = errors.New("over the limit")

// ReadRegular reads a regular file of at most limit bytes (a suite's body
// files) through rundir's opener, refusing other kinds of file before a
// byte is read.
func ReadRegular(path string, limit int64) ([]byte, error) {
	b, err := rundir.ReadRegular(path, limit)
	var re *rundir.RefusedError
	switch {
	case errors.As(err, &re) && re.Rule == rundir.RuleNotRegular:
		return nil, fmt.Errorf("%s: not a regular file (%s)", path, rundir.FileType(re.Mode))
	case errors.As(err, &re) && re.Rule == rundir.RuleSize:
		return nil, fmt.Errorf("%s: %w of %d bytes", path, errTooBig, limit)
	}
	return b, err
}

// File is a decoded TOML file: its name, its bytes and where each key is.
type File struct {
	Name string
	Src  []byte
	// lines maps key paths to their lines. Arrays of tables count from 1
	// ("target.2.port"); a nested array counts across its parents
	// ("scenario.3.variant.5" is the fifth [[scenario.variant]] of the file).
	lines map[string]int
	order []keyLine // every key in file order
}

// Decode decodes src into v. Keys v has no field for are errors at their
// lines; so is a value of the wrong type, or one a field's UnmarshalText
// refuses. hint is added to the unknown-key message (where to read what
// the keys are).
func Decode(name string, src []byte, v any, hint string) (*File, error) {
	if len(src) > MaxBytes {
		return nil, fmt.Errorf("%s: over the %d KiB limit of a TOML file", name, MaxBytes>>10)
	}
	md, err := toml.NewDecoder(strings.NewReader(string(src))).Decode(v)
	f := &File{Name: name, Src: src}
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			msg := oneLine(pe.Message) // it may quote the raw input, newlines and all
			if pe.LastKey != "" {
				return nil, fmt.Errorf("%s:%d: %s: %s", name, max(pe.Position.Line, 1), lastKey(pe.LastKey), msg)
			}
			return nil, fmt.Errorf("%s:%d: %s", name, max(pe.Position.Line, 1), msg)
		}
		if m := typeError.FindStringSubmatch(err.Error()); m != nil {
			return nil, fmt.Errorf("%s:%s: %s: %s", name, m[1], lastKey(m[2]), oneLine(m[3]))
		}
		return nil, fmt.Errorf("%s: %s", name, oneLine(err.Error()))
	}
	f.order = keyLines(src, md)
	if err := f.shapes(reflect.TypeOf(v), md); err != nil {
		return nil, err
	}
	f.lines = make(map[string]int, len(f.order))
	for _, e := range f.order {
		if _, ok := f.lines[e.path]; !ok {
			f.lines[e.path] = e.line
		}
	}
	var errs []error
	byKey := map[string][]int{}
	for _, e := range f.order {
		byKey[e.key] = append(byKey[e.key], e.line)
	}
	undecoded := md.Undecoded()
	unknown := make(map[string]bool, len(undecoded))
	for _, k := range undecoded {
		unknown[k.String()] = true
	}
	more := 0
	for _, k := range undecoded {
		if parentUnknown(k, unknown) {
			continue // the unknown table is named once, not each of its keys
		}
		line := lineOfKey(k, byKey)
		if len(errs) < maxUnknown {
			errs = append(errs, fmt.Errorf("%s:%d: unknown key %q%s", name, line, k.String(), hint))
		} else {
			more++
		}
	}
	if more > 0 {
		errs = append(errs, fmt.Errorf("%s: %d more unknown keys: is it the right file?", name, more))
	}
	return f, errors.Join(errs...)
}

// typeError is how the decoder words a value of the wrong type.
var typeError = regexp.MustCompile(`^toml: line (\d+) \(last key "(.*)"\): (.*)$`)

// lastKey is the last piece of a dotted key, the one a message names.
// A piece that is not a bare TOML key (a quoted key may hold a newline or
// any other character) is shown quoted, so that a message stays one line.
func lastKey(k string) string {
	if i := strings.LastIndexByte(k, '.'); i >= 0 {
		k = k[i+1:]
	}
	return showKey(k)
}

// oneLine escapes control characters, so that a message quoting input is one
// line that still reads as the input did ("'0b\\n'").
func oneLine(s string) string {
	if !strings.ContainsFunc(s, unicode.IsControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unicode.IsControl(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// showKey is one key as a message names it: bare when TOML would accept it
// bare, quoted otherwise.
func showKey(k string) string {
	if k == "" {
		return `""`
	}
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return strconv.Quote(k)
		}
	}
	return k
}

// parentUnknown reports whether a table holding k is itself unknown.
func parentUnknown(k toml.Key, unknown map[string]bool) bool {
	for i := len(k) - 1; i > 0; i-- {
		if unknown[k[:i].String()] {
			return true
		}
	}
	return false
}

// Line is the line of a key path ("load.duration", "target.2.port"), or of
// the nearest enclosing table or key that has one; 1 when none does.
func (f *File) Line(path string) int {
	if f == nil {
		return 1
	}
	for p := path; p != ""; {
		if l, ok := f.lines[p]; ok {
			return l
		}
		i := strings.LastIndexByte(p, '.')
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return 1
}

// Has reports whether the file sets the key path.
func (f *File) Has(path string) bool {
	if f == nil {
		return false
	}
	_, ok := f.lines[path]
	return ok
}

// Errorf is an error at the line of path: "file:line: key: message", the
// key being path's last piece.
func (f *File) Errorf(path, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s: %s", f.Name, f.Line(path), lastKey(path), fmt.Sprintf(format, args...))
}

// lineOfKey is the line of the next occurrence of an undecoded key
// (which names no array index); byKey holds the lines of each key, in file
// order, and is consumed.
func lineOfKey(k toml.Key, byKey map[string][]int) int {
	name := k.String()
	lines := byKey[name]
	if len(lines) == 0 {
		return 1
	}
	byKey[name] = lines[1:]
	return lines[0]
}
