package parse

import (
	"strings"
	"testing"
	"time"
)

func TestBombardierText(t *testing.T) {
	for _, c := range []struct {
		file string
		want *Measurement
	}{
		{"testdata/bombardier-1.2.6__latencies.txt", &Measurement{
			Tool: ToolBombardier, Order: 1, URL: "http://127.0.0.1:18080/", Connections: 10, Window: 2 * time.Second,
			Requests: 56103, ToolRPS: 28063.38, RPSStdev: 7151.48, RPSMax: 45257.71,
			BytesPerSec: 5.14 * (1 << 20), BytesPerSecCountsWrites: true,
			Latency: Latency{Mean: 353950 * time.Nanosecond, Stdev: 444700 * time.Nanosecond, Max: 19180 * us,
				Percentiles: []Percentile{{50, 260 * us}, {75, 407 * us}, {90, 601 * us}, {95, 845 * us}, {99, 2280 * us}}},
			Status: StatusCounts{Known: true, C2xx: 56103},
			Source: Source{LineStart: 1, LineEnd: 16},
		}},
		{"testdata/bombardier-1.2.6__no_responses_hang.txt", &Measurement{
			Tool: ToolBombardier, Order: 1, Requests: 4, ToolRPS: 0, RPSStdev: 0.02, RPSMax: 0.17,
			BytesPerSec: 50.39, BytesPerSecCountsWrites: true,
			Latency: Latency{Mean: 25 * time.Second, Stdev: 139210 * time.Nanosecond, Max: 25 * time.Second,
				Percentiles: []Percentile{{50, 25 * time.Second}, {75, 25 * time.Second}, {90, 25 * time.Second}, {95, 25 * time.Second}, {99, 25 * time.Second}}},
			Status: StatusCounts{Known: true, Other: 4},
			Errors: Errors{Timeout: 4, Messages: []ErrorMessage{{"timeout", 4}}},
			Source: Source{LineStart: 1, LineEnd: 15},
		}},
		{"testdata/bombardier-1.2.6__http1_timeouts.txt", &Measurement{
			Tool: ToolBombardier, Order: 1, Requests: 52, ToolRPS: 17.27, RPSStdev: 111.28, RPSMax: 927.01,
			BytesPerSec: 2.95 * (1 << 10), BytesPerSecCountsWrites: true,
			Latency: Latency{Mean: 347010 * us, Stdev: 467150 * us, Max: time.Second,
				Percentiles: []Percentile{{50, 1130 * us}, {75, time.Second}, {90, time.Second}, {95, time.Second}, {99, time.Second}}},
			Status: StatusCounts{Known: true, C2xx: 34, Other: 18},
			Errors: Errors{Timeout: 18, Messages: []ErrorMessage{{`Get "http://127.0.0.1:18084/": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`, 18}}},
			Source: Source{LineStart: 1, LineEnd: 15},
		}},
		{"testdata/bombardier-1.2.6__counted_n.txt", &Measurement{
			Tool: ToolBombardier, Order: 1, URL: "http://127.0.0.1:18080/", Connections: 5,
			Requests: 2000, ToolRPS: 19144.70, RPSStdev: 1470.30, RPSMax: 20230.59,
			BytesPerSec: 3.49 * (1 << 20), BytesPerSecCountsWrites: true,
			Latency: Latency{Mean: 258130 * time.Nanosecond, Stdev: 220870 * time.Nanosecond, Max: 5400 * us,
				Percentiles: []Percentile{{50, 218 * us}, {75, 301 * us}, {90, 418 * us}, {95, 542 * us}, {99, 950 * us}}},
			Status: StatusCounts{Known: true, C2xx: 2000},
			Source: Source{LineStart: 1, LineEnd: 16},
		}},
	} {
		got, _, errs := readRecords(t, c.file)
		if len(errs) > 0 || len(got) != 1 {
			t.Errorf("%s: %d measurements, errors %v", c.file, len(got), errs)
			continue
		}
		checkMeasurement(t, c.file, got[0], c.want)
	}
}

func TestBombardierTextVariants(t *testing.T) {
	for _, c := range []struct {
		file     string
		runs     int
		requests int64 // of the first run
		rps      float64
		conns    int
		window   time.Duration
	}{
		{"testdata/bombardier-1.2.6__tty_default.txt", 1, 76804, 25619.46, 10, 3 * time.Second}, // CRLF, TTY bar
		{"testdata/bombardier-1.2.6__default.txt", 1, 55322, 27650.61, 10, 2 * time.Second},
		{"testdata/bombardier-old__MaksimTsyba-bombardier__README.md", 2, 10000000, 264560, 125, 0},
		{"testdata/bombardier-old__darlanmoraes-spring-boot-jersey-data-rx-java__README.md", 10, 1000000, 11669, 100, 0},
		{"testdata/bombardier-1.2.6__json_default_print.txt", 1, 57469, 28717.739916401264, 10, 2 * time.Second}, // intro, bar, JSON
	} {
		got, _, errs := readRecords(t, c.file)
		if len(errs) > 0 || len(got) != c.runs {
			t.Errorf("%s: %d runs, want %d; errors %v", c.file, len(got), c.runs, errs)
			continue
		}
		m := got[0]
		if m.Requests != c.requests || m.ToolRPS != c.rps || m.Connections != c.conns || m.Window != c.window {
			t.Errorf("%s: requests %d rps %v connections %d window %v", c.file, m.Requests, m.ToolRPS, m.Connections, m.Window)
		}
	}
}

func TestBombardierTextErrors(t *testing.T) {
	dump := strings.Join([]string{
		"Statistics        Avg      Stdev        Max",
		"  There wasn't enough data to compute statistics for requests.",
		"  There wasn't enough data to compute statistics for latencies.",
		"  HTTP codes:",
		"    1xx - 0, 2xx - 0, 3xx - 0, 4xx - 0, 5xx - 0",
		"    others - 9",
		"  Errors:",
		"    read tcp 127.0.0.1:56580->127.0.0.1:3000: i/o timeout - 1",
		"    a message - with dashes - inside - 3",
		"    a message on",
		"two lines - 4",
		"       timeout - 1",
		"  Throughput:       0.00/s",
	}, "\n")
	got, _, errs := readString("x.txt", dump)
	if len(errs) > 0 || len(got) != 1 {
		t.Fatalf("%d measurements, errors %v", len(got), errs)
	}
	m := got[0]
	want := []ErrorMessage{
		{"read tcp 127.0.0.1:56580->127.0.0.1:3000: i/o timeout", 1},
		{"a message - with dashes - inside", 3},
		{"a message on\ntwo lines", 4},
		{"timeout", 1},
	}
	if len(m.Errors.Messages) != len(want) {
		t.Fatalf("messages %+v", m.Errors.Messages)
	}
	for i := range want {
		if m.Errors.Messages[i] != want[i] {
			t.Errorf("message %d = %+v, want %+v", i, m.Errors.Messages[i], want[i])
		}
	}
	if m.Errors.Timeout != 2 || m.Errors.Other != 7 || m.Requests != 9 {
		t.Errorf("timeouts %d other %d requests %d", m.Errors.Timeout, m.Errors.Other, m.Requests)
	}
}
