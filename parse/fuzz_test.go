package parse

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// Each reader has a fuzz target seeded from its real dumps. All go through
// NewReader, as the dialect is found from the content; the seeds differ.
// The properties: no panic, every problem a *SyntaxError inside the input's
// lines, every record's lines inside the input, every run's figures in
// range and consistent (validate.go). FuzzHostile adds the hostile inputs
// of issues 8 and 13. CI runs each for a few seconds:
// go test ./parse -run '^$' -fuzz FuzzWrk -fuzztime 5s

func FuzzWrk(f *testing.F) {
	fuzzDumps(f, "testdata/wrk-*", "testdata/wrk__*", "testdata/post-wrk-*")
}
func FuzzWrk2(f *testing.F) { fuzzDumps(f, "testdata/wrk2-*", "testdata/post-wrk2-*") }
func FuzzBombardierText(f *testing.F) {
	fuzzDumps(f, "testdata/bombardier-*.txt", "testdata/bombardier-old*", "testdata/post-bombardier-*")
}
func FuzzBombardierJSON(f *testing.F) { fuzzDumps(f, "testdata/bombardier-*.json") }
func FuzzAutocannonText(f *testing.F) {
	fuzzDumps(f, "testdata/autocannon*.txt", "testdata/post-autocannon-*", "testdata/posts/autocannon-*")
}

// FuzzPost starts from the pasted posts of issue 18: runs among Markdown
// headings, list items, fences, prompts and command lines, tables with
// collapsed padding or ASCII borders and no header.
func FuzzPost(f *testing.F)           { fuzzDumps(f, "testdata/post-*") }
func FuzzAutocannonJSON(f *testing.F) { fuzzDumps(f, "testdata/autocannon*.json") }
func FuzzHarness(f *testing.F) {
	fuzzDumps(f, "testdata/bun/d78d01b/results/*/*.txt", "testdata/bun/ba1520c/results/node/h3.txt")
}

// The vegeta dialects: its text report; its JSON report alone and as a
// run dir's dump (followed by the histogram); its histogram and hdrplot
// reports; its encoded results, CSV and JSON, and gob.
func FuzzVegetaText(f *testing.F) { fuzzDumps(f, "testdata/vegeta-*_text.txt") }
func FuzzVegetaJSON(f *testing.F) {
	fuzzDumps(f, "testdata/vegeta-*_json.json", "testdata/vegeta-*_rundir.txt")
}
func FuzzVegetaHist(f *testing.F) {
	fuzzDumps(f, "testdata/vegeta-*_hist.txt", "testdata/vegeta-*_hdrplot.txt")
}
func FuzzVegetaResults(f *testing.F) {
	// The first lines of the JSON results only: a seed of 400 lines makes
	// the fuzzer crawl.
	results := readFixture(f, "testdata/vegeta-12.13.0__non2xx_results.json")
	f.Add(bytes.Join(bytes.SplitAfterN(results, []byte("\n"), 9)[:8], nil))
	fuzzDumps(f, "testdata/vegeta-*small_results.*")
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
	// Issue 13: a number cut short, numbers out of range.
	wrk := readFixture(f, "testdata/wrk-4.1.0__latency.txt")
	f.Add(wrk[:bytes.Index(wrk, []byte("Requests/sec:"))+16])
	for _, bad := range []string{"500%", "-5%", "NaN%"} {
		f.Add(bytes.Replace(wrk, []byte("99%"), []byte(bad), 1))
	}
	bombardier := readFixture(f, "testdata/bombardier-1.2.6__json_latencies.json")
	for _, r := range [][2]string{
		{`"timeTakenSeconds":1.999799525`, `"timeTakenSeconds":1e308`},
		{`"mean":28561.568037876597`, `"mean":1e308`},
		{`"req2xx":57132`, `"req2xx":-57132`},
	} {
		f.Add(bytes.Replace(bombardier, []byte(r[0]), []byte(r[1]), 1))
	}
	f.Fuzz(checkAnyInput)
}

