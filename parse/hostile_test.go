package parse

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"unicode/utf16"
)

// Hostile input (issue 8): UTF-16, several dialects in one file, NUL bytes,
// a huge line, CRLF and cuts at every line. Each reads what can be read and
// says where the rest went wrong, as a *SyntaxError; none panics.

// singleRuns are fixtures holding one run each, one per dialect.
var singleRuns = []string{
	"testdata/wrk-4.1.0__latency.txt",
	"testdata/wrk2-4.0.0-giltene-44a94c1__latency_R1000.txt",
	"testdata/bombardier-1.2.6__latencies.txt",
	"testdata/bombardier-1.2.6__json_latencies.json",
	"testdata/autocannon-9.0.0__default.txt",
	"testdata/autocannon-9.0.0__json.json",
	"testdata/vegeta-12.13.0__timeout_text.txt",
	"testdata/vegeta-12.13.0__timeout_rundir.txt",
	"testdata/vegeta-12.13.0__small_results.csv",
}

// readFixture returns a fixture's bytes.
func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// parsed is what a reader made of an input, as comparable text: each record
// as JSON Lines without its sha256, and each error.
type parsed struct {
	records []string
	errs    []string
}

func parseBytes(t testing.TB, name string, in []byte) parsed {
	t.Helper()
	r := NewReader(bytes.NewReader(in), name)
	var p parsed
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *Measurement:
			rec.Source.SHA256 = ""
		case *Target:
			rec.Source.SHA256 = ""
		}
		var b bytes.Buffer
		if err := NewJSONWriter(&b).Write(r.Result()); err != nil {
			t.Fatal(err)
		}
		p.records = append(p.records, b.String())
	}
	for _, err := range r.Errs() {
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%s: %T is not a *SyntaxError: %v", name, err, err)
		}
		p.errs = append(p.errs, err.Error())
	}
	return p
}

func (p parsed) String() string {
	return fmt.Sprintf("%d records, errors %q", len(p.records), p.errs)
}

func sameParse(t *testing.T, what string, got, want parsed) {
	t.Helper()
	if strings.Join(got.records, "") != strings.Join(want.records, "") || strings.Join(got.errs, "\n") != strings.Join(want.errs, "\n") {
		t.Errorf("%s: got %v, want %v\nfirst difference: %s", what, got, want,
			firstLineDiff([]byte(strings.Join(got.records, "")), []byte(strings.Join(want.records, ""))))
	}
}

