package render

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/rundir"
)

// benchRuns writes runs run dirs of one suite, each with targets ×
// scenarios × reps bombardier JSON dumps, as collect would. Numbers come
// from a fixed seed; the host's kernel changes halfway, the tool version
// at three quarters, so history has environment changes to mark.
func benchRuns(tb testing.TB, dir string, runs, targets, scenarios, reps int) []string {
	tb.Helper()
	return benchRunsStep(tb, dir, runs, targets, scenarios, reps, -1)
}

// benchRunsStep is benchRuns where, from run stepAt on (none when
// negative), framework-03 serves 15% fewer requests in every scenario: a
// step for history to find.
func benchRunsStep(tb testing.TB, dir string, runs, targets, scenarios, reps, stepAt int) []string {
	tb.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	var paths []string
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for r := range runs {
		when := start.Add(time.Duration(r) * 24 * time.Hour)
		id := when.Format("20060102T150405Z") + "-bench"
		root := filepath.Join(dir, id)
		kernel, tool := "6.1.0", "v1.2.6"
		if r >= runs/2 {
			kernel = "6.6.0"
		}
		if r >= runs*3/4 {
			tool = "v1.2.7"
		}
		type meas struct {
			Target      string   `json:"target"`
			Scenario    string   `json:"scenario"`
			Rep         int      `json:"rep"`
			Order       int      `json:"order"`
			Tool        string   `json:"tool"`
			ToolVersion string   `json:"tool_version"`
			Argv        []string `json:"argv"`
			Dump        string   `json:"dump"`
			SHA256      string   `json:"sha256"`
		}
		type target struct {
			Name          string  `json:"name"`
			Runtime       string  `json:"runtime"`
			BuildS        float64 `json:"build_s"`
			ArtifactBytes int64   `json:"artifact_bytes"`
			StartupS      float64 `json:"startup_s"`
			RSSBefore     int64   `json:"rss_before_bytes"`
			RSSAfter      int64   `json:"rss_after_bytes"`
			Conformance   string  `json:"conformance"`
		}
		var ms []meas
		var ts []target
		order := 0
		for t := range targets {
			name := fmt.Sprintf("framework-%02d", t)
			ts = append(ts, target{Name: name, Runtime: []string{"node", "bun", "deno", "go"}[t%4], BuildS: 1.5, ArtifactBytes: int64(100000 + t*7919),
				StartupS: 0.05, RSSBefore: 30 << 20, RSSAfter: 60 << 20, Conformance: "pass"})
			for s := range scenarios {
				base := 20000 + 4000*float64(t) + 1000*float64(s)
				if t == 3 && stepAt >= 0 && r >= stepAt {
					base *= 0.85
				}
				for rep := 1; rep <= reps; rep++ {
					order++
					rps := base * (1 + 0.03*rng.NormFloat64())
					url := fmt.Sprintf("http://127.0.0.1:3000/s%d", s)
					dump := fmt.Sprintf(`{"spec":{"numberOfConnections":64,"testType":"timed","testDurationSeconds":10,"method":"GET","url":%q,"body":"","stream":false,"timeoutSeconds":2,"client":"fasthttp"},"result":{"bytesRead":%d,"bytesWritten":%d,"timeTakenSeconds":10.0001,"req1xx":0,"req2xx":%d,"req3xx":0,"req4xx":0,"req5xx":0,"others":0,"latency":{"mean":%.3f,"stddev":200,"max":25359,"percentiles":{"50":%d,"75":%d,"90":%d,"95":%d,"99":%d}},"rps":{"mean":%.6f,"stddev":1200,"max":%.3f,"percentiles":{"50":%.3f,"99":%.3f}}}}`+"\n",
						url, int64(rps*10*120), int64(rps*10*60), int64(rps*10), 64e6/rps, int(60e6/rps), int(70e6/rps), int(90e6/rps), int(120e6/rps), int(300e6/rps), rps, rps*1.1, rps, rps*1.08)
					rel := fmt.Sprintf("dumps/%s/s%02d/%d.txt", name, s, rep)
					if err := os.MkdirAll(filepath.Join(root, filepath.Dir(rel)), 0o755); err != nil {
						tb.Fatal(err)
					}
					if err := os.WriteFile(filepath.Join(root, rel), []byte(dump), 0o644); err != nil {
						tb.Fatal(err)
					}
					ms = append(ms, meas{Target: name, Scenario: fmt.Sprintf("s%02d", s), Rep: rep, Order: order, Tool: "bombardier", ToolVersion: tool,
						Argv: []string{"bombardier", "-c", "64", "-d", "10s", "-l", "-o", "json", url}, Dump: rel, SHA256: rundir.SHA256([]byte(dump))})
				}
			}
		}
		manifest := map[string]any{
			"schema": 1, "id": id, "suite": "bench", "suite_sha256": strings.Repeat("ab", 32), "status": "complete",
			"start": when, "host": map[string]any{"cpu_model": "Bench CPU", "cores": 8, "threads": 16, "kernel": kernel, "os": "Debian 12"},
			"tools":   map[string]any{"bombardier": map[string]any{"version": tool}},
			"targets": ts, "measurements": ms,
		}
		b, err := json.Marshal(manifest)
		if err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "run.json"), b, 0o644); err != nil {
			tb.Fatal(err)
		}
		paths = append(paths, root)
	}
	return paths
}