// FuzzJSONDecode checks the JSON dialects' fast decoders against
// encoding/json, which they stand in for: whatever a fast decoder accepts,
// json.Unmarshal must accept too and decode to the same values. Seeds are
// the JSON documents of every fixture.
func FuzzJSONDecode(f *testing.F) {
	for _, doc := range fixtureJSONDocs(f) {
		f.Add(doc)
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		var fastA, slowA autocannonJSON
		if fastA.decodeFast(doc) {
			if err := json.Unmarshal(doc, &slowA); err != nil {
				t.Fatalf("autocannon: the fast decoder accepts what encoding/json refuses: %v", err)
			}
			if got, want := dumpValue(fastA), dumpValue(slowA); got != want {
				t.Fatalf("autocannon:\nfast %s\nslow %s", got, want)
			}
		}
		var fastB, slowB bombardierJSON
		if fastB.decodeFast(doc) {
			if err := json.Unmarshal(doc, &slowB); err != nil {
				t.Fatalf("bombardier: the fast decoder accepts what encoding/json refuses: %v", err)
			}
			if r := slowB.Result; r != nil && r.Latency != nil {
				ps, err := slowB.latencyPercentiles()
				if err != nil {
					t.Fatalf("bombardier: the fast decoder accepts percentiles the slow path refuses: %v", err)
				}
				r.Latency.Percentiles, slowB.latency = nil, ps
			}
			if got, want := dumpValue(fastB), dumpValue(slowB); got != want {
				t.Fatalf("bombardier:\nfast %s\nslow %s", got, want)
			}
		}
	})
}

// fixtureJSONDocs returns the lines of the fixtures that open a JSON
// document, one document a line as the tools write them.
func fixtureJSONDocs(tb testing.TB) [][]byte {
	tb.Helper()
	names, _ := filepath.Glob("testdata/*_*")
	var docs [][]byte
	for _, name := range names {
		if strings.HasPrefix(filepath.Base(name), "vegeta-") {
			continue // vegeta's JSON is read by encoding/json alone
		}
		body, err := os.ReadFile(name)
		if err != nil {
			tb.Fatal(err)
		}
		for _, line := range bytes.Split(body, []byte("\n")) {
			line = bytes.TrimPrefix(bytes.TrimSpace(line), []byte("\ufeff"))
			if bytes.HasPrefix(line, []byte("{")) {
				docs = append(docs, line)
			}
		}
	}
	return docs
}

// dumpValue prints v with pointers followed, map keys sorted and NaN equal
// to itself, for comparing decoded documents.
func dumpValue(v any) string {
	var b strings.Builder
	dumpReflect(&b, reflect.ValueOf(v))
	return b.String()
}

func dumpReflect(b *strings.Builder, v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		b.WriteString("&")
		dumpReflect(b, v.Elem())
	case reflect.Struct:
		b.WriteString("{")
		for i := 0; i < v.NumField(); i++ {
			fmt.Fprintf(b, "%s:", v.Type().Field(i).Name)
			dumpReflect(b, v.Field(i))
			b.WriteString(" ")
		}
		b.WriteString("}")
	case reflect.Slice:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		b.WriteString("[")
		for i := 0; i < v.Len(); i++ {
			dumpReflect(b, v.Index(i))
			b.WriteString(" ")
		}
		b.WriteString("]")
	case reflect.Map:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		b.WriteString("map[")
		for _, k := range keys {
			fmt.Fprintf(b, "%q:", k.String())
			dumpReflect(b, v.MapIndex(k))
			b.WriteString(" ")
		}
		b.WriteString("]")
	case reflect.Float64:
		b.WriteString(strconv.FormatFloat(v.Float(), 'g', -1, 64))
	case reflect.String:
		b.WriteString(strconv.Quote(v.String()))
	default:
		fmt.Fprint(b, v)
	}
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
		if m.TitleLine < 0 || m.TitleLine > lines || (m.TitleLine > 0) != (m.Title != "") {
			t.Fatalf("title %q at line %d of %d", m.Title, m.TitleLine, lines)
		}
		if m.Settings.URL == FromUnknown && m.URL != "" || m.Settings.Connections == FromUnknown && m.Connections != 0 {
			t.Fatalf("a setting both unknown and set: %+v, url %q, %d connections", m.Settings, m.URL, m.Connections)
		}
		// Every figure in range and consistent: the checks pass again.
		again := *m
		if p := finishMeasurement(&again); len(p) > 0 || again.RPS != m.RPS {
			t.Fatalf("a run read with %v; rps %v then %v", p, m.RPS, again.RPS)
		}
	}
	for _, tg := range ts {
		if tg.Source.LineStart < 1 || tg.Source.LineEnd > lines {
			t.Fatalf("target source %+v of %d lines", tg.Source, lines)
		}
	}
}
