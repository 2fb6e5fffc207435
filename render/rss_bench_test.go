package render

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/rundir"
)

// BenchmarkRenderPeakRSS renders sites of 1,000 and 10,000 real dumps
// (wrk, bombardier and autocannon output from testdata/dumps, copied into
// run dirs of 4 targets × 5 scenarios × 5 reps, 100 dumps a run), each in
// a fresh child process, and prints the child's peak resident set against
// the dump count, with the ratio of the largest site's peak to the
// smallest's: issue 8 asks that it stay near 1. Writing the sites is not
// measured. 100,000 dumps (1,000 runs; about three minutes on two cores)
// run only when FAIRBENCH_RSS_DUMPS asks for them:
//
//	go test ./render -run '^$' -bench RenderPeakRSS -benchtime 1x
//	FAIRBENCH_RSS_DUMPS=1000,10000,100000 go test ./render -run '^$' -bench RenderPeakRSS -benchtime 1x -timeout 30m
//
// Each size is rendered twice: "stream" is what fairbench render does
// (BuildPaths: the dumps streamed, a run at a time); "set" reads every
// measurement first (parse.ReadAll) and hands the set to Build, as a
// caller that already holds a set does. The two columns side by side show
// what streaming saves.
func BenchmarkRenderPeakRSS(b *testing.B) {
	sizes := []int{1_000, 10_000}
	if env := os.Getenv("FAIRBENCH_RSS_DUMPS"); env != "" {
		sizes = nil
		for _, f := range strings.Split(env, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 100 {
				b.Fatalf("FAIRBENCH_RSS_DUMPS=%q: want dump counts of at least 100, comma-separated", env)
			}
			sizes = append(sizes, n)
		}
	}
	modes := []string{"stream", "set"}
	type row struct {
		dumps int
		rss   map[string]int64 // KB
		took  map[string]time.Duration
		write time.Duration
	}
	var rows []row
	for range b.N {
		rows = rows[:0]
		for _, n := range sizes {
			dir, err := os.MkdirTemp("", "fairbench-rss-")
			if err != nil {
				b.Fatal(err)
			}
			t0 := time.Now()
			rssSite(b, dir, n)
			r := row{dumps: n, rss: map[string]int64{}, took: map[string]time.Duration{}, write: time.Since(t0)}
			for _, mode := range modes {
				t0 = time.Now()
				r.rss[mode] = renderInChild(b, dir, mode)
				r.took[mode] = time.Since(t0)
			}
			rows = append(rows, r)
			if err := os.RemoveAll(dir); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.StopTimer()
	var out strings.Builder
	fmt.Fprintf(&out, "%8s %6s %12s %10s %12s %10s %10s\n", "dumps", "runs", "stream-MB", "stream-s", "set-MB", "set-s", "write-s")
	for _, r := range rows {
		fmt.Fprintf(&out, "%8d %6d %12.1f %10.1f %12.1f %10.1f %10.1f\n", r.dumps, r.dumps/rssRunDumps,
			float64(r.rss["stream"])/1024, r.took["stream"].Seconds(), float64(r.rss["set"])/1024, r.took["set"].Seconds(), r.write.Seconds())
	}
	if len(rows) > 1 {
		first, last := rows[0], rows[len(rows)-1]
		for _, mode := range modes {
			ratio := float64(last.rss[mode]) / float64(first.rss[mode])
			fmt.Fprintf(&out, "peak(%d)/peak(%d), %s: %.2f\n", last.dumps, first.dumps, mode, ratio)
			b.ReportMetric(ratio, mode+"-ratio")
		}
	}
	fmt.Print(out.String())
}

// rssRunDumps is how many dumps each run of an RSS site holds.
const rssRunDumps = rssTargets * rssScenarios * rssReps

const rssTargets, rssScenarios, rssReps = 4, 5, 5

// rssTools are the real dumps an RSS site is made of, one per scenario in
// turn, with the command that wrote each (parse/testdata, recorded from
// the tools themselves).
var rssTools = []struct{ file, tool, version string }{
	{"wrk-4.1.0__latency.txt", "wrk", "4.1.0"},
	{"bombardier-1.2.6__default.txt", "bombardier", "v1.2.6"},
	{"autocannon-9.0.0__default.txt", "autocannon", "9.0.0"},
}

var rssArgv = map[string][]string{
	"wrk":        {"wrk", "-t2", "-c10", "-d2s", "--latency", "http://127.0.0.1:18080/"},
	"bombardier": {"bombardier", "-c", "10", "-d", "2s", "http://127.0.0.1:18080/"},
	"autocannon": {"autocannon", "-c", "10", "-d", "2", "http://127.0.0.1:18080/"},
}

// rssSite writes a site folder at dir: site.toml and results/ with n/100
// run dirs of one suite, a day apart, as collect writes them.
func rssSite(tb testing.TB, dir string, n int) {
	tb.Helper()
	bodies := make([][]byte, len(rssTools))
	sums := make([]string, len(rssTools))
	for i, t := range rssTools {
		b, err := os.ReadFile(filepath.Join("testdata", "dumps", t.file))
		if err != nil {
			tb.Fatal(err)
		}
		bodies[i], sums[i] = b, rundir.SHA256(b)
	}
	if err := os.WriteFile(filepath.Join(dir, "site.toml"), []byte("title = \"RSS\"\nruns = [\"results/*\"]\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for r := range (n + rssRunDumps - 1) / rssRunDumps {
		when := start.Add(time.Duration(r) * time.Hour)
		id := when.Format("20060102T1504Z") + "-rss"
		root := filepath.Join(dir, "results", id)
		var ms []map[string]any
		var targets []map[string]any
		order := 0
		for t := range rssTargets {
			targets = append(targets, map[string]any{"name": fmt.Sprintf("t%d", t), "runtime": "go", "conformance": "pass", "build_s": 1.0, "startup_s": 0.01})
		}
		for rep := 1; rep <= rssReps; rep++ {
			for t := range rssTargets {
				for s := range rssScenarios {
					if r*rssRunDumps+order >= n {
						break
					}
					order++
					k := s % len(rssTools)
					rel := fmt.Sprintf("dumps/t%d/s%d/%d.txt", t, s, rep)
					if err := os.MkdirAll(filepath.Join(root, filepath.Dir(rel)), 0o755); err != nil {
						tb.Fatal(err)
					}
					if err := os.WriteFile(filepath.Join(root, rel), bodies[k], 0o644); err != nil {
						tb.Fatal(err)
					}
					ms = append(ms, map[string]any{"target": fmt.Sprintf("t%d", t), "scenario": fmt.Sprintf("s%d", s), "rep": rep, "order": order,
						"tool": rssTools[k].tool, "tool_version": rssTools[k].version, "argv": rssArgv[rssTools[k].tool],
						"dump": rel, "sha256": sums[k], "server_cpu_s": 1.5, "client_cpu_s": 1.2})
				}
			}
		}
		tools := map[string]any{}
		for _, t := range rssTools {
			tools[t.tool] = map[string]any{"version": t.version, "asked": []string{t.tool, "--version"}}
		}
		manifest := map[string]any{
			"schema": 1, "id": id, "suite": "rss", "suite_sha256": strings.Repeat("cd", 32), "status": "complete", "start": when,
			"host":    map[string]any{"hostname": "bench", "cpu_model": "Bench CPU", "cores": 2, "threads": 2, "kernel": "6.1.0", "os": "Debian 12"},
			"tools":   tools,
			"targets": targets, "measurements": ms,
		}
		b, err := json.MarshalIndent(manifest, "", "  ")
		if err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "run.json"), b, 0o644); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "suite.toml"), []byte("name = \"rss\"\n"), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// renderInChild renders the site at dir in a fresh process (this test
// binary, running TestRenderPeakRSSChild) and returns its peak resident
// set in KB.
func renderInChild(tb testing.TB, dir, mode string) int64 {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestRenderPeakRSSChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "FAIRBENCH_RSS_SITE="+dir, "FAIRBENCH_RSS_MODE="+mode)
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("render %s (%s): %v\n%s", dir, mode, err, out)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		tb.Skip("no rusage on this system")
	}
	return ru.Maxrss // KB on Linux
}

