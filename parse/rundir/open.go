package rundir

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Every file of a run dir is read through OpenFile (or ReadFile): a
// run dir is input that anyone may have edited or that came from elsewhere,
// and what render reads from it is published. The reader keeps a read to
// the run dir (a link that leads out of it, or a path with "..", is
// refused), to regular files (a device, FIFO or socket is refused before
// a byte is read, so /dev/zero or a pipe cannot hang a command), and to a
// stated size per kind of file.

// FileKind is what a file of a run dir holds; it sets how many bytes of the
// file are read at most.
type FileKind int

// The kinds of file in a run dir.
const (
	KindRunJSON    FileKind = iota // run.json
	KindSuite                      // suite.toml, the suite as collect ran it
	KindTranscript                 // conformance/<target>.txt, a gate's transcript
	KindDump                       // a load generator's dump (and its .stderr)
	KindTable                      // a published results table (audit -table)
	KindOther                      // any other file a run dir holds, copied to the site as is
	KindSite                       // a file of a site folder's content/ or theme/
)

// The most bytes read of each kind of file. A run.json of 40,000
// measurements is about 32 MB; a suite is a page of TOML; a transcript is a
// few kilobytes a check; a dump is kilobytes, or tens of megabytes when a
// tool's progress bar ran for an hour without a terminal; a published table
// is a page of markdown; a site folder's page, template or stylesheet is
// far below its limit.
const (
	MaxRunJSON    = 32 << 20
	MaxSuite      = 1 << 20
	MaxTranscript = 8 << 20
	MaxDump       = 256 << 20
	MaxTable      = 16 << 20
	MaxOther      = 256 << 20
	MaxSite       = 16 << 20
)

// Limit is the most bytes read of a file of kind k.
func (k FileKind) Limit() int64 {
	switch k {
	case KindRunJSON:
		return MaxRunJSON
	case KindSuite:
		return MaxSuite
	case KindTranscript:
		return MaxTranscript
	case KindDump:
		return MaxDump
	case KindTable:
		return MaxTable
	case KindSite:
		return MaxSite
	}
	return MaxOther
}

func (k FileKind) String() string {
	switch k {
	case KindRunJSON:
		return "run.json"
	case KindSuite:
		return "suite"
	case KindTranscript:
		return "transcript"
	case KindDump:
		return "dump"
	case KindTable:
		return "table"
	case KindSite:
		return "file of the site folder"
	}
	return "file"
}

// ErrRefused is what every RefusedError is (errors.Is): a file the run-dir
// reader will not read.
var ErrRefused = errors.New("refused")

// Rule is the rule of the opener a refused file broke.
type Rule int

// The opener's rules: each refusal breaks one.
const (
	RuleLeaves     Rule = iota + 1 // the path leaves the root: "..", or a link out of it
	RuleNotRegular                 // a folder, FIFO, device or socket
	RuleSize                       // over its kind's limit, or grew past it while read
	RuleForeign                    // more than one hard link, or on another device (Foreign)
)

// RefusedError is a file that is not read: why, and for a file over its
// limit, the limit.
type RefusedError struct {
	File   string // the path as opened
	Kind   FileKind
	Rule   Rule
	Reason string
	Limit  int64       // the limit that was hit; 0 when the reason is not size
	Size   int64       // the file's size when it was opened, when the rule is RuleSize; 0 when it grew while read
	Mode   fs.FileMode // the file's type, when the rule is RuleNotRegular
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("%s: %s: not read", e.File, e.Reason)
}

// Is makes errors.Is(err, ErrRefused) true.
func (e *RefusedError) Is(target error) bool { return target == ErrRefused }

// File is an open file of a run dir, read through a bound: reading past
// its kind's limit (a file that grew after it was opened) is an error.
type File struct {
	f     *os.File
	kept  *io.SectionReader // in place of f: the bytes kept of a pipe read before (pipe.go)
	r     io.LimitedReader
	name  string
	kind  FileKind
	limit int64 // the most bytes read: kind's limit, or the one ReadRegular was given
	size  int64
}

// Root is a run dir opened for reading its files through one handle:
// open it once to read many files (OpenFile opens it for one).
type Root struct {
	path string
	root *os.Root
}