// BenchmarkBuild renders a run of 50 targets × 11 scenarios × 5 reps with
// 19 earlier runs of the same suite for history, and reports the weights of
// the pages that must stay light: the index (aim ≤ 150 KB) and the largest
// scenario page (aim ≤ 100 KB), each with the CSS and script it loads, and
// the heaviest HTML page of all (aim ≤ 400 KB).
func BenchmarkBuild(b *testing.B) {
	dir := b.TempDir()
	t0 := time.Now()
	paths := benchRuns(b, filepath.Join(dir, "runs"), 20, 50, 11, 5)
	wrote := time.Since(t0)
	t0 = time.Now()
	set, errs := parse.ReadAll(paths)
	if len(errs) > 0 {
		b.Fatalf("%d read errors, first: %v", len(errs), errs[0])
	}
	read := time.Since(t0)
	out := filepath.Join(dir, "site")
	site := DefaultSite
	site.Cards = []Card{{Subject: "framework-49", Baseline: "framework-00", Escapes: []string{"framework-10", "framework-25"}}}
	var took time.Duration
	for b.Loop() {
		t0 = time.Now()
		if _, err := Build(set, Options{Out: out, Site: &site}); err != nil {
			b.Fatal(err)
		}
		took = time.Since(t0)
	}
	size := func(rel string) float64 {
		info, err := os.Stat(filepath.Join(out, rel))
		if err != nil {
			b.Fatal(err)
		}
		return float64(info.Size()) / 1024
	}
	assets := size("style.css") + size("site.js")
	index := size("index.html") + size("style.css")
	worst, worstName := 0.0, ""
	scenarios, _ := filepath.Glob(filepath.Join(out, "scenario", "*.html"))
	for _, p := range scenarios {
		if kb := size(filepath.Join("scenario", filepath.Base(p))); kb > worst {
			worst, worstName = kb, filepath.Base(p)
		}
	}
	worst += assets
	var files int
	var total int64
	filepath.Walk(out, func(_ string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			files++
			total += info.Size()
		}
		return err
	})
	ws := pageWeights(b, out)
	b.ReportMetric(float64(ws[0].Bytes)/1024, "max-page-KB")
	b.Logf("heaviest pages (aim ≤ 400 KB each): %s", heaviest(ws, 5))
	b.ReportMetric(index, "index-KB")
	b.ReportMetric(worst, "scenario-KB")
	b.ReportMetric(math.Round(float64(total)/(1<<20)), "site-MB")
	b.Logf("wrote %d measurements in %s, parsed them in %s; a render took %s", len(set.Measurements), wrote.Round(time.Millisecond), read.Round(time.Millisecond), took.Round(time.Millisecond))
	b.Logf("index.html + style.css: %.1f KB (aim ≤ 150); heaviest scenario page %s + css + js: %.1f KB (aim ≤ 100); results.html %.1f KB; history scenario page %.1f KB; %d files, %.1f MB",
		index, worstName, worst, size("results.html"), size(historyPage(out, "s00")), files, float64(total)/(1<<20))
}

// historyPage is the page of scenario s across the runs of the first suite
// History has pages for, relative to the site at out.
func historyPage(out, s string) string {
	m, _ := filepath.Glob(filepath.Join(out, "history", "*", s+".html"))
	if len(m) == 0 {
		return filepath.Join("history", s+".html")
	}
	rel, _ := filepath.Rel(out, m[0])
	return rel
}
