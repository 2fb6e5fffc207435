package parse

import (
	"errors"
	"io"
	"os"
	"strings"
	"testing"
)

// TestBadInput checks that damaged dumps give a *SyntaxError naming the
// file and line, keep what could be read, and never panic.
func TestBadInput(t *testing.T) {
	wrk, _ := os.ReadFile("testdata/wrk-4.1.0__latency.txt")
	ac, _ := os.ReadFile("testdata/autocannon-9.0.0__latency_table.txt")
	bomb, _ := os.ReadFile("testdata/bombardier-1.2.6__latencies.txt")
	lines := func(b []byte, n int) string { return strings.Join(strings.SplitN(string(b), "\n", n+1)[:n], "\n") }
	for _, c := range []struct {
		name, in string
		runs     int
		want     string // prefix of the first error, "" for none
	}{
		{"empty", "", 0, "x.txt: empty file"},
		{"blank lines", "\n \n\t\n", 0, "x.txt: empty file"},
		{"binary", "\x7fELF\x02\x01\x00\x00garbage", 0, "x.txt:1: binary data"},
		{"prose", "# results\nsome text\n", 0, "x.txt: no load generator output"},
		{"wrk cut after stats", lines(wrk, 5), 0, `x.txt:5: wrk output cut short: no "N requests in …" line`},
		{"wrk cut before Requests/sec", lines(wrk, 11), 0, `x.txt:11: wrk output cut short: no "Requests/sec:" line`},
		{"wrk header only", "Running 2s test @ http://h/\n", 0, `x.txt:1: "Running … @ …" is not followed`},
		{"wrk bad number", strings.Replace(string(wrk), "787.98us", "78x.98us", 1), 1, `x.txt:4: wrk: latency "78x.98us" is not a duration`},
		{"wrk then a good run", lines(wrk, 6) + "\n" + string(wrk), 1, "x.txt:6: wrk output cut short"},
		{"wrk CRLF", strings.ReplaceAll(string(wrk), "\n", "\r\n"), 1, ""},
		{"autocannon cut mid-table", lines(ac, 12), 0, `x.txt:12: autocannon output cut short`},
		{"autocannon bad cell", strings.Replace(string(ac), "13,263  │ 13,263", "13,263  │ many  ", 1), 1, `x.txt:13: autocannon: Req/Sec 2.5% cell "many" is not a number`},
		{"bombardier cut mid-table", lines(bomb, 12), 0, `x.txt:12: bombardier output cut short: no "Throughput:" line`},
		{"bombardier intro only", "Bombarding http://h/ for 10s using 5 connection(s)\n", 0, "x.txt:1: bombardier output cut short before its Statistics"},
		{"bombardier bad codes", strings.Replace(string(bomb), "2xx - 56103", "2xx - lots", 1), 0, `x.txt:14: bombardier: "1xx - 0, 2xx - lots`},
		{"harness bad fact", "Bundle: big\n", 0, `x.txt:1: size "big" is not a number of bytes`},
		{"harness odd result", "Reqs/sec    12.5,abc\n", 0, `x.txt:1: harness result`},
		{"JSON cut", `{"url":"u","latency":{"mean":1},"requests":{"total":`, 0, "x.txt:1: JSON document cut short"},
		{"JSON wrong type", `{"url":1,"latency":{},"requests":{},"throughput":{}}`, 0, "x.txt:1: autocannon JSON: json: cannot unmarshal"},
	} {
		ms, _, errs := readString("x.txt", c.in)
		if len(ms) != c.runs {
			t.Errorf("%s: %d runs, want %d (errors %v)", c.name, len(ms), c.runs, errs)
		}
		switch {
		case c.want == "" && len(errs) > 0:
			t.Errorf("%s: unexpected errors %v", c.name, errs)
		case c.want != "" && (len(errs) == 0 || !strings.HasPrefix(errs[0].Error(), c.want)):
			t.Errorf("%s: errors %v, want first to start %q", c.name, errs, c.want)
		case c.want != "":
			var se *SyntaxError
			if !errors.As(errs[0], &se) {
				t.Errorf("%s: %T is not a *SyntaxError", c.name, errs[0])
			}
		}
	}
}

// progressReader yields a bombardier dump whose progress bar is size bytes
// of CR-separated frames on one line, without holding it in memory.
type progressReader struct {
	head, tail string
	left       int64
	frame      string
	stage      int
}

func (p *progressReader) Read(b []byte) (int, error) {
	switch {
	case p.stage == 0:
		p.stage = 1
		return copy(b, p.head), nil
	case p.left > 0:
		n := 0
		for n+len(p.frame) <= len(b) && p.left > 0 {
			n += copy(b[n:], p.frame)
			p.left -= int64(len(p.frame))
		}
		if n == 0 {
			n = copy(b, p.frame[:1])
			p.left--
		}
		return n, nil
	case p.stage == 1:
		p.stage = 2
		return copy(b, p.tail), nil
	}
	return 0, io.EOF
}

// TestHugeFile reads a 100 MB dump: one progress-bar line larger than the
// longest line kept (maxLine), then the result.
func TestHugeFile(t *testing.T) {
	if testing.Short() {
		t.Skip("100 MB")
	}
	body, _ := os.ReadFile("testdata/bombardier-1.2.6__latencies.txt")
	head, tail, _ := strings.Cut(string(body), "\n")
	_, tail, _ = strings.Cut(tail, "\n") // drop the original bar
	p := &progressReader{head: head + "\n", tail: "\n" + tail, left: 100 << 20,
		frame: "\r[=========================================---------------------] 3s"}
	ms, _, errs := readFrom(NewReader(p, "huge.txt"))
	if len(errs) > 0 || len(ms) != 1 || ms[0].Requests != 56103 || ms[0].Source.LineEnd != 16 {
		t.Fatalf("%d runs, errors %v", len(ms), errs)
	}
}
