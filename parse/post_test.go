package parse

import (
	"reflect"
	"strings"
	"testing"
)

// postCaptures maps each run of the autocannon posts to the raw capture it
// was made from (testdata/posts/make_posts.py).
var postCaptures = map[string]string{
	"Hono":        "testdata/posts/autocannon-9.0.0__plaintext_Hono.stderr.txt",
	"Express":     "testdata/posts/autocannon-9.0.0__plaintext_Express.stderr.txt",
	"Fastify":     "testdata/posts/autocannon-9.0.0__plaintext_Fastify.stderr.txt",
	"stdlib (Go)": "testdata/posts/autocannon-9.0.0__json_stdlib.stderr.txt",
}

// TestPastedAutocannonMatchesCapture reads each autocannon post and checks
// every number of each run against the capture it was pasted from, read
// whole: collapsed padding, ASCII borders, Markdown tables, indented fences
// and a missing header lose nothing the tables print.
func TestPastedAutocannonMatchesCapture(t *testing.T) {
	for _, post := range []string{
		"testdata/post-autocannon-9.0.0__benchmarking_collapsed.md",
		"testdata/post-autocannon-9.0.0__headings_ascii.md",
		"testdata/post-autocannon-9.0.0__list_fenced_prompt.md",
	} {
		ms, _, errs := readRecords(t, post)
		if len(errs) > 0 {
			t.Errorf("%s: %v", post, errs)
		}
		if len(ms) < 2 {
			t.Fatalf("%s: %d runs, want one per pasted run", post, len(ms))
		}
		for _, m := range ms {
			capture, ok := postCaptures[m.Target]
			if !ok {
				t.Errorf("%s:%d: run named %q, want one of the captures' names", post, m.Source.LineStart, m.Target)
				continue
			}
			raws, _, errs := readRecords(t, capture)
			if len(errs) > 0 || len(raws) != 1 {
				t.Fatalf("%s: %d runs, %v", capture, len(raws), errs)
			}
			if got, want := printedNumbers(m), printedNumbers(raws[0]); !reflect.DeepEqual(got, want) {
				t.Errorf("%s:%d (%s):\n got %+v\nwant %+v", post, m.Source.LineStart, m.Target, got, want)
			}
		}
	}
}

// printedNumbers is what autocannon's tables and summary line print.
func printedNumbers(m *Measurement) Measurement {
	return Measurement{
		Latency: m.Latency, RPS: m.RPS, RPSStdev: m.RPSStdev, RPSMin: m.RPSMin, RPSMax: m.RPSMax,
		RPSPercentiles: m.RPSPercentiles, BytesPerSec: m.BytesPerSec, BytesPerSecSamples: m.BytesPerSecSamples,
		Requests: m.Requests, RequestsSent: m.RequestsSent, Duration: m.Duration, BytesRead: m.BytesRead,
	}
}

