package parse

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Dumps are UTF-8 (or ASCII) text as the tools print it. Some reach us
// otherwise: PowerShell's `>` writes UTF-16 with a byte order mark, a crash
// leaves NUL bytes where a file's tail was, and a wrong file may be binary.
// The reader decodes UTF-16 that carries a byte order mark, and reports the
// rest as *SyntaxError at the line where it starts.

// decodeUTF16 switches the reader to decoding when the input opens with a
// UTF-16 byte order mark. The sha256 stays that of the bytes on disk.
func (r *Reader) decodeUTF16() {
	mark, _ := r.in.Peek(2)
	var bigEndian bool
	switch {
	case bytes.Equal(mark, []byte{0xff, 0xfe}):
	case bytes.Equal(mark, []byte{0xfe, 0xff}):
		bigEndian = true
	default:
		return
	}
	r.in.Discard(2)
	r.raw = r.in
	r.in = newBufReader(&utf16Reader{in: r.raw, bigEndian: bigEndian})
}

// utf16Reader decodes UTF-16 into UTF-8. A lone surrogate or an odd last
// byte becomes U+FFFD, as in any decoder.
type utf16Reader struct {
	in        *bufio.Reader
	bigEndian bool
	out       []byte // decoded, not yet read
	err       error
}

func (u *utf16Reader) Read(p []byte) (int, error) {
	for len(u.out) < len(p) && u.err == nil {
		r1, err := u.unit()
		if err != nil {
			u.err = err
			break
		}
		r := rune(r1)
		if utf16.IsSurrogate(r) {
			r2, err := u.unit()
			if err != nil {
				u.err = err
			}
			r = utf16.DecodeRune(r, rune(r2)) // U+FFFD for a bad pair
		}
		u.out = utf8.AppendRune(u.out, r)
	}
	if len(u.out) == 0 {
		return 0, u.err
	}
	n := copy(p, u.out)
	u.out = u.out[:copy(u.out, u.out[n:])]
	return n, nil
}

// unit reads one 16-bit code unit; an odd byte at the end is U+FFFD.
func (u *utf16Reader) unit() (uint16, error) {
	a, err := u.in.ReadByte()
	if err != nil {
		return 0, err
	}
	b, err := u.in.ReadByte()
	if err != nil {
		return utf8.RuneError, nil
	}
	if u.bigEndian {
		return uint16(a)<<8 | uint16(b), nil
	}
	return uint16(b)<<8 | uint16(a), nil
}

// binaryMessage says why a first line holding NUL bytes is not read, with
// the fix for UTF-16 that lacks its byte order mark.
func binaryMessage(first []byte) string {
	if isVegetaGob(first) {
		return "vegeta's binary (gob) results, not read: convert them with `vegeta encode -to csv FILE > FILE.csv` (or -to json) and parse that, or keep its reports (vegeta report -type=json)"
	}
	if order, ok := utf16Order(first); ok {
		return fmt.Sprintf("UTF-16%s text without a byte order mark: convert it to UTF-8 (iconv -f UTF-16%s -t UTF-8)", order, order)
	}
	return "binary data, not a load generator dump"
}

// utf16Order reports whether b looks like ASCII text in UTF-16, and in
// which byte order: every other byte NUL, the others printable.
func utf16Order(b []byte) (string, bool) {
	if len(b) < 4 {
		return "", false
	}
	b = b[:len(b)&^1]
	le, be := true, true
	for i := 0; i+1 < len(b); i += 2 {
		le = le && b[i+1] == 0 && textByte(b[i])
		be = be && b[i] == 0 && textByte(b[i+1])
	}
	switch {
	case le:
		return "LE", true
	case be:
		return "BE", true
	}
	return "", false
}

func textByte(c byte) bool { return c >= ' ' && c < 0x7f || c == '\t' || c == '\r' || c == '\n' }

// isVegetaGob reports whether the first bytes of a file are vegeta's
// results in its default encoding, gob: the stream opens with the type of
// its Result, which names the fields.
//
// fairbench does not decode them. encoding/gob could, into a struct of the
// same field names without importing vegeta, but it is documented as not
// hardened against adversarial input (its decoder checks sizes only
// loosely), a binary stream has no lines for file:line provenance, and
// vegeta's own `vegeta encode` turns gob into CSV or JSON, which are read.
func isVegetaGob(first []byte) bool {
	return bytes.Contains(first, []byte("Result")) && bytes.Contains(first, []byte("Timestamp")) &&
		bytes.Contains(first, []byte("Latency")) && bytes.Contains(first, []byte("BytesIn"))
}

// looksLikeVegetaResults keeps in a folder walk the files of vegeta's
// results that looksLikeDump leaves out by name: a .csv of encoded
// results, and a .bin or .gob of gob results (to say how to convert them).
// Other CSV files (a site's results.csv) are not dumps.
func looksLikeVegetaResults(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	if ext != ".csv" && ext != ".bin" && ext != ".gob" {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 4096)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if ext != ".csv" {
		return isVegetaGob(head)
	}
	first, _, _ := bytes.Cut(head, []byte("\n"))
	return isVegetaCSVResult(string(bytes.TrimSpace(first)))
}
