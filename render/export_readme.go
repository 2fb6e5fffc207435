package render

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/fairbench/fairbench/parse/rundir"
)

// Readme markers: Readme.Update replaces what lies between them. Each
// must stand on a line of its own (spaces and tabs around it allowed): a
// marker quoted in a sentence or a code span is text, not a place.
const (
	ReadmeStart = "<!-- fairbench:start -->"
	ReadmeEnd   = "<!-- fairbench:end -->"
)

// MaxReadmeBytes is the largest README that -readme reads: far above any
// README, and small enough to hold twice in memory.
const MaxReadmeBytes = 16 << 20

// Readme is a README whose results table render rewrites. OpenReadme
// reads and checks it before any output is written, so that a README
// render cannot use stops the render before the site is touched; Update
// writes it once the site is built.
//
// A README that is a symbolic link has its target rewritten and the link
// kept. A README with more than one hard link is refused: it is replaced
// by a new file (written beside it, then renamed over it, so that a reader
// never sees half a table), which would part it from its other names.
type Readme struct {
	Path    string // as given
	Changed bool   // whether Update wrote a new table
	file    string // Path with its links resolved: the file replaced
	info    fs.FileInfo
	src     []byte
}

// OpenReadme reads and checks the README at path: a regular file of at
// most MaxReadmeBytes, with one link, holding the markers once each on
// lines of their own. Every error is ErrUsage: a README named on the
// command line that cannot be used is bad usage.
func OpenReadme(path string) (*Readme, error) {
	file, err := filepath.EvalSymlinks(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, usagef("render: -readme %s does not exist: give a README holding the lines %s and %s where the table goes", path, ReadmeStart, ReadmeEnd)
	}
	if err != nil {
		return nil, usagef("render: -readme %s: %w", path, err)
	}
	// Through rundir's opener: a FIFO or device is refused before a byte
	// is read, and no more than MaxReadmeBytes are read.
	f, err := rundir.OpenRegular(file, MaxReadmeBytes)
	if err != nil {
		return nil, readmeRefused(path, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, usagef("render: -readme %s: %w", path, err)
	}
	if links(info) > 1 {
		return nil, usagef("render: -readme %s has %d hard links, and render replaces the file, which would part it from the others: make it a file of its own (cp %s x && mv x %s), or link it symbolically", path, links(info), path, path)
	}
	src, err := io.ReadAll(f)
	if err != nil {
		return nil, readmeRefused(path, err)
	}
	if _, err := spliceReadme(src, nil); err != nil {
		return nil, usagef("render: -readme %s: %w", path, err)
	}
	return &Readme{Path: path, file: file, info: info, src: src}, nil
}

// Update puts table between the README's markers and writes it, only
// when the text changes, through a new file renamed over the old one. It
// refuses a README that was replaced since OpenReadme read it.
func (r *Readme) Update(table []byte) error {
	out, err := spliceReadme(r.src, table)
	if err != nil {
		return fmt.Errorf("render: -readme %s: %w", r.Path, err)
	}
	if bytes.Equal(out, r.src) {
		return nil
	}
	now, err := os.Lstat(r.file)
	if err != nil {
		return fmt.Errorf("render: -readme %s: %w", r.Path, err)
	}
	if !os.SameFile(now, r.info) || now.Size() != r.info.Size() || !now.ModTime().Equal(r.info.ModTime()) {
		return fmt.Errorf("render: -readme %s changed while render ran: render again to write its table", r.Path)
	}
	if err := rundir.WriteFileAtomicMode(r.file, out, r.info.Mode().Perm()); err != nil {
		return fmt.Errorf("render: -readme %s: %w", r.Path, err)
	}
	r.src, r.Changed = out, true
	return nil
}

// readmeRefused is the usage error of a README rundir's opener refused
// (or could not open).
func readmeRefused(path string, err error) error {
	var re *rundir.RefusedError
	switch {
	case errors.As(err, &re) && re.Rule == rundir.RuleSize && re.Size > 0:
		return usagef("render: -readme %s is %s bytes, over the %s a README may be: give the README file itself", path, group(re.Size), group(MaxReadmeBytes))
	case errors.As(err, &re) && re.Rule == rundir.RuleSize:
		return usagef("render: -readme %s grew over %s bytes while being read", path, group(MaxReadmeBytes))
	case errors.As(err, &re) && re.Rule == rundir.RuleNotRegular:
		return usagef("render: -readme %s is not a regular file (%s): give the README file itself", path, rundir.FileType(re.Mode))
	}
	return usagef("render: -readme %s: %w", path, err)
}

// links is how many names the file of info has.
func links(info fs.FileInfo) uint64 {
	_, n := rundir.DeviceAndLinks(info)
	return n
}

// RewriteReadme replaces the text between ReadmeStart and ReadmeEnd in the
// file at path with table, as OpenReadme and Update do, and says whether
// it wrote.
func RewriteReadme(path string, table []byte) (changed bool, err error) {
	r, err := OpenReadme(path)
	if err != nil {
		return false, err
	}
	err = r.Update(table)
	return r.Changed, err
}

// spliceReadme puts table between the marker lines of src, in the line
// ending of the start marker's line, so a CRLF file stays CRLF.
func spliceReadme(src, table []byte) ([]byte, error) {
	starts, ends := markerLines(src, ReadmeStart), markerLines(src, ReadmeEnd)
	switch {
	case len(starts) == 0 || len(ends) == 0:
		return nil, errors.New("no " + ReadmeStart + " … " + ReadmeEnd + " markers: put them, each on a line of its own, where the table goes")
	case len(starts) > 1 || len(ends) > 1:
		return nil, errors.New("the markers appear more than once; keep one pair")
	case ends[0].start < starts[0].end:
		return nil, errors.New(ReadmeEnd + " comes before " + ReadmeStart)
	}
	start, end := starts[0], ends[0]
	eol := []byte("\n")
	if bytes.HasSuffix(src[:start.end], []byte("\r\n")) {
		eol = []byte("\r\n")
	}
	body := bytes.TrimRight(bytes.ReplaceAll(table, []byte("\r\n"), []byte("\n")), "\n")
	body = bytes.ReplaceAll(body, []byte("\n"), eol)
	var b bytes.Buffer
	b.Write(src[:start.end])
	b.Write(eol)
	b.Write(body)
	b.Write(eol)
	b.Write(eol)
	b.Write(src[end.start:])
	return b.Bytes(), nil
}

// lineSpan is a line of a file: the offset of its first byte, and of the
// byte after its line ending.
type lineSpan struct{ start, end int }

// markerLines are the lines of src that hold marker and nothing else but
// spaces and tabs.
func markerLines(src []byte, marker string) []lineSpan {
	var out []lineSpan
	at := 0
	for line := range bytes.Lines(src) {
		text := bytes.TrimRight(line, "\r\n")
		if string(bytes.Trim(text, " \t")) == marker {
			out = append(out, lineSpan{at, at + len(line)})
		}
		at += len(line)
	}
	return out
}