// TestPastedSettings checks what each post says of each run's settings,
// and where it says it: nothing the post leaves out is filled in.
func TestPastedSettings(t *testing.T) {
	unknown := SettingSources{URL: FromUnknown, Connections: FromUnknown, Threads: FromUnknown, Pipelining: FromUnknown, Duration: FromUnknown}
	titled := unknown
	titled.URL = FromTitle
	printed := SettingSources{URL: FromPrinted, Connections: FromPrinted, Threads: FromPrinted, Pipelining: FromPrinted, Duration: FromPrinted}
	command := SettingSources{URL: FromCommand, Connections: FromCommand, Threads: FromCommand, Pipelining: FromCommand, Duration: FromCommand}
	wrk := SettingSources{URL: FromPrinted, Connections: FromPrinted, Threads: FromPrinted, Pipelining: FromCommand, Duration: FromPrinted}
	bombardier := SettingSources{URL: FromPrinted, Connections: FromPrinted, Duration: FromPrinted}
	type run struct {
		target, url      string
		conns, pipelined int
		title            int
		from             SettingSources
	}
	for _, c := range []struct {
		post string
		runs []run
	}{
		{"testdata/post-autocannon-9.0.0__benchmarking_collapsed.md", []run{
			{"Hono", "http://127.0.0.1:3102", 0, 0, 3, titled},
			{"Express", "http://127.0.0.1:3103", 0, 0, 19, titled},
			{"Fastify", "http://127.0.0.1:3104", 0, 0, 35, titled},
		}},
		{"testdata/post-autocannon-9.0.0__headings_ascii.md", []run{
			{"Hono", "", 0, 0, 5, unknown},
			{"Express", "", 0, 0, 29, unknown},
			{"Fastify", "", 0, 0, 44, unknown},
		}},
		{"testdata/post-autocannon-9.0.0__list_fenced_prompt.md", []run{
			{"stdlib (Go)", "http://127.0.0.1:3101/json", 100, 10, 3, printed},
			{"Hono", "http://127.0.0.1:3102/plaintext", 100, 10, 29, command},
		}},
		{"testdata/post-wrk-4.1.0__fenced_prompt.md", []run{
			{"wrk", "http://127.0.0.1:3101/plaintext", 64, 0, 1, wrk},
			{"With the latency distribution", "http://127.0.0.1:3102/json", 64, 0, 15, wrk},
		}},
		{"testdata/post-wrk2-4.0.0__fenced_prompt.md", []run{
			{"", "http://127.0.0.1:18080/", 10, 0, 0, wrk},
		}},
		{"testdata/post-bombardier-1.2.6__fenced_prompt.md", []run{
			{"", "http://127.0.0.1:3101/plaintext", 64, 0, 0, bombardier},
			{"", "http://127.0.0.1:3104/json", 125, 0, 0, bombardier},
		}},
	} {
		ms, _, errs := readRecords(t, c.post)
		if len(errs) > 0 {
			t.Errorf("%s: %v", c.post, errs)
		}
		if len(ms) != len(c.runs) {
			t.Fatalf("%s: %d runs, want %d", c.post, len(ms), len(c.runs))
		}
		for i, want := range c.runs {
			m := ms[i]
			got := run{m.Target, m.URL, m.Connections, m.Pipelining, m.TitleLine, m.Settings}
			if got != want {
				t.Errorf("%s run %d:\n got %+v\nwant %+v", c.post, i+1, got, want)
			}
		}
	}
}

// TestFenceEndsRun checks that a closing fence ends a run cut short and
// that the next fence's run is read on its own.
func TestFenceEndsRun(t *testing.T) {
	post := "### A\n```\n" +
		"│ Stat │ 2.5% │ 50% │ 97.5% │ 99% │ Avg │ Stdev │ Max │\n" +
		"│ Latency │ 5 ms │ 6 ms │ 11 ms │ 13 ms │ 6.63 ms │ 1.4 ms │ 30 ms │\n" +
		"```\n\nSome prose.\n\n- B:\n```\n$ wrk -t2 -c8 -d1s http://127.0.0.1:1/\n" +
		"Running 1s test @ http://127.0.0.1:1/\n  2 threads and 8 connections\n" +
		"  Thread Stats   Avg      Stdev     Max   +/- Stdev\n" +
		"    Latency     1.00ms    0.50ms   3.00ms   90.00%\n" +
		"    Req/Sec     4.00k     0.10k    4.10k    50.00%\n" +
		"  8000 requests in 1.00s, 1.00MB read\nRequests/sec:   8000.00\n```\n"
	ms, _, errs := readString("post.md", post)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if len(ms) != 2 {
		t.Fatalf("%d runs, want 2", len(ms))
	}
	if a := ms[0]; a.Target != "A" || a.Source.LineEnd != 4 || a.Latency.Max != 30e6 || len(a.Warnings) != 1 {
		t.Errorf("first run: target %q, lines to %d, max %v, warnings %q", a.Target, a.Source.LineEnd, a.Latency.Max, a.Warnings)
	}
	if b := ms[1]; b.Target != "B" || b.Connections != 8 || b.Source.LineStart != 11 || b.RPS != 8000 {
		t.Errorf("second run: target %q, %d connections, from line %d, %v req/s", b.Target, b.Connections, b.Source.LineStart, b.RPS)
	}
}

