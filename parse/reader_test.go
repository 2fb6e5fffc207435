package parse

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/fairbench/fairbench/parse/rundir"
)

// TestMayStart checks the reader's filter against every line of every
// dump: a line it lets pass without a string must be one that no starter
// acts on, as a block or as context.
func TestMayStart(t *testing.T) {
	for _, name := range goldenDumps(t) {
		r := &Reader{in: newBufReader(bytes.NewReader(readFixture(t, name)))}
		for num := 1; ; num++ {
			raw, _, err := r.readLine()
			text := r.logical(raw)
			if !mayStart(bytes.TrimSpace(text)) {
				ctx := newContext(name)
				l := line{text: string(text), num: num}
				for i, start := range starters {
					if b := start(&ctx, l); b != nil {
						t.Errorf("%s:%d: starter %d takes %q, which mayStart skips", name, num, i, text)
					}
				}
				if !reflect.DeepEqual(ctx, newContext(name)) {
					t.Errorf("%s:%d: %q changes the context, and mayStart skips it", name, num, text)
				}
			}
			if err != nil {
				break
			}
		}
	}
}

// TestLogical checks what a terminal would show of a physical line.
func TestLogical(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{"plain\n", "plain"},
		{"crlf\r\n", "crlf"},
		{"\r[==  ] 1s\r[====] 2s\n", "[====] 2s"},
		{"\r[==  ] 1s\r[====] 2s\r\r\n", "[====] 2s"},
		{"\x1b[32mgreen\x1b[0m ok\n", "green ok"},
		{"no newline", "no newline"},
		{"\n", ""},
	} {
		var r Reader
		if got := string(r.logical([]byte(c.raw))); got != c.want {
			t.Errorf("logical(%q) = %q, want %q", c.raw, got, c.want)
		}
	}
}

// TestSHA256 checks that a dump hashed whole gets the sum the
// streaming Reader records in its sources, the pair a dump page compares.
func TestSHA256(t *testing.T) {
	if got, want := rundir.SHA256(nil), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"; got != want {
		t.Errorf("rundir.SHA256(nil) = %s, want %s", got, want)
	}
	checked := 0
	for _, name := range goldenDumps(t) {
		b := readFixture(t, name)
		r := NewReader(bytes.NewReader(b), name)
		for r.Scan() {
			if m, ok := r.Result().(*Measurement); ok {
				if m.Source.SHA256 != rundir.SHA256(b) {
					t.Errorf("%s: Reader recorded %s, rundir.SHA256 %s", name, m.Source.SHA256, rundir.SHA256(b))
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no measurement read from the golden dumps")
	}
}
