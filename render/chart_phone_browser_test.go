package render

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// phoneCharts is what TestChartsOnPhone reads off a page's bar charts.
type phoneCharts struct {
	Charts   int      `json:"charts"`
	Texts    int      `json:"texts"`
	Small    []string `json:"small"`    // texts under minLabelPx (labels) or minPhonePx on screen
	Cut      []string `json:"cut"`      // texts that reach outside their chart
	Crossed  []string `json:"crossed"`  // labels that reach into the plot, ticks that overlap
	Scroll   int      `json:"scroll"`   // bar charts that scroll sideways
	Heats    int      `json:"heats"`    // heat maps
	HeatWide []string `json:"heatWide"` // heat maps wider than their place: "N columns, W px in P"
	Overflow int      `json:"overflow"` // px the page is wider than the window
}

// minLabelPx is the least size a bar chart's label may show at on a
// phone, minPhonePx its other texts (ticks, values, the unit): the charts
// are drawn 680 units wide, and at the desktop's 13 units a label read
// about 7 px there.
const (
	minLabelPx = 11
	minPhonePx = 10
)

const phoneChartsJS = `(() => {
  const out = {charts: 0, texts: 0, small: [], cut: [], crossed: [], scroll: 0, heats: 0, heatWide: [],
    overflow: document.documentElement.scrollWidth - window.innerWidth};
  for (const t of document.querySelectorAll("table.heat")) {
    out.heats++;
    const place = (t.closest(".scroll") || t.parentElement).clientWidth;
    if (t.scrollWidth > place + 1) out.heatWide.push(t.querySelectorAll("tbody tr:first-child td").length + " columns, " + t.scrollWidth + " px in " + place);
  }
  for (const svg of document.querySelectorAll("svg.chart:not(.linechart)")) {
    out.charts++;
    const box = svg.getBoundingClientRect();
    const scale = box.width / svg.viewBox.baseVal.width;
    const axis = svg.querySelector("line.axis").getBoundingClientRect().left;
    const wrap = svg.closest(".chart-wrap");
    if (wrap && wrap.scrollWidth > wrap.clientWidth + 1) out.scroll++;
    for (const t of svg.querySelectorAll("text")) {
      out.texts++;
      const px = parseFloat(getComputedStyle(t).fontSize) * scale;
      const min = t.classList.contains("label") ? MINLABEL : MIN;
      if (px < min) out.small.push(t.textContent + " at " + px.toFixed(1) + " px, want " + min);
      const r = t.getBoundingClientRect();
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5) out.cut.push(t.textContent);
      if (t.classList.contains("label") && r.right > axis + 0.5) out.crossed.push("label " + t.textContent);
    }
    const ticks = [...svg.querySelectorAll("text.tick")].map(t => [t.textContent, t.getBoundingClientRect()]);
    for (let i = 1; i < ticks.length; i++) {
      if (ticks[i][1].left < ticks[i-1][1].right) out.crossed.push("ticks " + ticks[i-1][0] + " and " + ticks[i][0]);
    }
  }
  return out;
})()`

// TestChartsOnPhone loads pages with bar charts on a phone (390×844) in
// Chromium: the project's own site (its longest target names) in the
// default theme and the test site in mono. Every bar chart fits the page
// without scrolling, its labels show at minLabelPx or more and its other
// texts at minPhonePx, none reaches outside the chart, no label into the
// plot, no tick into the next; the page does not scroll sideways. Every
// heat map fits its place too (a wide one turns into a line per target).
func TestChartsOnPhone(t *testing.T) {
	if testing.Short() {
		t.Skip("renders the project's site and drives headless Chromium")
	}
	exe := chromium(t)
	root := t.TempDir()
	set, site := hostileFixture(t)
	mono := *site
	mono.Theme = "mono"
	if _, err := Build(set, Options{Out: filepath.Join(root, "mono"), Site: &mono}); err != nil {
		t.Fatal(err)
	}
	project := projectSiteDir(t)
	mux := http.NewServeMux()
	mux.Handle("/project/", http.StripPrefix("/project/", http.FileServer(http.Dir(project))))
	mux.Handle("/mono/", http.StripPrefix("/mono/", http.FileServer(http.Dir(filepath.Join(root, "mono")))))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	ctx, events := newBrowser(t, exe, srv.URL)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(1))); err != nil {
		t.Fatal(err)
	}
	// The pages with bar charts: the index and the scenario pages (json and
	// db hold the longest target names).
	pages := []string{"project/index.html", "project/scenario/json.html", "project/scenario/db.html",
		"mono/index.html", "mono/scenario/ping.html"}
	charts, heats := 0, 0
	for _, rel := range pages {
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"+rel)); err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		c, err := chromedp.Run(ctx, chromedp.Evaluate[phoneCharts](strings.NewReplacer("MINLABEL", strconv.Itoa(minLabelPx), "MIN", strconv.Itoa(minPhonePx)).Replace(phoneChartsJS)))
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		t.Logf("%s: %d bar charts, %d texts", rel, c.Charts, c.Texts)
		charts += c.Charts
		for _, s := range c.Small {
			t.Errorf("%s: %s px", rel, s)
		}
		for _, s := range c.Cut {
			t.Errorf("%s: %q reaches outside its chart", rel, s)
		}
		for _, s := range c.Crossed {
			t.Errorf("%s: %s cross", rel, s)
		}
		if c.Scroll > 0 {
			t.Errorf("%s: %d bar charts scroll sideways", rel, c.Scroll)
		}
		if c.Overflow > 0 {
			t.Errorf("%s: the page is %d px wider than the window", rel, c.Overflow)
		}
		for _, h := range c.HeatWide {
			t.Errorf("%s: a heat map of %s: it scrolls sideways", rel, h)
		}
		heats += c.Heats
		for _, p := range events.take() {
			t.Errorf("%s: %s", rel, p)
		}
	}
	if heats == 0 {
		t.Error("no heat map on the pages checked: the index has lost them")
	}
	if charts < len(pages) {
		t.Errorf("%d bar charts on %d pages: the pages checked have lost their charts", charts, len(pages))
	}
}
