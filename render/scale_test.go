package render

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse"
)

// pageWeight is one HTML page of a built site and its size in bytes.
type pageWeight struct {
	Rel   string
	Bytes int64
}

// pageWeights are the HTML pages under out, heaviest first.
func pageWeights(tb testing.TB, out string) []pageWeight {
	tb.Helper()
	var ws []pageWeight
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		ws = append(ws, pageWeight{Rel: filepath.ToSlash(rel), Bytes: info.Size()})
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	sort.Slice(ws, func(i, j int) bool {
		if ws[i].Bytes != ws[j].Bytes {
			return ws[i].Bytes > ws[j].Bytes
		}
		return ws[i].Rel < ws[j].Rel
	})
	return ws
}

// heaviest is the first n of ws as "page 123 KB" items.
func heaviest(ws []pageWeight, n int) string {
	var s []string
	for i, w := range ws {
		if i == n {
			break
		}
		s = append(s, fmt.Sprintf("%s %.1f KB", w.Rel, float64(w.Bytes)/1024))
	}
	return strings.Join(s, ", ")
}

// maxPage is the most bytes an HTML page may weigh: what a phone on a
// slow link loads in a few seconds.
const maxPage = 400 << 10

// TestHundredTargets renders a run of 100 targets × 3 scenarios × 5
// repetitions (bombardier dumps written by the test, as collect lays
// them out) with a card, and checks that the layout scales: no HTML page
// over 400 KB, the index under 150 KB with its heat map first, each
// scenario's verdicts as a summary of counts rather than a 100×100
// matrix, and the run's chart bounded with the rest counted.
func TestHundredTargets(t *testing.T) {
	const targets, scenarios = 100, 3
	set, errs := parse.ReadAll(benchRuns(t, t.TempDir(), 1, targets, scenarios, 5))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	site := DefaultSite
	site.Cards = []Card{{Subject: "framework-99", Baseline: "framework-00", Escapes: []string{"framework-10", "framework-50"}}}
	out := build(t, set, &site)
	ws := pageWeights(t, out)
	t.Logf("%d pages; heaviest: %s", len(ws), heaviest(ws, 5))
	for _, w := range ws {
		if w.Bytes > maxPage {
			t.Errorf("%s is %.1f KB, over %d KB", w.Rel, float64(w.Bytes)/1024, maxPage>>10)
		}
	}
	index, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("index.html: %.1f KB", float64(len(index))/1024)
	if len(index) > 150<<10 {
		t.Errorf("index.html is %.1f KB with %d targets, want at most 150 KB", float64(len(index))/1024, targets)
	}
	if at := strings.Index(string(index), `<table class="heat">`); at < 0 || at > 20<<10 {
		t.Errorf("the heat map starts at byte %d of the index, want within 20 KB", at)
	}
	if n := strings.Count(string(index), `<tr><th scope="row">`); n != targets {
		t.Errorf("the heat map has %d rows, want one per target (%d)", n, targets)
	}
	more := regexp.MustCompile(`and (\d+) more targets`).FindStringSubmatch(string(index))
	bars := strings.Count(string(index), `<rect class="bar`)
	if more == nil || bars > runChartBars+len(site.Cards[0].Escapes)+2 || strconv.Itoa(targets-bars) != more[1] {
		t.Errorf("the index's chart draws %d bars and says %q; want at most %d bars (the cards' targets kept) and the rest counted", bars, more, runChartBars+4)
	}
	page, err := os.ReadFile(filepath.Join(out, "scenario", "s00.html"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(page), `class="matrix"`) {
		t.Error("the scenario page of 100 targets draws a k×k matrix; want the summary of counts")
	}
	if !strings.Contains(string(page), "judged faster than</th>") || strings.Count(string(page), "<tr><td>framework-") != targets {
		t.Errorf("the scenario page's verdict summary is missing or does not list all %d targets", targets)
	}
}
