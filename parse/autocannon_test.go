package parse

import (
	"strings"
	"testing"
	"time"
)

func TestAutocannonText(t *testing.T) {
	lat := func(ms ...time.Duration) []Percentile {
		ps := []float64{2.5, 50, 97.5, 99}
		var out []Percentile
		for i, v := range ms {
			out = append(out, Percentile{ps[i], v})
		}
		return out
	}
	for _, c := range []struct {
		file string
		want *Measurement
	}{
		{"testdata/autocannon-9.0.0__default.txt", &Measurement{
			Tool: ToolAutocannon, Order: 1, URL: "http://127.0.0.1:18080/", Connections: 10, Window: 2 * time.Second,
			Duration: 2020 * ms, Requests: 35000, RequestsSent: 35000, ToolRPS: 17674, RPSStdev: 2430, RPSMin: 15245,
			RPSPercentiles: []RatePercentile{{1, 15247}, {2.5, 15247}, {50, 15247}, {97.5, 20111}},
			BytesRead:      4560000, BytesPerSec: 2280000,
			Latency:  Latency{Mean: 190 * us, Stdev: 600 * us, Max: 20 * ms, Percentiles: lat(0, 0, ms, 2*ms)},
			Warnings: []string{"testdata/autocannon-9.0.0__default.txt:21: autocannon rounds its text counts to thousands (35k requests sent); run it with --json for exact counts"},
			Source:   Source{LineStart: 1, LineEnd: 21},
		}},
		{"testdata/autocannon-9.0.0__timeouts.txt", &Measurement{
			Tool: ToolAutocannon, Order: 1, URL: "http://127.0.0.1:18084/", Connections: 10, Window: 3 * time.Second,
			Duration: 3020 * ms, Requests: 90, RequestsSent: 90, ToolRPS: 20, RPSStdev: 1.42, RPSMin: 19,
			RPSPercentiles: []RatePercentile{{1, 19}, {2.5, 19}, {50, 19}, {97.5, 22}},
			BytesRead:      7260, BytesPerSec: 2420,
			Latency: Latency{Mean: 2350 * us, Stdev: 5020 * us, Max: 17 * ms, Percentiles: lat(0, 0, 16*ms, 17*ms)},
			Errors:  Errors{Timeout: 20},
			Source:  Source{LineStart: 1, LineEnd: 22},
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

func TestAutocannonTextVariants(t *testing.T) {
	for _, c := range []struct {
		file                         string
		sent                         int64
		rps                          float64
		pcts                         int
		pipelining, workers          int
		non2xx, c3xx, errs, mismatch int64
	}{
		{"testdata/autocannon-9.0.0__latency_table.txt", 35000, 17410, 15, 0, 0, 0, 0, 0, 0},
		{"testdata/autocannon-9.0.0__tty_default.txt", 27000, 13670, 15, 0, 0, 20508, 0, 0, 0}, // ANSI + CRLF
		{"testdata/autocannon-9.0.0__status_codes_mixed.txt", 29000, 14672, 4, 0, 0, 22011, 7337, 0, 0},
		{"testdata/autocannon-9.0.0__amount_pipelining.txt", 5000, 4954, 4, 10, 0, 0, 0, 0, 0},
		{"testdata/autocannon-9.0.0__workers.txt", 25000, 12718, 4, 0, 2, 0, 0, 0, 0},
		{"testdata/autocannon-9.0.0__expect_body_mismatch.txt", 26000, 12808, 4, 0, 0, 0, 0, 0, 26000},
		{"testdata/autocannon-9.0.0__conn_refused.txt", 12000, 0, 4, 0, 0, 0, 0, 12000, 0},
		{"testdata/autocannon-9.0.0__verbose_false.txt", 30000, 0, 0, 0, 0, 29541, 0, 0, 0},
		{"testdata/autocannon__JcDieguez-Nginx__autocannon.txt", 166000, 0, 4, 0, 0, 0, 0, 166000, 0}, // PowerShell, trailing spaces
	} {
		got, _, errs := readRecords(t, c.file)
		if len(errs) > 0 || len(got) != 1 {
			t.Errorf("%s: %d measurements, errors %v", c.file, len(got), errs)
			continue
		}
		m := got[0]
		if m.RequestsSent != c.sent || m.ToolRPS != c.rps || len(m.Latency.Percentiles) != c.pcts || m.Pipelining != c.pipelining ||
			m.Threads != c.workers || m.Status.Non2xx != c.non2xx || m.Status.C3xx != c.c3xx || m.Errors.Total() != c.errs || m.Errors.Mismatches != c.mismatch {
			t.Errorf("%s: got %s", c.file, dumpFields(m))
		}
	}
}

func TestAutocannonLocaleAndPlainTable(t *testing.T) {
	dump := strings.Join([]string{
		"Running 10s test @ http://localhost:3000/",
		"100 connections with 10 pipelining factor",
		"",
		"| Stat    | 2.5% | 50%  | 97.5% | 99%  | Avg     | Stdev   | Max   |",
		"|---------|------|------|-------|------|---------|---------|-------|",
		"| Latency | 1 ms | 2 ms | 5 ms  | 9 ms | 2.5 ms  | 1.01 ms | 1440 ms |",
		"| Stat      | 1%     | 2.5%   | 50%    | 97.5%  | Avg      | Stdev | Min    |",
		"| Req/Sec   | 15.903 | 15.903 | 16.100 | 17.001 | 16.250,5 | 300,25 | 15.900 |",
		"| Bytes/Sec | 2.3 MB | 2.3 MB | 2.3 MB | 2.66 MB | 2.42 MB | 172 kB | 2.3 MB |",
		"",
		"163k requests in 10.02s, 24.2 MB read",
		"request pipeline was reset 1 time",
	}, "\n")
	got, _, errs := readString("de.txt", dump)
	if len(errs) > 0 || len(got) != 1 {
		t.Fatalf("%d measurements, errors %v", len(got), errs)
	}
	m := got[0]
	if m.ToolRPS != 16250.5 || m.RPSStdev != 300.25 || m.RPSMin != 15900 || m.RPSPercentiles[0].Value != 15903 ||
		m.Latency.Max != 1440*ms || m.Pipelining != 10 || m.BytesRead != 24200000 || len(m.Warnings) != 2 {
		t.Errorf("got %s", dumpFields(m))
	}
}

func TestAutocannonJSON(t *testing.T) {
	got, _, errs := readRecords(t, "testdata/autocannon-9.0.0__json.json")
	if len(errs) > 0 || len(got) != 1 {
		t.Fatalf("%d measurements, errors %v", len(got), errs)
	}
	m := got[0]
	checks := []struct {
		name      string
		got, want any
	}{
		{"requests", m.Requests, int64(35376)},
		{"sent", m.RequestsSent, int64(35386)},
		{"duration", m.Duration, 2010 * ms},
		{"rps", m.ToolRPS, 17686.0},
		{"rps min", m.RPSMin, 14023.0},
		{"bytes", m.BytesRead, int64(4563504)},
		{"2xx", m.Status.C2xx, int64(35376)},
		{"latency mean", m.Latency.Mean, 180 * us},
		{"latency min", m.Latency.Min, ms},
		{"p97.5", m.Latency.Percentiles[10], Percentile{97.5, ms}},
		{"p99.999", m.Latency.Percentiles[14], Percentile{99.999, 18 * ms}},
		{"samples", m.Latency.Samples, int64(35376)},
		{"pipelining", m.Pipelining, 1},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	// A BOM, every response a 403.
	got, _, errs = readRecords(t, "testdata/autocannon__dhardestylewis-homecastr__autocannon.json")
	if len(errs) > 0 || len(got) != 1 || got[0].Status.C4xx != 6500 || got[0].GoodRequests() != 0 {
		t.Errorf("BOM file: %d measurements, errors %v", len(got), errs)
	}
	// The JSON line of a TTY capture ends in CRLF.
	got, _, errs = readRecords(t, "testdata/autocannon-9.0.0__tty_json.txt")
	if len(errs) > 0 || len(got) != 1 || got[0].Requests != 39480 {
		t.Errorf("tty json: %d measurements, errors %v", len(got), errs)
	}
}
