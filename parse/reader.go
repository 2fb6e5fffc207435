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
	trim string // text without the white space around it, if known; see trimmed
}

// trimmed returns the text without the white space around it, as
// strings.TrimSpace would, once per line: the reader trims each line before
// it offers it.
func (l line) trimmed() string {
	if l.trim == "" {
		return strings.TrimSpace(l.text)
	}
	return l.trim
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
	startVegetaJSON,
	startVegetaResults,
	startVegetaText,
	startVegetaHist,
	startVegetaHDRPlot,
	startAutocannonJSON,
	startAutocannonTable,
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
// records that could be read; reading goes on past it where it can. UTF-16
// with a byte order mark is decoded (the sha256 stays that of the stored
// bytes); NUL bytes and lines over 64 MB are reported and skipped.
type Reader struct {
	name    string
	in      *bufio.Reader
	raw     *bufio.Reader // the undecoded input, when in decodes UTF-16
	sum     hash.Hash
	ctx     context
	cur     block // the block the last line went to, nil between blocks
	pending []Record
	errs    []error
	done    bool
	idx     int
	rec     Record
	sawText bool   // a line other than blanks was read
	nul     bool   // a line with NUL bytes was reported
	ansi    []byte // scratch for lines with ANSI escapes
	compose logPrefix
	known   string        // the sha256 given by SetSHA256; "" when not known before
	held    []Record      // records read, held until the file's sha256 is known
	kept    int           // records that passed their checks
	num     int           // physical lines read
	started bool          // the first line was read
	sumOf   func() string // the sha256 of a dump held whole, in place of sum
}

// NewReader returns a Reader for the dump r, named fileName in errors and sources.
func NewReader(r io.Reader, fileName string) *Reader {
	sum := sha256.New()
	return &Reader{
		name: fileName,
		in:   newBufReader(io.TeeReader(r, sum)),
		sum:  sum,
		ctx:  newContext(fileName),
	}
}

// newHeldReader is NewReader for a dump held whole in b, which it does not
// hash: its records are held to the end of b and then carry sum(), the
// sha256 of b.
func newHeldReader(b []byte, fileName string, sum func() string) *Reader {
	return &Reader{
		name:  fileName,
		in:    newBufReader(bytes.NewReader(b)),
		sumOf: sum,
		ctx:   newContext(fileName),
	}
}

// Scan advances to the next record and reports whether there is one.
// Records are produced when the whole file has been read, so that each
// carries the sha256 of its file; after SetSHA256, as each run is read.
func (r *Reader) Scan() bool {
	if r.known == "" && !r.done {
		r.readAll()
		r.done = true
	}
	for r.known != "" && r.idx >= len(r.pending) && !r.done {
		clear(r.pending)
		r.pending, r.idx = r.pending[:0], 0
		if !r.step() {
			r.finishFile()
			r.done = true
		}
	}
	if r.idx >= len(r.pending) {
		r.rec = nil
		return false
	}
	r.rec = r.pending[r.idx]
	r.pending[r.idx] = nil
	r.idx++
	return true
}

// SetSHA256 gives the sha256 of the dump before it is read (a regular
// file hashed first): Scan then yields each run as soon as it is read, so
// that memory does not grow with the runs in a file. Should the bytes read
// not have that sum (the file changed in between), the records already
// yielded carry sum and Err reports it.
func (r *Reader) SetSHA256(sum string) { r.known = sum }

// Result returns the record found by the last Scan.
func (r *Reader) Result() Record { return r.rec }

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

func (r *Reader) syntax(num int, msg string) {
	r.errs = append(r.errs, &SyntaxError{File: r.name, Line: num, Msg: msg})
}

// readAll reads the dump line by line. Lines stay bytes in the read buffer
// until a block or a starter may want them; only then do they become strings.
func (r *Reader) readAll() {
	for r.step() {
	}
	r.finishFile()
}

// step reads one physical line and offers it; false at the end of the input.
func (r *Reader) step() bool {
	if !r.started {
		r.started = true
		r.decodeUTF16()
	}
	raw, long, err := r.readLine()
	if len(raw) > 0 {
		r.num++
		num := r.num
		switch nul := bytes.IndexByte(raw, 0) >= 0; {
		case long:
			r.syntax(num, fmt.Sprintf("line longer than %d MB, not load generator output: skipped", maxLine>>20))
		case nul && num == 1:
			r.syntax(1, binaryMessage(raw))
			io.Copy(io.Discard, r.in) // for the sha256
			err = io.EOF
		case nul:
			if !r.nul {
				r.syntax(num, "binary data (NUL bytes) in a text dump: skipped up to the next text line")
				r.nul = true
			}
		default:
			text := r.logical(raw)
			if num == 1 {
				text = bytes.TrimPrefix(text, utf8BOM)
			}
			if text, keep := r.compose.strip(text); keep {
				r.offer(text, num)
			}
		}
	}
	if err != nil {
		if err != io.EOF {
			r.errs = append(r.errs, fmt.Errorf("%s: %w", r.name, err))
		}
		return false
	}
	return true
}

// finishFile ends the last block, adds what the file as a whole says, and
// gives the records the file's sha256 (when it was not known before).
func (r *Reader) finishFile() {
	r.endBlock()
	r.release()
	sha := r.sha256()
	if r.known == "" {
		r.keep(append(r.held, r.ctx.end()...), sha)
		r.held = nil
	} else {
		r.keep(r.ctx.end(), r.known)
		if sha != r.known {
			r.syntax(0, fmt.Sprintf("the file changed while it was read (sha256 %s before, %s after): read it again", r.known, sha))
		}
	}
	if r.kept == 0 && len(r.errs) == 0 {
		msg := "no load generator output found (wrk, wrk2, bombardier, autocannon, vegeta)"
		if !r.sawText {
			msg = "empty file"
		}
		r.syntax(0, msg)
	}
}

// sha256 is the sum of the bytes read.
func (r *Reader) sha256() string {
	if r.sumOf != nil {
		return r.sumOf()
	}
	var hexSum [2 * sha256.Size]byte
	hex.Encode(hexSum[:], r.sum.Sum(nil))
	return string(hexSum[:])
}

// keep checks recs and adds those that pass to the pending records, each
// with the file's name and sha: the known one while streaming; otherwise
// recs are held until the end of the file, and keep is called with all of
// them and the sha computed.
func (r *Reader) keep(recs []Record, sha string) {
	for _, rec := range recs {
		switch rec := rec.(type) {
		case *Measurement:
			rec.Source.File, rec.Source.SHA256 = r.name, sha
			if !r.finish(rec) {
				continue
			}
		case *Target:
			rec.Source.File, rec.Source.SHA256 = r.name, sha
			if problems := checkTarget(rec); len(problems) > 0 {
				r.report(rec.Source, "target "+rec.Name, problems)
				continue
			}
		}
		r.kept++
		r.pending = append(r.pending, rec)
	}
}

var utf8BOM = []byte("\ufeff")

// finish checks a measurement and fills its shared fields
// (finishMeasurement); it reports each problem at the line where the tool
// run starts and whether m is to be kept.
func (r *Reader) finish(m *Measurement) bool {
	problems := finishMeasurement(m)
	r.report(m.Source, m.Tool+" run", problems)
	return len(problems) == 0
}

// report gives each problem with a record as a *SyntaxError at its first line.
func (r *Reader) report(src Source, what string, problems []string) {
	for _, p := range problems {
		r.syntax(src.LineStart, fmt.Sprintf("%s (lines %d-%d): %s; not counted", what, src.LineStart, src.LineEnd, p))
	}
}

// offer gives one logical line to the open block or, when there is none or
// it declines the line, to the starters.
func (r *Reader) offer(text []byte, num int) {
	trimmed := bytes.TrimSpace(text)
	if len(trimmed) > 0 {
		r.sawText = true
	}
	if r.cur == nil && !mayStart(trimmed) && !r.ctx.continuing() {
		if len(trimmed) > 0 {
			r.ctx.post.prose()
		}
		return
	}
	l := line{text: string(text), num: num}
	if len(trimmed) > 0 {
		// trimmed is text[start:start+len(trimmed)], and its capacity that
		// of text less start.
		start := cap(text) - cap(trimmed)
		l.trim = l.text[start : start+len(trimmed)]
	}
	if r.cur != nil {
		ok, err := r.cur.add(l)
		if err != nil {
			r.errs = append(r.errs, err)
		}
		if ok {
			return
		}
		r.endBlock()
	}
	if r.ctx.see(l) {
		return // a fence, or a command line's continuation
	}
	for _, start := range starters {
		if r.cur = start(&r.ctx, l); r.cur != nil {
			return
		}
	}
}

// endBlock finishes the open block, if any, and keeps its records.
func (r *Reader) endBlock() {
	if r.cur == nil {
		return
	}
	recs, err := r.cur.end()
	if err != nil {
		r.errs = append(r.errs, err)
	}
	for _, rec := range recs {
		if m, ok := rec.(*Measurement); ok {
			r.ctx.label(m)
		}
	}
	if r.known != "" {
		r.keep(recs, r.known)
	} else {
		r.held = append(r.held, recs...)
	}
	r.cur = nil
}

// mayStart reports whether a trimmed line outside any block may matter to a
// starter, so that prose and other lines between runs are skipped without
// making strings of them. Every line a starter acts on begins with one of
// these bytes or names a tool and holds a flag or URL (a command line);
// TestMayStart checks it against every fixture.
func mayStart(t []byte) bool {
	if len(t) == 0 {
		return false
	}
	switch t[0] {
	case 'R', // Running … @, Reqs/sec (old harness), Requests (vegeta's text)
		'B', // Bombarding, Bundle:, Bucket (vegeta's histogram)
		'S', // Statistics (bombardier -p r), Startup:
		'M', // Memory before:, Memory after:
		'V', // Value(ms) (vegeta's hdrplot)
		'{': // JSON
		return true
	}
	if mayName(t) {
		return true // a post's fence or title line, or a pasted table
	}
	if t[0] >= '0' && t[0] <= '9' && bytes.Count(t, comma) >= 11 {
		return true // vegeta's results as CSV
	}
	// A command line also has a flag or a URL: see mayBeCommand.
	if bytes.IndexByte(t, '-') < 0 && bytes.IndexByte(t, ':') < 0 {
		return false
	}
	for _, name := range toolWords {
		if bytes.Contains(t, name) {
			return true
		}
	}
	return false
}

var comma = []byte(",")

// toolWords are what parseCommand looks for before splitting a line.
var toolWords = [][]byte{[]byte("wrk"), []byte("bombardier"), []byte("autocannon"), []byte("vegeta")}

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

// release returns the line buffers to the pool.
func (r *Reader) release() {
	for _, br := range []*bufio.Reader{r.in, r.raw} {
		if br != nil {
			br.Reset(nil)
			bufReaders.Put(br)
		}
	}
	r.in, r.raw = nil, nil
}

// readLine returns the next physical line, newline included. A line longer
// than the read buffer is gathered in a new slice, keeping only what
// follows its last carriage return: of a progress bar's CR-separated frames
// only the last is ever shown, and a 100 MB bar must not take 100 MB. long
// reports a line that is still longer than maxLine; its bytes are dropped.
func (r *Reader) readLine() (raw []byte, long bool, err error) {
	raw, err = r.in.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		return raw, false, err
	}
	var buf []byte
	for {
		if i := lastFrame(raw); i >= 0 {
			buf, raw, long = buf[:0], raw[i:], false
		}
		if len(buf)+len(raw) <= maxLine {
			buf = append(buf, raw...)
		} else {
			long = true
		}
		if err != bufio.ErrBufferFull {
			return buf, long, err
		}
		raw, err = r.in.ReadSlice('\n')
	}
}