// TestTitleLines checks which lines name runs.
func TestTitleLines(t *testing.T) {
	for _, c := range []struct {
		line, name, url string
	}{
		{"🔬 Benchmarking Hono at http://localhost:3003", "Hono", "http://localhost:3003"},
		{"Benchmarking **Elysia** at http://localhost:3000/...", "Elysia", "http://localhost:3000/"},
		{"Benchmarking Bun.serve", "Bun.serve", ""},
		{"### Express (Node 20)", "Express (Node 20)", ""},
		{"## `fastify` ##", "fastify", ""},
		{"- **Koa**:", "Koa", ""},
		{"2. Hono on Bun", "Hono on Bun", ""},
		{"# of samples: 10", "", ""},
		{"#!/bin/sh", "", ""},
		{"-c 100", "", ""},
		{"Req/Bytes counts sampled once per second.", "", ""},
	} {
		var p postContext
		p.see(line{text: c.line, num: 1})
		got, _ := p.title()
		if got.name != c.name || got.url != c.url {
			t.Errorf("%q: name %q url %q, want %q %q", c.line, got.name, got.url, c.name, c.url)
		}
	}
}

// TestCommandLineSettings checks what a command line before a run adds
// and what it leaves: wrk's pipeline scripts take their depth after "--",
// another script leaves pipelining unknown, and a command line never
// overrides what the tool printed.
func TestCommandLineSettings(t *testing.T) {
	wrkOut := "Running 1s test @ http://127.0.0.1:1/\n  2 threads and 8 connections\n" +
		"  Thread Stats   Avg      Stdev     Max   +/- Stdev\n" +
		"    Latency     1.00ms    0.50ms   3.00ms   90.00%\n" +
		"    Req/Sec     4.00k     0.10k    4.10k    50.00%\n" +
		"  8000 requests in 1.00s, 1.00MB read\nRequests/sec:   8000.00\nTransfer/sec:      1.00MB\n"
	acOut := "Running 1s test @ http://127.0.0.1:1/\n8 connections\n\n" +
		"│ Stat │ 2.5% │ 50% │ 97.5% │ 99% │ Avg │ Stdev │ Max │\n" +
		"│ Latency │ 5 ms │ 6 ms │ 11 ms │ 13 ms │ 6.63 ms │ 1.4 ms │ 30 ms │\n" +
		"1k requests in 1.01s, 179 kB read\n"
	for _, c := range []struct {
		name, in   string
		pipelining int
		from       string
	}{
		{"wrk pipeline script", "$ wrk -t2 -c8 -d1s -s pipeline.lua http://127.0.0.1:1/ -- 16\n" + wrkOut, 16, FromCommand},
		{"wrk other script", "$ wrk -t2 -c8 -d1s -s post.lua http://127.0.0.1:1/\n" + wrkOut, 0, FromUnknown},
		{"wrk no script", "$ wrk -t2 -c8 -d1s http://127.0.0.1:1/\n" + wrkOut, 0, FromCommand},
		{"wrk no command", wrkOut, 0, ""},
		{"autocannon printed wins", "$ autocannon -c 8 -d 1 -p 10 http://127.0.0.1:1/\n" + acOut, 0, FromPrinted},
	} {
		ms, _, errs := readString("post.md", c.in)
		if len(errs) > 0 || len(ms) != 1 {
			t.Fatalf("%s: %d runs, %v", c.name, len(ms), errs)
		}
		if m := ms[0]; m.Pipelining != c.pipelining || m.Settings.Pipelining != c.from {
			t.Errorf("%s: pipelining %d from %q, want %d from %q", c.name, m.Pipelining, m.Settings.Pipelining, c.pipelining, c.from)
		}
	}
}

// TestCommandContinues reads a command line that goes on over lines ending
// in a backslash, before a run pasted without its header.
func TestCommandContinues(t *testing.T) {
	post := readFixture(t, "testdata/post-autocannon-9.0.0__benchmarking_collapsed.md")
	lines := strings.Split(string(post), "\n")
	in := "```\n$ autocannon -c 100 \\\n    -d 3 -p 10 \\\n  http://127.0.0.1:3102/plaintext\n" + strings.Join(lines[3:18], "\n") + "\n```\n"
	ms, _, errs := readString("post.md", in)
	if len(errs) > 0 || len(ms) != 1 {
		t.Fatalf("%d runs, %v", len(ms), errs)
	}
	m := ms[0]
	got := []any{m.URL, m.Connections, m.Pipelining, m.Window.Seconds(), m.Settings.URL, m.Settings.Pipelining, m.Source.LineStart}
	want := []any{"http://127.0.0.1:3102/plaintext", 100, 10, 3.0, FromCommand, FromCommand, 2}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
