package render

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestHistoryAtScale renders 100 runs of a 36-target × 16-scenario suite
// (2 repetitions each: 115,200 bombardier dumps; the host's kernel changes
// at run 50 and the tool's version at run 75; framework-03 steps down by
// 15% at run 30) in a fresh process, as fairbench render streams them,
// and checks that History stays fast, small and readable: under a minute
// and 2 GB, each scenario page at most 400 KB with the latest 12 runs as
// columns, every run in its trend lines, and the stepped target first.
// A soak: FAIRBENCH_SOAK=1 (.ci/run sets it).
func TestHistoryAtScale(t *testing.T) {
	if os.Getenv("FAIRBENCH_SOAK") != "1" {
		t.Skip("a soak, run with FAIRBENCH_SOAK=1")
	}
	const runs, targets, scenarios = 100, 36, 16
	dir := t.TempDir()
	benchRunsStep(t, filepath.Join(dir, "results"), runs, targets, scenarios, 2, 30)
	if err := os.WriteFile(filepath.Join(dir, "site.toml"), []byte("title = \"History\"\nruns = [\"results/*\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	kb := renderInChild(t, dir, "stream")
	took := time.Since(t0)
	t.Logf("%d runs × %d targets × %d scenarios rendered in %s, peak %.0f MB", runs, targets, scenarios, took.Round(time.Second), float64(kb)/1024)
	if took > time.Minute {
		t.Errorf("rendering took %s, want under a minute", took)
	}
	if kb > 2<<20 {
		t.Errorf("peak resident set %.0f MB, want under 2 GB", float64(kb)/1024)
	}
	out := filepath.Join(dir, "public-stream")
	for _, w := range pageWeights(t, out) {
		if strings.HasPrefix(w.Rel, "history") && w.Bytes > maxPage {
			t.Errorf("%s is %.1f KB, over %d KB", w.Rel, float64(w.Bytes)/1024, maxPage>>10)
		}
	}
	hist, err := os.ReadFile(filepath.Join(out, "history.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"kernel: 6.1.0 → 6.6.0", "What makes these runs comparable", "framework-03"} {
		if !strings.Contains(string(hist), want) {
			t.Errorf("history.html does not say %q", want)
		}
	}
	pages, err := filepath.Glob(filepath.Join(out, "history", "*", "*.html"))
	if err != nil || len(pages) != scenarios {
		t.Fatalf("%d scenario pages across runs (%v), want %d", len(pages), err, scenarios)
	}
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		page := string(b)
		if cols := runColumns(page); cols != historyShown {
			t.Errorf("%s has %d run columns, want the latest %d", filepath.Base(p), cols, historyShown)
		}
		if !strings.Contains(page, "the "+strconv.Itoa(runs-historyShown)+" older runs are in the trend line only") {
			t.Errorf("%s does not say the older runs are in the trend line", filepath.Base(p))
		}
		if n := strings.Count(page, `<svg class="spark"`); n != targets {
			t.Errorf("%s draws %d trend lines, want one per target (%d)", filepath.Base(p), n, targets)
		}
		line := regexp.MustCompile(`points="([^"]*)"`).FindStringSubmatch(page)
		if line == nil || len(strings.Fields(line[1])) != runs {
			t.Errorf("%s: the first trend line has %v, want a point per run (%d)", filepath.Base(p), line, runs)
		}
		// The stepped lines open the targets' table: framework-03's, and
		// any false alarm of the noise's (the detector allows some).
		body := page[strings.LastIndex(page, "<tbody>"):]
		rows := regexp.MustCompile(`<tr( class="stepped")?><td><a [^>]*>([^<]+)</a>`).FindAllStringSubmatch(body, -1)
		plain, stepped03 := false, false
		for _, r := range rows {
			switch {
			case r[1] == "":
				plain = true
			case plain:
				t.Errorf("%s: %s's stepped line comes after a line without a step", filepath.Base(p), r[2])
			case r[2] == "framework-03":
				stepped03 = true
			}
		}
		if !stepped03 {
			t.Errorf("%s: framework-03's line is not marked stepped among the first", filepath.Base(p))
		}
	}
}