// lastFrame returns where the last progress frame in a piece of a line
// starts: after its last carriage return, not counting those that end the
// line. It is -1 when there is none.
func lastFrame(piece []byte) int {
	body := bytes.TrimRight(bytes.TrimRight(piece, "\n"), "\r")
	i := bytes.LastIndexByte(body, '\r')
	if i < 0 {
		return -1
	}
	return i + 1
}

// logical turns a physical line into the text a person would see on a
// terminal: the newline and CR of a CRLF ending are dropped, of
// CR-separated progress frames only the last one is kept, and ANSI colour
// and cursor sequences are removed. The result is only valid until the next
// line is read.
func (r *Reader) logical(raw []byte) []byte {
	for len(raw) > 0 && raw[len(raw)-1] == '\n' {
		raw = raw[:len(raw)-1]
	}
	for len(raw) > 0 && raw[len(raw)-1] == '\r' {
		raw = raw[:len(raw)-1]
	}
	// Most lines have no CR: IndexByte says so at vector speed, where
	// LastIndexByte would test every byte.
	if bytes.IndexByte(raw, '\r') >= 0 {
		raw = raw[bytes.LastIndexByte(raw, '\r')+1:]
	}
	if bytes.IndexByte(raw, 0x1b) >= 0 {
		r.ansi = stripANSI(r.ansi[:0], raw)
		return r.ansi
	}
	return raw
}

// stripANSI appends raw to out without its CSI sequences (ESC [ params
// final-byte) and other two-byte escapes.
func stripANSI(out, raw []byte) []byte {
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
	return out
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