// OpenRoot opens the run dir at path.
func OpenRoot(path string) (*Root, error) {
	r, err := os.OpenRoot(path)
	if err != nil {
		return nil, err
	}
	return &Root{path: path, root: r}, nil
}

// Close closes the run dir; files open in it stay open.
func (d *Root) Close() error { return d.root.Close() }

// OpenFile opens the file at rel, a slash path inside the run dir root,
// for reading. A path that leaves root (by ".." or through a link), a file
// that is not regular, and a file over kind's limit are refused with a
// *RefusedError; a missing file is an error that os.IsNotExist knows.
func OpenFile(root, rel string, kind FileKind) (*File, error) {
	if local := filepath.FromSlash(rel); !filepath.IsLocal(local) {
		return nil, leaves(root, rel, kind)
	}
	d, err := OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.Open(rel, kind)
}

// leaves is the refusal of a path that leaves the run dir.
func leaves(root, rel string, kind FileKind) error {
	// Named as given: joined, the path would be cleaned to where it leads.
	return &RefusedError{File: root + string(filepath.Separator) + filepath.FromSlash(rel), Kind: kind, Rule: RuleLeaves, Reason: fmt.Sprintf("the path %q leaves the run dir", rel)}
}

// Open opens the file at rel in the run dir as OpenFile does.
func (d *Root) Open(rel string, kind FileKind) (*File, error) {
	f, name, err := d.open(rel, kind)
	if err != nil {
		return nil, err
	}
	return bound(f, name, kind, kind.Limit())
}

// OpenEntry opens the file or folder at rel, as an fs.FS opens its
// entries: a folder as it is (it is listed, never read), anything else
// as Open does.
func (d *Root) OpenEntry(rel string, kind FileKind) (fs.File, error) {
	f, name, err := d.open(rel, kind)
	if err != nil {
		return nil, err
	}
	if info, err := f.Stat(); err == nil && info.IsDir() {
		return f, nil
	}
	return bound(f, name, kind, kind.Limit())
}

// open opens rel in the run dir, refusing a path that leaves it.
func (d *Root) open(rel string, kind FileKind) (*os.File, string, error) {
	local := filepath.FromSlash(rel)
	if !filepath.IsLocal(local) {
		return nil, "", leaves(d.path, rel, kind)
	}
	name := filepath.Join(d.path, local)
	// O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused
	// as soon as it is open.
	f, err := d.root.OpenFile(local, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "escapes") {
			reason := "it links outside the run dir"
			if real, rerr := filepath.EvalSymlinks(name); rerr == nil {
				reason = fmt.Sprintf("it links to %s, outside the run dir", real)
				if realRoot, rerr := filepath.EvalSymlinks(d.path); rerr == nil && within(realRoot, real) {
					reason = fmt.Sprintf("it links to %s by an absolute path; only relative links inside the run dir are followed", real)
				}
			}
			return nil, "", &RefusedError{File: name, Kind: kind, Rule: RuleLeaves, Reason: reason}
		}
		return nil, "", err
	}
	return f, name, nil
}

// OpenNamed opens a file named outside any run dir (a dump or a table given
// on the command line) as OpenFile does, without the run dir: files over
// kind's limit are refused, and so are devices (/dev/zero would never end,
// a terminal would wait for typing) and sockets. A pipe the user named
// (bash's <(command), /dev/stdin in a pipeline, a FIFO) is read as it
// comes, up to kind's limit, and waits for a writer no longer than
// streamWait: a FIFO no one writes to reads as empty instead of hanging.
// A pipe is read once: a second OpenNamed of it in this process reads the
// bytes the first read took from it (pipe.go).
func OpenNamed(name string, kind FileKind) (*File, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if info.Mode()&fs.ModeNamedPipe == 0 {
		return bound(f, name, kind, kind.Limit())
	}
	return openPipe(f, info, name, kind), nil // pipe.go: read once
}

// streamWait is how long a pipe named on the command line may stay without
// a writer before it is read as empty.
var streamWait = 5 * time.Second

// pipeReader reads a pipe opened without waiting for its writer: until the
// first byte, an end of file means no writer has opened it yet, and is
// retried until the deadline.
type pipeReader struct {
	f        *os.File
	deadline time.Time
	started  bool
}

