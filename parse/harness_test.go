package parse

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestBunHarnessReproducesResults parses both snapshots of
// bun-http-framework-benchmark and checks every number of every row of the
// results.md its harness built from the same dumps.
func TestBunHarnessReproducesResults(t *testing.T) {
	for _, snap := range []string{"ba1520c", "d78d01b"} {
		root := filepath.Join("testdata", "bun", snap, "results")
		table, err := os.ReadFile(filepath.Join(root, "results.md"))
		if err != nil {
			t.Fatal(err)
		}
		var header []string
		rows := 0
		for _, row := range strings.Split(strings.TrimSpace(string(table)), "\n") {
			cells := tableCells(strings.TrimSpace(row))
			switch {
			case cells[0] == "Framework":
				header = cells
				continue
			case strings.HasPrefix(cells[0], "---"):
				continue
			}
			rows++
			checkBunRow(t, root, header, cells)
		}
		if want := map[string]int{"ba1520c": 26, "d78d01b": 24}[snap]; rows != want {
			t.Errorf("%s: %d rows, want %d", snap, rows, want)
		}
	}
}

func checkBunRow(t *testing.T, root string, header, cells []string) {
	t.Helper()
	name, runtime := cells[0], cells[1]
	file := filepath.Join(root, runtime, name+".txt")
	ms, ts, errs := readRecords(t, file)
	if len(errs) > 0 {
		t.Errorf("%s: %v", file, errs)
		return
	}
	rps := map[string]float64{}
	for _, m := range ms {
		if m.Target != name || m.Runtime != runtime {
			t.Errorf("%s: target %q runtime %q", file, m.Target, m.Runtime)
		}
		rps[m.Scenario] = m.ToolRPS
	}
	var sum float64
	scenarios := 0
	for i, col := range header {
		cell := cells[i]
		switch col {
		case "Ping", "Query", "Body", "Video":
			scenarios++
			v, ok := rps[strings.ToLower(col)]
			sum += v
			if got := enUS(v); !ok || got != cell {
				t.Errorf("%s %s: got %s, results.md says %s", file, col, got, cell)
			}
		}
	}
	for i, col := range header {
		var got string
		switch col {
		case "Average":
			got = enUS(sum / float64(scenarios))
		case "Bundle Size", "Startup", "Memory Before/After":
			if len(ts) != 1 {
				t.Errorf("%s: %d targets, want 1", file, len(ts))
				return
			}
			got = bunFact(col, ts[0])
		default:
			continue
		}
		if got != cells[i] {
			t.Errorf("%s %s: got %s, results.md says %s", file, col, got, cells[i])
		}
	}
}

// bunFact prints a target fact the way the harness's table does.
func bunFact(col string, tg *Target) string {
	size := func(b int64) string {
		if b >= 1<<20 {
			return fmt.Sprintf("%.1f MB", float64(b)/(1<<20))
		}
		return fmt.Sprintf("%.1f KB", float64(b)/(1<<10))
	}
	switch col {
	case "Bundle Size":
		if tg.ArtifactBytes == 0 {
			return "n/a"
		}
		return size(tg.ArtifactBytes)
	case "Startup":
		return fmt.Sprintf("%.1f ms", float64(tg.Startup)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.1f / %.1f MB", float64(tg.RSSBefore)/(1<<20), float64(tg.RSSAfter)/(1<<20))
}

// enUS formats like Intl.NumberFormat('en-US'): grouping, at most 3
// decimals, rounding the shortest decimal form of v half away from zero.
func enUS(v float64) string {
	whole, frac, _ := strings.Cut(strconv.FormatFloat(v, 'f', -1, 64), ".")
	if len(frac) > 3 {
		up := frac[3] >= '5'
		frac = frac[:3]
		if up {
			n, _ := strconv.ParseInt(whole+frac, 10, 64)
			s := strconv.FormatInt(n+1, 10)
			for len(s) < 4 {
				s = "0" + s
			}
			whole, frac = s[:len(s)-3], s[len(s)-3:]
		}
	}
	frac = strings.TrimRight(frac, "0")
	if frac != "" {
		return GroupDigits(whole) + "." + frac
	}
	return GroupDigits(whole)
}

func TestBunHarnessRecords(t *testing.T) {
	ms, ts, errs := readRecords(t, "testdata/bun/ba1520c/results/bun/elysia.txt")
	if len(errs) > 0 || len(ms) != 4 || len(ts) != 1 {
		t.Fatalf("%d measurements, %d targets, errors %v", len(ms), len(ts), errs)
	}
	checkMeasurement(t, "elysia video", ms[3], &Measurement{
		Tool: ToolBombardier, Target: "elysia", Runtime: "bun", Scenario: "video", Order: 4,
		Method: "GET", URL: "http://127.0.0.1:3000/video", Connections: 10, Window: 10 * time.Second,
		Requests: 16475, ToolRPS: 1647.74, RPSStdev: 505.21, RPSMax: 2604.97,
		BytesPerSec: 21.70 * (1 << 30), BytesPerSecCountsWrites: true,
		Latency: Latency{Mean: 6070 * us, Stdev: 2520 * us, Max: 49200 * us},
		Status:  StatusCounts{Known: true, C2xx: 16475},
		Argv: []string{"bombardier", "--fasthttp", "-c", "10", "-d", "10s", "-H", "Cache-Control:no-store",
			"-H", "If-None-Match:benchmark-force-full-response", "http://127.0.0.1:3000/video"},
		Source: Source{LineStart: 41, LineEnd: 51},
	})
	want := Target{Name: "elysia", Runtime: "bun", Startup: 51100 * us, RSSBefore: 38797312, RSSAfter: 47919923,
		ArtifactBytes: 164659, Source: Source{LineStart: 1, LineEnd: 53}}
	got := *ts[0]
	got.Source.File, got.Source.SHA256 = "", ""
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("target\n got %+v\nwant %+v", got, want)
	}

	ms, ts, errs = readRecords(t, "testdata/bun/d78d01b/results/bun/elysia.txt")
	if len(errs) > 0 || len(ms) != 3 || len(ts) != 0 {
		t.Fatalf("old format: %d measurements, %d targets, errors %v", len(ms), len(ts), errs)
	}
	if m := ms[2]; m.Scenario != "body" || m.Method != "POST" || m.ToolRPS != 359187.22 || m.Source.LineStart != 5 || m.Source.LineEnd != 6 {
		t.Errorf("old format body: %s", dumpFields(m))
	}
}
