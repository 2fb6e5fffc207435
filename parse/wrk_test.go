package parse

import (
	"os"
	"strings"
	"testing"
	"time"
)

const (
	us = time.Microsecond
	ms = time.Millisecond
)

func TestWrk(t *testing.T) {
	for _, c := range []struct {
		file string
		want *Measurement
	}{
		{"testdata/wrk-4.1.0__latency.txt", &Measurement{
			Tool: ToolWrk, Order: 1, URL: "http://127.0.0.1:18080/",
			Connections: 10, Threads: 2, Window: 2 * time.Second, Duration: 2020 * ms,
			Requests: 48333, ToolRPS: 23926.11, PerThreadRPS: Spread{Mean: 12070, Stdev: 2420, Max: 17120},
			BytesRead: 6239027, BytesPerSec: 2.94 * (1 << 20),
			Latency: Latency{Mean: 787980 * time.Nanosecond, Stdev: 1410 * us, Max: 14850 * us,
				Percentiles: []Percentile{{50, 308 * us}, {75, 788 * us}, {90, 1940 * us}, {99, 7910 * us}}},
			Source: Source{LineStart: 1, LineEnd: 13},
		}},
		{"testdata/wrk-4.1.0__no_responses_hang.txt", &Measurement{
			Tool: ToolWrk, Order: 1, URL: "http://127.0.0.1:18087/",
			Connections: 4, Threads: 2, Window: 2 * time.Second, Duration: 2 * time.Second,
			Latency: Latency{Percentiles: []Percentile{{50, 0}, {75, 0}, {90, 0}, {99, 0}}},
			Source:  Source{LineStart: 1, LineEnd: 13},
		}},
		{"testdata/wrk-4.1.0__lua_done_report.txt", &Measurement{
			Tool: ToolWrk, Order: 1, URL: "http://127.0.0.1:18080/",
			Connections: 10, Threads: 2, Window: 2 * time.Second, Duration: 2 * time.Second,
			Requests: 55984, ToolRPS: 27943.74, PerThreadRPS: Spread{Mean: 14050, Stdev: 2050, Max: 18370},
			BytesRead: 7224689, BytesPerSec: 3.44 * (1 << 20),
			Latency: Latency{Mean: 814560 * time.Nanosecond, Stdev: 1420 * us, Max: 15680 * us},
			Source:  Source{LineStart: 1, LineEnd: 8},
		}},
		{"testdata/wrk-4.1.0__server_closes.txt", &Measurement{
			Tool: ToolWrk, Order: 1, URL: "http://127.0.0.1:18083/",
			Connections: 10, Threads: 2, Window: 2 * time.Second, Duration: 2130 * ms,
			Requests: 9667, ToolRPS: 4528.55, PerThreadRPS: Spread{Mean: 2290, Stdev: 577.17, Max: 3600},
			BytesRead: 1153434, BytesPerSec: 526.27 * (1 << 10),
			Latency: Latency{Mean: 1220 * us, Stdev: 2640 * us, Max: 41290 * us,
				Percentiles: []Percentile{{50, 749 * us}, {75, 1180 * us}, {90, 1790 * us}, {99, 12030 * us}}},
			Errors: Errors{Read: 9667},
			Source: Source{LineStart: 1, LineEnd: 14},
		}},
		{"testdata/wrk-4.1.0__non2xx_500.txt", &Measurement{
			Tool: ToolWrk, Order: 1, URL: "http://127.0.0.1:18081/",
			Connections: 10, Threads: 2, Window: 2 * time.Second, Duration: 2100 * ms,
			Requests: 64540, ToolRPS: 30728.90, PerThreadRPS: Spread{Mean: 15820, Stdev: 3390, Max: 23900},
			BytesRead: 8975811, BytesPerSec: 4.07 * (1 << 20),
			Latency: Latency{Mean: 572960 * time.Nanosecond, Stdev: 990 * us, Max: 13520 * us,
				Percentiles: []Percentile{{50, 235 * us}, {75, 518 * us}, {90, 1450 * us}, {99, 4670 * us}}},
			Status: StatusCounts{Non2xx: 64540},
			Source: Source{LineStart: 1, LineEnd: 14},
		}},
		{"testdata/wrk-4.1.0__big_body.txt", &Measurement{
			Tool: ToolWrk, Order: 1, URL: "http://127.0.0.1:18085/",
			Connections: 10, Threads: 2, Window: 2 * time.Second, Duration: 2100 * ms,
			Requests: 37965, ToolRPS: 18079.67, PerThreadRPS: Spread{Mean: 9280, Stdev: 2010, Max: 14560},
			BytesRead: 2491081032, BytesPerSec: 1.11 * (1 << 30),
			Latency: Latency{Mean: 870 * us, Stdev: 1270 * us, Max: 13090 * us},
			Source:  Source{LineStart: 1, LineEnd: 8},
		}},
		{"testdata/wrk__hanzhichao-perf_test_flat__wrk.log.txt", &Measurement{
			Tool: ToolWrk, Order: 1, URL: "http://www.163.com",
			Connections: 1, Threads: 1, Window: time.Second, Duration: time.Second,
			Requests: 5, ToolRPS: 4.99, PerThreadRPS: Spread{Mean: 6.40, Stdev: 3.36, Max: 10},
			BytesRead: 901, BytesPerSec: 0.88 * (1 << 10),
			Latency: Latency{Mean: 73770 * us, Stdev: 13870 * us, Max: 98560 * us},
			Source:  Source{LineStart: 1, LineEnd: 8},
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

// TestWrkCommandAndHeader checks the header's rounded duration ("Running 2m
// test" for -d 90s) against the command line, when a prompt shows it.
func TestWrkCommandAndHeader(t *testing.T) {
	body, err := os.ReadFile("testdata/wrk-4.1.0__sigint_header_2m.txt")
	if err != nil {
		t.Fatal(err)
	}
	got, _, errs := readString("x.txt", string(body))
	if len(errs) > 0 || got[0].Window != 2*time.Minute || got[0].Duration != 2010*ms {
		t.Fatalf("header only: window %v duration %v errs %v", got[0].Window, got[0].Duration, errs)
	}
	got, _, errs = readString("x.txt", "$ wrk -t2 -c10 -d90s --latency http://127.0.0.1:18080/\n"+string(body))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	m := got[0]
	if m.Window != 90*time.Second || m.Source.LineStart != 1 || len(m.Argv) != 6 || m.Argv[0] != "wrk" {
		t.Errorf("with command: window %v, lines %d-%d, argv %q", m.Window, m.Source.LineStart, m.Source.LineEnd, m.Argv)
	}
}

// TestWrkConcatenated reads files holding many runs, with prompts and
// wrapper-script lines around them.
func TestWrkConcatenated(t *testing.T) {
	for _, c := range []struct {
		file       string
		runs       int
		firstRPS   float64
		lastConns  int
		connectSum int64
	}{
		{"testdata/wrk__spring-rs-spring-benchmark__java-spring-boot-README.02dd76c.md", 10, 23191.27, 2000, 270 + 774 + 4785 + 770 + 1772 + 250 + 733 + 4741 + 752 + 1740},
	} {
		got, _, errs := readRecords(t, c.file)
		if len(errs) > 0 || len(got) != c.runs {
			t.Fatalf("%s: %d runs, want %d; errors %v", c.file, len(got), c.runs, errs)
		}
		var sum int64
		for i, m := range got {
			sum += m.Errors.Connect
			if m.Order != i+1 || m.Window != 120*time.Second || m.Duration != 120*time.Second || m.Argv == nil {
				t.Errorf("run %d: order %d window %v duration %v argv %q", i, m.Order, m.Window, m.Duration, m.Argv)
			}
		}
		if got[0].ToolRPS != c.firstRPS || got[len(got)-1].Connections != c.lastConns || sum != c.connectSum {
			t.Errorf("%s: first rps %v, last connections %d, connect errors %d", c.file, got[0].ToolRPS, got[len(got)-1].Connections, sum)
		}
	}
	got, _, errs := readRecords(t, "testdata/wrk__spring-rs-spring-benchmark__spring-rs-README.md")
	if len(errs) > 0 || len(got) < 20 {
		t.Fatalf("spring-rs: %d runs, errors %v", len(got), errs)
	}
	if m := got[0]; m.Requests != 1073172 || m.Duration != time.Minute || m.BytesRead != 137363456 {
		t.Errorf("spring-rs first run: %d requests in %v, %d bytes", m.Requests, m.Duration, m.BytesRead)
	}
}

func TestWrkUnitsAndOddLines(t *testing.T) {
	dump := strings.Join([]string{
		"Running 5m test @ http://h/",
		"2 threads and 10 connections", // indentation lost in a pasted copy
		"  Thread Stats   Avg      Stdev     Max   +/- Stdev",
		"    Latency     1.20s    850.00ms   2.00m    -nan%",
		"    Req/Sec     0.96k     1.5M     0.50G     nan%",
		"  Latency Distribution",
		"     50%    1.20s ",
		"     99%    0.03h",
		"  1440 requests in 5.00m, 767.42MB read",
		"  Socket errors: connect 0, read 13420, write 2, timeout 246337",
		"  Non-2xx or 3xx responses: 12",
		"Requests/sec:      4.80",
		"Transfer/sec:      2.56MB",
		"Summary statistics:",
		"50%,249",
	}, "\n")
	got, _, errs := readString("x.txt", dump)
	if len(errs) > 0 || len(got) != 1 {
		t.Fatalf("%d measurements, errors %v", len(got), errs)
	}
	checkMeasurement(t, "units", got[0], &Measurement{
		Tool: ToolWrk, Order: 1, URL: "http://h/", Threads: 2, Connections: 10,
		Window: 5 * time.Minute, Duration: 5 * time.Minute, Requests: 1440, ToolRPS: 4.80,
		PerThreadRPS: Spread{Mean: 960, Stdev: 1.5e6, Max: 5e8},
		BytesRead:    804698194, BytesPerSec: 2.56 * (1 << 20),
		Latency: Latency{Mean: 1200 * ms, Stdev: 850 * ms, Max: 2 * time.Minute,
			Percentiles: []Percentile{{50, 1200 * ms}, {99, 108 * time.Second}}},
		Errors: Errors{Read: 13420, Write: 2, Timeout: 246337},
		Status: StatusCounts{Non2xx: 12},
		Source: Source{LineStart: 1, LineEnd: 13},
	})
}