// encodeUTF16 writes text as UTF-16 with a byte order mark.
func encodeUTF16(text []byte, bigEndian bool) []byte {
	units := utf16.Encode([]rune(string(text)))
	out := make([]byte, 0, 2+2*len(units))
	for _, u := range append([]uint16{0xfeff}, units...) {
		if bigEndian {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	return out
}

// TestUTF16 reads every dump written as UTF-16 with a byte order mark, as
// PowerShell's `>` writes it, and finds what the UTF-8 original holds.
func TestUTF16(t *testing.T) {
	for _, name := range goldenDumps(t) {
		in := readFixture(t, name)
		want := parseBytes(t, name, in)
		for _, be := range []bool{false, true} {
			got := parseBytes(t, name, encodeUTF16(in, be))
			sameParse(t, fmt.Sprintf("%s as UTF-16 (big-endian %v)", name, be), got, want)
		}
	}
}

// TestUTF16NoMark names UTF-16 without its byte order mark, with the fix.
func TestUTF16NoMark(t *testing.T) {
	in := readFixture(t, singleRuns[0])
	for _, c := range []struct {
		bigEndian bool
		want      string
	}{
		{false, "x.txt:1: UTF-16LE text without a byte order mark: convert it to UTF-8 (iconv -f UTF-16LE -t UTF-8)"},
		{true, "x.txt:1: UTF-16BE text without a byte order mark: convert it to UTF-8 (iconv -f UTF-16BE -t UTF-8)"},
	} {
		got := parseBytes(t, "x.txt", encodeUTF16(in, c.bigEndian)[2:])
		if len(got.records) != 0 || len(got.errs) != 1 || got.errs[0] != c.want {
			t.Errorf("big-endian %v: got %v, want the error %q", c.bigEndian, got, c.want)
		}
	}
}

// TestUTF16Odd decodes broken UTF-16 without a panic: an odd last byte, a
// lone surrogate.
func TestUTF16Odd(t *testing.T) {
	for _, in := range [][]byte{
		{0xff, 0xfe},
		{0xff, 0xfe, 'a'},
		{0xff, 0xfe, 0x00, 0xd8, 'a', 0},
		{0xfe, 0xff, 0xdc, 0x00, 0, '\n', 0xd8},
	} {
		got := parseBytes(t, "x.txt", in)
		if len(got.records) != 0 || len(got.errs) != 1 {
			t.Errorf("% x: got %v, want one error", in, got)
		}
	}
}

// TestCRLF reads every dump with CRLF line endings as its LF original.
func TestCRLF(t *testing.T) {
	for _, name := range goldenDumps(t) {
		in := readFixture(t, name)
		crlf := bytes.ReplaceAll(in, []byte("\n"), []byte("\r\n"))
		sameParse(t, name+" with CRLF", parseBytes(t, name, crlf), parseBytes(t, name, in))
	}
}

// TestMixedDialects reads two runs of any two dialects written one after
// the other into one file: both are found, at their lines.
func TestMixedDialects(t *testing.T) {
	for _, first := range singleRuns {
		for _, second := range singleRuns {
			a, b := readFixture(t, first), readFixture(t, second)
			if !bytes.HasSuffix(a, []byte("\n")) {
				a = append(a, '\n')
			}
			ms, _, errs := readString("x.txt", string(a)+string(b))
			wantA, _, _ := readString("x.txt", string(a))
			// The second run alone, at the lines it has in the whole file.
			blanks := strings.Repeat("\n", bytes.Count(a, []byte("\n")))
			wantB, _, _ := readString("x.txt", blanks+string(b))
			what := fmt.Sprintf("%s then %s", first, second)
			if len(errs) > 0 || len(ms) != 2 || len(wantA) != 1 || len(wantB) != 1 {
				t.Errorf("%s: %d runs, errors %v", what, len(ms), errs)
				continue
			}
			wantB[0].Order = 2
			checkMeasurement(t, what+": first run", ms[0], clearSource(wantA[0]))
			checkMeasurement(t, what+": second run", ms[1], clearSource(wantB[0]))
		}
	}
}

// clearSource drops what checkMeasurement ignores.
func clearSource(m *Measurement) *Measurement {
	m.Source.File, m.Source.SHA256 = "", ""
	return m
}

// TestNUL reads around NUL bytes: a binary file is refused at line 1, and
// a dump whose tail or middle a crash filled with zeros keeps its runs and
// reports the first binary line.
func TestNUL(t *testing.T) {
	wrk := string(readFixture(t, singleRuns[0]))
	bomb := string(readFixture(t, singleRuns[2]))
	zeros := strings.Repeat("\x00", 4096)
	lines := strings.Count(wrk, "\n")
	line5 := len(strings.Join(strings.SplitAfter(wrk, "\n")[:4], "")) // where line 5 starts
	for _, c := range []struct {
		name, in string
		runs     int
		want     []string
	}{
		{"binary", "\x00\x01\x02\x03garbage\nmore\n", 0, []string{"x.txt:1: binary data, not a load generator dump"}},
		{"zero-filled tail", wrk + zeros, 1, []string{fmt.Sprintf("x.txt:%d: binary data (NUL bytes) in a text dump", lines+1)}},
		{"zeros between runs", wrk + zeros + "\n" + bomb, 2, []string{fmt.Sprintf("x.txt:%d: binary data (NUL bytes)", lines+1)}},
		{"zeros inside a run", wrk[:line5] + zeros + "\n" + wrk[line5:] + bomb, 2, []string{"x.txt:5: binary data (NUL bytes)"}},
		{"NUL lines repeated", wrk + "a\x00b\nc\x00d\n" + bomb, 2, []string{fmt.Sprintf("x.txt:%d: binary data (NUL bytes)", lines+1)}},
		{"cut by zeros", wrk[:line5] + zeros, 0, []string{"x.txt:5: binary data (NUL bytes)", "x.txt:4: wrk output cut short"}},
	} {
		ms, _, errs := readString("x.txt", c.in)
		if len(ms) != c.runs || len(errs) != len(c.want) {
			t.Errorf("%s: %d runs, errors %v; want %d runs, errors %q", c.name, len(ms), errs, c.runs, c.want)
			continue
		}
		for i, err := range errs {
			if !strings.HasPrefix(err.Error(), c.want[i]) {
				t.Errorf("%s: error %d is %q, want it to start %q", c.name, i, err, c.want[i])
			}
		}
	}
}

// repeatReader yields head, then n bytes of fill, then tail, without
// holding them in memory.
type repeatReader struct {
	head, tail []byte
	fill       byte
	n          int64
}

func (r *repeatReader) Read(p []byte) (int, error) {
	switch {
	case len(r.head) > 0:
		n := copy(p, r.head)
		r.head = r.head[n:]
		return n, nil
	case r.n > 0:
		n := int(min(int64(len(p)), r.n))
		for i := range p[:n] {
			p[i] = r.fill
		}
		r.n -= int64(n)
		return n, nil
	case len(r.tail) > 0:
		n := copy(p, r.tail)
		r.tail = r.tail[n:]
		return n, nil
	}
	return 0, io.EOF
}

// TestHugeLine reads past a line longer than any dump has (no carriage
// returns to make it a progress bar), names it, and reads the run after it.
func TestHugeLine(t *testing.T) {
	if testing.Short() {
		t.Skip("a 65 MB line")
	}
	wrk := readFixture(t, singleRuns[0])
	in := &repeatReader{head: []byte("junk: "), fill: 'x', n: maxLine + 1<<20, tail: append([]byte("\n"), wrk...)}
	ms, _, errs := readFrom(NewReader(in, "x.txt"))
	want := "x.txt:1: line longer than 64 MB, not load generator output: skipped"
	if len(ms) != 1 || ms[0].Requests != 48333 || ms[0].Source.LineStart != 2 || len(errs) != 1 || errs[0].Error() != want {
		t.Fatalf("%d runs, errors %v; want 1 run from line 2 and %q", len(ms), errs, want)
	}
}

// TestLongLineFits reads a long line that is not over the limit as it is.
func TestLongLineFits(t *testing.T) {
	json := readFixture(t, "testdata/autocannon-9.0.0__json.json")
	// The same document with 1 MB of blanks before its last brace: one line
	// far longer than the read buffer.
	in := string(json[:len(json)-2]) + strings.Repeat(" ", 1<<20) + string(json[len(json)-2:])
	ms, _, errs := readString("x.txt", in)
	if len(ms) != 1 || len(errs) > 0 || ms[0].Requests != 35376 {
		t.Fatalf("%d runs, errors %v", len(ms), errs)
	}
}

// TestProgressBarMemory reads a 100 MB progress bar keeping only its last
// frame: the line costs no more memory than one read buffer.
func TestProgressBarMemory(t *testing.T) {
	frame := "\r[=================-------------] 3s"
	bar := strings.Repeat(frame, 200_000) + "\r\n" // 7 MB, CRLF ended
	r := &Reader{in: newBufReader(strings.NewReader(bar))}
	raw, long, err := r.readLine()
	if long || err != nil || string(r.logical(raw)) != frame[1:] || cap(raw) > 256<<10 {
		t.Fatalf("line of %d bytes (cap %d), long %v, err %v", len(raw), cap(raw), long, err)
	}
}

// TestCutEverywhere cuts every dump after each of its lines: whatever is
// read has its lines inside the cut, and every problem is a *SyntaxError
// at or before the cut.
func TestCutEverywhere(t *testing.T) {
	for _, name := range goldenDumps(t) {
		in := readFixture(t, name)
		for n, cut := 1, 0; cut < len(in); n++ {
			i := bytes.IndexByte(in[cut:], '\n')
			if i < 0 {
				break
			}
			cut += i + 1
			ms, ts, errs := readFrom(NewReader(bytes.NewReader(in[:cut]), name))
			for _, err := range errs {
				var se *SyntaxError
				if !errors.As(err, &se) || se.Line > n {
					t.Fatalf("%s cut after line %d: error %v", name, n, err)
				}
			}
			for _, m := range ms {
				if m.Source.LineStart < 1 || m.Source.LineEnd > n {
					t.Fatalf("%s cut after line %d: a run at lines %d-%d", name, n, m.Source.LineStart, m.Source.LineEnd)
				}
			}
			for _, tg := range ts {
				if tg.Source.LineEnd > n {
					t.Fatalf("%s cut after line %d: a target at line %d", name, n, tg.Source.LineEnd)
				}
			}
		}
	}
}
