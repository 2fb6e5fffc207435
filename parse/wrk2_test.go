package parse

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestWrk2(t *testing.T) {
	got, _, errs := readRecords(t, "testdata/wrk2-4.0.0-giltene-44a94c1__calibration_13s_latency.txt")
	if len(errs) > 0 || len(got) != 1 {
		t.Fatalf("%d measurements, errors %v", len(got), errs)
	}
	checkMeasurement(t, "calibration", got[0], &Measurement{
		Tool: ToolWrk2, Phase: PhaseLatency, Order: 1, URL: "http://127.0.0.1:18080/",
		Connections: 4, Threads: 2, Window: 13 * time.Second, Duration: 13 * time.Second,
		Requests: 25996, ToolRPS: 1999.73, PerThreadRPS: Spread{Mean: 1050, Stdev: 76.48, Max: 1440},
		BytesRead: 3355443, BytesPerSec: 251.92 * (1 << 10),
		Latency: Latency{Mean: 930 * us, Stdev: 414460 * time.Nanosecond, Max: 5340 * us,
			Percentiles: []Percentile{{50, 930 * us}, {75, 1220 * us}, {90, 1420 * us}, {99, 1910 * us},
				{99.9, 3600 * us}, {99.99, 4710 * us}, {99.999, 5350 * us}, {100, 5350 * us}},
			Corrected: true, Samples: 5979},
		Source: Source{LineStart: 1, LineEnd: 93},
	})

	// A short run: "-nan" req/s values tell wrk2 from wrk without --latency.
	got, _, errs = readRecords(t, "testdata/wrk2-4.0.0-giltene-44a94c1__basic_R1000.txt")
	if len(errs) > 0 || len(got) != 1 {
		t.Fatalf("%d measurements, errors %v", len(got), errs)
	}
	if m := got[0]; m.Tool != ToolWrk2 || !m.Latency.Corrected || m.PerThreadRPS != (Spread{}) || m.Requests != 2995 {
		t.Errorf("basic_R1000: tool %s corrected %v per-thread %+v requests %d", m.Tool, m.Latency.Corrected, m.PerThreadRPS, m.Requests)
	}
}

// TestWrk2Uncorrected reads a -U dump: the second, uncorrected histogram is
// not mixed into the corrected percentiles.
func TestWrk2Uncorrected(t *testing.T) {
	body, err := os.ReadFile("testdata/wrk2-4.0.0-giltene-44a94c1__latency_R1000.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(body), "\n")
	var hdr []string // the histogram block, from its header to its dashes
	for i, l := range lines {
		if strings.Contains(l, "HdrHistogram") {
			for _, h := range lines[i:] {
				hdr = append(hdr, h)
				if strings.HasPrefix(h, "----") {
					break
				}
			}
		}
	}
	hdr[0] = "  Latency Distribution (HdrHistogram - Uncorrected Latency (measured without taking delayed starts into account))"
	hdr[1] = " 50.000%    9.99ms"
	var out []string
	for _, l := range lines {
		out = append(out, l)
		if strings.HasPrefix(l, "----") {
			out = append(out, "")
			out = append(out, hdr...)
		}
	}
	got, _, errs := readString("u.txt", "wrk2 -t2 -c10 -d3s -R1000 -U --latency http://127.0.0.1:18080/\n"+strings.Join(out, "\n"))
	if len(errs) > 0 || len(got) != 1 {
		t.Fatalf("%d measurements, errors %v", len(got), errs)
	}
	m := got[0]
	if len(m.Latency.Percentiles) != 8 || m.Latency.Percentiles[0].Value == 9990*us || m.Latency.Samples != 2992 || m.Rate != 1000 {
		t.Errorf("percentiles %v, samples %d, rate %v", m.Latency.Percentiles, m.Latency.Samples, m.Rate)
	}
}
