package parse

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"strings"
	"sync"
)

// Record is one thing a Reader yields: a *Measurement or a *Target.
type Record interface{ record() }

func (*Measurement) record() {}
func (*Target) record()      {}

// SyntaxError is a problem at one line of one input.
type SyntaxError struct {
	File string
	Line int // from 1; 0 when the problem is with the whole file
	Msg  string
}

func (e *SyntaxError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// maxLine bounds one physical line. Progress bars without a terminal are long
// CR-separated lines (bombardier writes ~50 KB of frames on one line).
const maxLine = 64 << 20

// line is one logical line of a dump: progress-bar frames before the last
// carriage return are dropped, and so is a trailing "\r" of a CRLF ending.
type line struct {
	text string
	num  int
}

// block reads the lines of one tool run.
type block interface {
	// add offers the next line. It reports false when the line does not belong
	// to the block; the reader then ends the block and offers the line anew.
	add(l line) (bool, error)
	// end finishes the block and returns its records.
	end() ([]Record, error)
}

// starter recognises the first line of a block of one dialect and returns a
// block for it, or nil.
type starter func(ctx *context, l line) block

// starters lists every dialect, most specific first.
var starters = []starter{
	startRunning,
	startBombardierText,
	startBombardierJSON,
	startAutocannonJSON,
	startBunOldLine,
	startHarness,
}

// Reader reads the tool runs in one dump file, in the style of
// golang.org/x/perf/benchfmt.Reader:
//
//	r := parse.NewReader(f, name)
//	for r.Scan() {
//		switch rec := r.Result().(type) { ... }
//	}
//	if err := r.Err(); err != nil { ... }
//
// The dialect is found from the content, never from the file name. A line
// that does not fit is reported as a *SyntaxError through Err after the
// records that could be read; reading goes on past it where it can.
type Reader struct {
	name    string
	in      *bufio.Reader
	sum     hash.Hash
	ctx     context
	pending []Record
	errs    []error
	done    bool
	idx     int
	cur     Record
}

// NewReader returns a Reader for the dump r, named fileName in errors and sources.
func NewReader(r io.Reader, fileName string) *Reader {
	sum := sha256.New()
	return &Reader{
		name: fileName,
		in:   newBufReader(io.TeeReader(r, sum)),
		sum:  sum,
		ctx:  context{file: fileName},
	}
}

// Scan advances to the next record and reports whether there is one.
// Records are produced when the whole file has been read, so that each
// carries the sha256 of its file.
func (r *Reader) Scan() bool {
	if !r.done {
		r.readAll()
		r.done = true
	}
	if r.idx >= len(r.pending) {
		r.cur = nil
		return false
	}
	r.cur = r.pending[r.idx]
	r.pending[r.idx] = nil
	r.idx++
	return true
}

// Result returns the record found by the last Scan.
func (r *Reader) Result() Record { return r.cur }

// Err returns the problems met while reading, joined; nil if none.
func (r *Reader) Err() error {
	switch len(r.errs) {
	case 0:
		return nil
	case 1:
		return r.errs[0]
	}
	return joined(r.errs)
}

// Errs returns each problem met while reading.
func (r *Reader) Errs() []error { return r.errs }

func (r *Reader) readAll() {
	var cur block
	num := 0
	finish := func() {
		if cur == nil {
			return
		}
		recs, err := cur.end()
		if err != nil {
			r.errs = append(r.errs, err)
		}
		for _, rec := range recs {
			if m, ok := rec.(*Measurement); ok {
				r.ctx.label(m)
			}
		}
		r.pending = append(r.pending, recs...)
		cur = nil
	}
	sawText := false
	for {
		raw, err := r.in.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			raw, err = r.longLine(raw)
		}
		if len(raw) > 0 {
			num++
			l := line{text: logical(raw), num: num}
			if num == 1 {
				l.text = strings.TrimPrefix(l.text, "\ufeff")
				if bytes.IndexByte(raw, 0) >= 0 {
					r.errs = append(r.errs, &SyntaxError{File: r.name, Line: 1, Msg: "binary data, not a load generator dump"})
					io.Copy(io.Discard, r.in)
					break
				}
			}
			if strings.TrimSpace(l.text) != "" {
				sawText = true
			}
			if cur != nil {
				ok, aerr := cur.add(l)
				if aerr != nil {
					r.errs = append(r.errs, aerr)
				}
				if ok {
					goto next
				}
				finish()
			}
			for _, start := range starters {
				if cur = start(&r.ctx, l); cur != nil {
					break
				}
			}
		}
	next:
		if err != nil {
			if err != io.EOF {
				r.errs = append(r.errs, fmt.Errorf("%s: %w", r.name, err))
			}
			break
		}
	}
	finish()
	bufReaders.Put(r.in)
	r.in = nil
	r.pending = append(r.pending, r.ctx.end()...)
	sha := hex.EncodeToString(r.sum.Sum(nil))
	for _, rec := range r.pending {
		switch rec := rec.(type) {
		case *Measurement:
			rec.Source.File, rec.Source.SHA256 = r.name, sha
		case *Target:
			rec.Source.File, rec.Source.SHA256 = r.name, sha
		}
	}
	if len(r.pending) == 0 && len(r.errs) == 0 {
		msg := "no load generator output found (wrk, wrk2, bombardier, autocannon)"
		if !sawText {
			msg = "empty file"
		}
		r.errs = append(r.errs, &SyntaxError{File: r.name, Msg: msg})
	}
}

// bufReaders keeps the 64 KB line buffers between files: a folder of many
// small dumps would otherwise allocate one per file.
var bufReaders sync.Pool

func newBufReader(r io.Reader) *bufio.Reader {
	if br, ok := bufReaders.Get().(*bufio.Reader); ok {
		br.Reset(r)
		return br
	}
	return bufio.NewReaderSize(r, 64<<10)
}

// longLine finishes reading a line longer than the buffer, keeping at most
// maxLine bytes of it.
func (r *Reader) longLine(first []byte) ([]byte, error) {
	buf := append([]byte(nil), first...)
	for {
		more, err := r.in.ReadSlice('\n')
		if len(buf) < maxLine {
			buf = append(buf, more...)
		}
		if err != bufio.ErrBufferFull {
			return buf, err
		}
	}
}

// logical turns a physical line into the text a person would see on a
// terminal: the newline and CR of a CRLF ending are dropped, of
// CR-separated progress frames only the last one is kept, and ANSI colour
// and cursor sequences are removed.
func logical(raw []byte) string {
	raw = bytes.TrimRight(raw, "\n")
	raw = bytes.TrimRight(raw, "\r")
	if i := bytes.LastIndexByte(raw, '\r'); i >= 0 {
		raw = raw[i+1:]
	}
	if bytes.IndexByte(raw, 0x1b) >= 0 {
		return stripANSI(raw)
	}
	return string(raw)
}

// stripANSI drops CSI sequences (ESC [ params final-byte) and other
// two-byte escapes.
func stripANSI(raw []byte) string {
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != 0x1b {
			out = append(out, c)
			continue
		}
		if i+1 < len(raw) && raw[i+1] == '[' {
			i += 2
			for i < len(raw) && (raw[i] < 0x40 || raw[i] > 0x7e) {
				i++
			}
			continue
		}
		i++ // ESC and the byte after it
	}
	return string(out)
}

type joinedErrors []error

func joined(errs []error) error { return joinedErrors(errs) }

func (j joinedErrors) Error() string {
	var b strings.Builder
	for i, e := range j {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

func (j joinedErrors) Unwrap() []error { return j }
