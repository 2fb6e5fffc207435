package parse

import (
	"github.com/fairbench/fairbench/parse/rundir"
	"strings"
	"testing"
	"time"
)

func TestBombardierJSON(t *testing.T) {
	dir, err := rundir.OpenRoot("testdata")
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	ms, errs := readMeasurements(dir, "bombardier-1.2.6__json_latencies.json")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if len(ms) != 1 {
		t.Fatalf("got %d measurements, want 1", len(ms))
	}
	m := ms[0]
	checks := []struct {
		name      string
		got, want any
	}{
		{"tool", m.Tool, ToolBombardier},
		{"connections", m.Connections, 10},
		{"window", m.Window, 2 * time.Second},
		{"duration", m.Duration, 1999799525 * time.Nanosecond},
		{"requests", m.Requests, int64(57132)},
		{"2xx", m.Status.C2xx, int64(57132)},
		{"rps", m.ToolRPS, 28561.568037876597},
		{"bytes read", m.BytesRead, int64(7370028)},
		{"latency max", m.Latency.Max, 13956 * time.Microsecond},
		{"p99", m.Latency.Percentiles[4], Percentile{P: 99, Value: 2638 * time.Microsecond}},
		{"percentiles", len(m.Latency.Percentiles), 5},
		{"line", m.Source.LineStart, 1},
		{"sha", len(m.Source.SHA256), 64},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

func TestReaderEmptyAndBinary(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "x.txt: empty file"},
		{"\x00\x01\x02", "x.txt:1: binary data"},
		{"hello\nworld\n", "x.txt: no load generator output"},
		{`{"spec":{"numberOfConnections":1},"result":`, "x.txt:1: JSON document cut short"},
	} {
		r := NewReader(strings.NewReader(c.in), "x.txt")
		for r.Scan() {
		}
		if err := r.Err(); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: err = %v, want prefix %q", c.in, err, c.want)
		}
	}
}