// TestRenderPeakRSSChild is the child of BenchmarkRenderPeakRSS: it
// renders the site FAIRBENCH_RSS_SITE names, and nothing without it. With
// FAIRBENCH_RSS_PROFILE=dir, a streamed render writes a heap profile and
// its peak resident set at each stage into dir (see TestRSSSite).
func TestRenderPeakRSSChild(t *testing.T) {
	dir := os.Getenv("FAIRBENCH_RSS_SITE")
	if dir == "" {
		t.Skip("the child of BenchmarkRenderPeakRSS")
	}
	site, err := LoadSite(dir)
	if err != nil {
		t.Fatal(err)
	}
	paths, err := site.RunPaths()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "public-"+os.Getenv("FAIRBENCH_RSS_MODE"))
	switch mode := os.Getenv("FAIRBENCH_RSS_MODE"); mode {
	case "stream":
		opt := Options{Out: out, Site: site}
		if dir := os.Getenv("FAIRBENCH_RSS_PROFILE"); dir != "" {
			p := newRSSProbe(t, dir)
			defer p.close()
			opt.Progress = p
		}
		if _, errs, err := BuildPaths(paths, opt); err != nil || len(errs) > 0 {
			t.Fatalf("%v; %d read errors: %v", err, len(errs), errs)
		}
	case "set":
		set, errs := parse.ReadAll(paths)
		if len(errs) > 0 {
			t.Fatalf("%d read errors, the first %v", len(errs), errs[0])
		}
		if _, err := Build(set, Options{Out: out, Site: site}); err != nil {
			t.Fatal(err)
		}
	default:
		t.Fatalf("FAIRBENCH_RSS_MODE=%q: want stream or set", mode)
	}
}