func (p *pipeReader) Read(b []byte) (int, error) {
	for {
		n, err := p.f.Read(b)
		if n > 0 {
			p.started = true
		}
		if n > 0 || err != io.EOF || p.started || time.Now().After(p.deadline) {
			return n, err
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// bound is the open file f as a File of kind read to at most limit bytes;
// a file that is not regular, or over limit, is refused and closed.
func bound(f *os.File, name string, kind FileKind, limit int64) (*File, error) {
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, &RefusedError{File: name, Kind: kind, Rule: RuleNotRegular, Mode: info.Mode().Type(), Reason: fmt.Sprintf("it is not a regular file (%s)", FileType(info.Mode()))}
	}
	if info.Size() > limit {
		f.Close()
		return nil, &RefusedError{File: name, Kind: kind, Rule: RuleSize, Limit: limit, Size: info.Size(),
			Reason: fmt.Sprintf("%d bytes, over the %s a %s may have", info.Size(), sizeText(limit), kind)}
	}
	rf := &File{f: f, name: name, kind: kind, limit: limit, size: info.Size()}
	rf.r = io.LimitedReader{R: f, N: limit + 1}
	return rf, nil
}

// sizeText is a limit as refusals say it: in MB when it is whole
// megabytes, else in KiB or bytes.
func sizeText(limit int64) string {
	switch {
	case limit >= 1<<20 && limit%(1<<20) == 0:
		return fmt.Sprintf("%d MB", limit>>20)
	case limit >= 1<<10 && limit%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", limit>>10)
	}
	return fmt.Sprintf("%d bytes", limit)
}

// FileType names a file mode that is not a regular file, as refusals say
// it ("a FIFO", "a device").
func FileType(m fs.FileMode) string {
	switch {
	case m&fs.ModeDir != 0:
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return m.Type().String()
}

// Read reads from the file; past the kind's limit it fails with a
// *RefusedError.
func (f *File) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if f.r.N <= 0 {
		over := n - 1
		if over < 0 {
			over = 0
		}
		return over, &RefusedError{File: f.name, Kind: f.kind, Rule: RuleSize, Limit: f.limit,
			Reason: fmt.Sprintf("it grew past the %s a %s may have while it was read", sizeText(f.limit), f.kind)}
	}
	return n, err
}

// Rewind goes back to the start of a regular file, for a second read.
func (f *File) Rewind() error {
	var s io.Seeker = f.f
	if f.kept != nil {
		s = f.kept
	}
	if _, err := s.Seek(0, io.SeekStart); err != nil {
		return err
	}
	f.r.N = f.limit + 1
	return nil
}

// Size is the file's size when it was opened; -1 for a stream.
func (f *File) Size() int64 { return f.size }

// Name is the file's path as opened.
func (f *File) Name() string { return f.name }

// Close closes the file.
func (f *File) Close() error {
	if f.f == nil { // a pipe's kept bytes: they stay for the next open
		return nil
	}
	return f.f.Close()
}

// ReadFile reads the whole file at rel in the run dir root through
// OpenFile.
func ReadFile(root, rel string, kind FileKind) ([]byte, error) {
	f, err := OpenFile(root, rel, kind)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.readAll()
}

// ReadRegular reads the file name, one the user named (a suite, a body
// file, a README), to at most limit bytes. A link is followed, as for any
// file named on the command line; anything but a regular file (a folder,
// FIFO, device or socket) is refused before a byte is read, and so is a
// file over limit (*RefusedError).
func ReadRegular(name string, limit int64) ([]byte, error) {
	f, err := OpenRegular(name, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.readAll()
}

// OpenRegular opens the file name as ReadRegular reads it.
func OpenRegular(name string, limit int64) (*File, error) {
	// O_NONBLOCK: opening a FIFO must not wait for a writer.
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	return bound(f, name, KindOther, limit)
}

// readAll reads the file to its end.
func (f *File) readAll() ([]byte, error) {
	b := make([]byte, 0, f.size+1) // +1: the EOF read does not grow b
	for {
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// Stat is the file's information as the system gives it now; an error
// for the bytes kept of a pipe, which are no file of their own.
func (f *File) Stat() (fs.FileInfo, error) {
	if f.f == nil {
		return nil, fs.ErrInvalid
	}
	return f.f.Stat()
}

// within reports whether name is dir or below it.
func within(dir, name string) bool {
	rel, err := filepath.Rel(dir, name)
	return err == nil && filepath.IsLocal(rel)
}
