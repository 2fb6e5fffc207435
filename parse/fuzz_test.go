package parse

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Each reader has a fuzz target seeded from its real dumps. All go through
// NewReader, as the dialect is found from the content; the seeds differ.
// The properties: no panic, every problem a *SyntaxError inside the input's
// lines, every record's lines inside the input. FuzzHostile adds the
// hostile inputs of issue 8. CI runs each for a few seconds:
// go test ./parse -run '^$' -fuzz FuzzWrk -fuzztime 5s

func FuzzWrk(f *testing.F)  { fuzzDumps(f, "testdata/wrk-*", "testdata/wrk__*") }
func FuzzWrk2(f *testing.F) { fuzzDumps(f, "testdata/wrk2-*") }
func FuzzBombardierText(f *testing.F) {
	fuzzDumps(f, "testdata/bombardier-*.txt", "testdata/bombardier-old*")
}
func FuzzBombardierJSON(f *testing.F) { fuzzDumps(f, "testdata/bombardier-*.json") }
func FuzzAutocannonText(f *testing.F) { fuzzDumps(f, "testdata/autocannon*.txt") }
func FuzzAutocannonJSON(f *testing.F) { fuzzDumps(f, "testdata/autocannon*.json") }
func FuzzHarness(f *testing.F) {
	fuzzDumps(f, "testdata/bun/d78d01b/results/*/*.txt", "testdata/bun/ba1520c/results/node/h3.txt")
}

// FuzzHostile starts from what issue 8 lists: dumps as UTF-16 with and
// without a byte order mark, with CRLF endings, two dialects in one file,
// NUL bytes where a crash left them.
func FuzzHostile(f *testing.F) {
	var runs [][]byte
	for _, name := range singleRuns {
		runs = append(runs, readFixture(f, name))
	}
	for i, run := range runs {
		next := runs[(i+1)%len(runs)]
		f.Add(encodeUTF16(run, i%2 == 0))
		f.Add(encodeUTF16(run, i%2 == 1)[2:])
		f.Add(bytes.ReplaceAll(run, []byte("\n"), []byte("\r\n")))
		f.Add(append(append(append([]byte(nil), run...), '\n'), next...))
		f.Add(append(append(append([]byte(nil), run[:len(run)/2]...), make([]byte, 64)...), next...))
	}
	f.Fuzz(checkAnyInput)
}

func fuzzDumps(f *testing.F, globs ...string) {
	for _, g := range globs {
		names, _ := filepath.Glob(g)
		for _, name := range names {
			b, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Fuzz(checkAnyInput)
}

// checkAnyInput reads in and checks what any input must give.
func checkAnyInput(t *testing.T, in []byte) {
	lines := bytes.Count(in, []byte("\n")) + 1
	ms, ts, errs := readFrom(NewReader(bytes.NewReader(in), "f.txt"))
	for _, err := range errs {
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("%T is not a *SyntaxError: %v", err, err)
		}
		if se.File != "f.txt" || se.Line < 0 || se.Line > lines {
			t.Fatalf("error names %s:%d of %d lines", se.File, se.Line, lines)
		}
	}
	for _, m := range ms {
		s := m.Source
		if s.LineStart < 1 || s.LineEnd < s.LineStart || s.LineEnd > lines || len(s.SHA256) != 64 {
			t.Fatalf("source %+v of %d lines", s, lines)
		}
	}
	for _, tg := range ts {
		if tg.Source.LineStart < 1 || tg.Source.LineEnd > lines {
			t.Fatalf("target source %+v of %d lines", tg.Source, lines)
		}
	}
}
