package render

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// chartFacts is what the browser says of one line chart as drawn.
type chartFacts struct {
	Title  string   `json:"title"`
	Width  float64  `json:"width"`
	Height float64  `json:"height"`
	Units  []string `json:"units"`
	// UnitsInside says each unit's box lies inside the SVG's box: drawn,
	// not cut off.
	UnitsInside bool `json:"unitsInside"`
	Dots        int  `json:"dots"`
	Hollow      int  `json:"hollow"`
	Knees       int  `json:"knees"`
	Lines       int  `json:"lines"`
	TickLabels  int  `json:"tickLabels"`
}

// chartsJS measures every line chart of a page as the browser laid it out.
const chartsJS = `Array.from(document.querySelectorAll("svg.linechart")).map(svg => {
  const box = svg.getBoundingClientRect();
  const units = Array.from(svg.querySelectorAll(".axis-unit"));
  return {
    title: svg.querySelector("title").textContent,
    width: box.width, height: box.height,
    units: units.map(u => u.textContent),
    unitsInside: units.every(u => { const b = u.getBoundingClientRect(); return b.width > 0 && b.left >= box.left - 1 && b.right <= box.right + 1 && b.top >= box.top - 1 && b.bottom <= box.bottom + 1; }),
    dots: svg.querySelectorAll("circle.dot").length,
    hollow: Array.from(svg.querySelectorAll("circle.dot.behind")).filter(c => getComputedStyle(c).fill === getComputedStyle(document.body).backgroundColor).length,
    knees: svg.querySelectorAll("circle.knee").length,
    lines: Array.from(svg.querySelectorAll("path.line")).filter(p => p.getTotalLength() > 0 && getComputedStyle(p).stroke !== "none").length,
    tickLabels: svg.querySelectorAll("text.tick").length,
  };
})`

// TestBrowserLatency loads the pages with latency and sweep points in
// headless Chromium, light and dark, phone and desktop width, under the
// site's Content-Security-Policy: nothing is logged, thrown or asked off
// the site; the three charts of the ping page are drawn with both axes'
// units inside them, a dot per repetition, the point that fell behind
// hollow, the lines and gin's knee; the target page lists its points.
// Screenshots go to the test's artifact folder.
func TestBrowserLatency(t *testing.T) {
	if testing.Short() {
		t.Skip("drives headless Chromium")
	}
	exe := chromium(t)
	rules := netlifyPaths(t)
	set, points := pointsSet(t)
	_, site := fixture(t)
	root := t.TempDir()
	if _, err := Build(set, Options{Out: filepath.Join(root, "default"), Site: site}); err != nil {
		t.Fatal(err)
	}
	srv := serveSites(t, root, rules)
	ctx, events := newBrowser(t, exe, srv.URL)
	shots := screenshotDir(t, "")
	latency, gin := 0, 0
	for _, p := range points {
		if p.Phase == "latency" {
			latency++
		}
		if p.Target == "gin" {
			gin++
		}
	}
	eachLook(t, ctx, func(width int64, scheme string) {
		look := fmt.Sprintf("%d px, %s", width, scheme)
		for _, rel := range []string{"scenario/ping.html", "target/gin.html"} {
			if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/default/"+rel)); err != nil {
				t.Fatalf("%s: %v", rel, err)
			}
			charts, err := chromedp.Run(ctx, chromedp.Evaluate[[]chartFacts](chartsJS))
			if err != nil {
				t.Fatalf("%s: %v", rel, err)
			}
			if rel == "scenario/ping.html" {
				checkCharts(t, look, charts, latency, len(points)-latency)
			} else {
				rows, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("table.points tbody tr").length`))
				if err != nil || rows != gin {
					t.Errorf("%s (%s): %d points listed (%v), want gin's %d", rel, look, rows, err, gin)
				}
			}
			screenshot(t, ctx, shots, fmt.Sprintf("%s-%d-%s.png", pageName(rel), width, scheme), 100)
			for _, p := range events.take() {
				t.Errorf("%s (%s): %s", rel, look, p)
			}
		}
	})
	t.Logf("screenshots: %q", shots)
}

// checkCharts checks the ping page's three charts as drawn.
func checkCharts(t *testing.T, look string, charts []chartFacts, latency, sweep int) {
	t.Helper()
	if len(charts) != 3 {
		t.Fatalf("ping (%s): %d line charts drawn, want 3", look, len(charts))
	}
	for i, c := range charts {
		where := fmt.Sprintf("ping (%s) chart %q", look, c.Title)
		if c.Width < 300 || c.Height < 100 {
			t.Errorf("%s: drawn %gx%g px", where, c.Width, c.Height)
		}
		if len(c.Units) != 2 || c.Units[0] == "" || c.Units[1] == "" || !c.UnitsInside {
			t.Errorf("%s: axis units %q, inside the chart: %v", where, c.Units, c.UnitsInside)
		}
		wantDots, wantHollow, wantKnees, wantLines := latency, 1, 0, 2
		if i == 2 {
			wantDots, wantHollow, wantKnees = sweep, 0, 1
		}
		if c.Dots != wantDots || c.Hollow != wantHollow || c.Knees != wantKnees || c.Lines != wantLines || c.TickLabels < 6 {
			t.Errorf("%s: %d dots (%d hollow), %d knees, %d lines, %d tick labels; want %d (%d), %d, %d, 6 or more",
				where, c.Dots, c.Hollow, c.Knees, c.Lines, c.TickLabels, wantDots, wantHollow, wantKnees, wantLines)
		}
	}
}
