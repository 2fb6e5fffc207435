package render

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// firstScreen is what TestIndexFirstScreen reads off the index in Chromium:
// what the window shows before any scrolling.
type firstScreen struct {
	Answer   string `json:"answer"`   // the first run's sentence, if it is in the window
	Numbers  int    `json:"numbers"`  // heat-map cells in the window that print a number
	Claimed  int    `json:"claimed"`  // of those, cells where a difference is claimed
	HeatTop  int    `json:"heatTop"`  // px from the top of the page to the first heat map
	Overflow int    `json:"overflow"` // px the page is wider than the window
	Header   int    `json:"header"`   // px from the top of the page to the end of the site's header
	AnswerAt int    `json:"answerAt"` // px from the top of the page to the first run's sentence
}

const firstScreenJS = `(() => {
  const h = window.innerHeight;
  const seen = e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && r.top < h && r.bottom > 0; };
  const cells = [...document.querySelectorAll("table.heat td")].filter(seen).filter(td => /\d/.test(td.textContent));
  const answer = [...document.querySelectorAll(".run-summary .answer")].filter(seen).map(e => e.textContent)[0] || "";
  const heat = document.querySelector("table.heat");
  return {
    answer, numbers: cells.length,
    claimed: cells.filter(td => /\bh-([1-5]|up)\b/.test(td.className)).length,
    heatTop: heat ? Math.round(heat.getBoundingClientRect().top + window.scrollY) : -1,
    overflow: document.documentElement.scrollWidth - window.innerWidth,
    header: Math.round(document.querySelector("header.site").getBoundingClientRect().bottom + window.scrollY),
    answerAt: Math.round(document.querySelector(".run-summary .answer").getBoundingClientRect().top + window.scrollY),
  };
})()`

// maxHeader is how far down the site's header may end on the index, in
// CSS px, at any window width: the brand and the pages on one row, the
// scenarios on another, each scrolling sideways when it does not fit.
const maxHeader = 120

// verdictWords are what a run's sentence says when it says a verdict.
var verdictWords = regexp.MustCompile(`faster than the rest|cannot be told apart|no target is told apart`)

// TestIndexFirstScreen renders fairbench's own site from the committed
// runs, as Netlify does, and loads its index in Chromium on a desktop
// (1440×900) and a phone (390×844). In both the header ends within
// maxHeader and the first screen, before any scrolling, holds the first
// run's sentence (a verdict) and heat-map cells that print a number, one
// at least a claimed difference, starting in the window's top half; the
// summary starts within the first 20 KB of the HTML; the page is at most
// 150 KB (the bound; 100 KB is the aim, logged when missed, so that the
// next published run does not fail the tests) and never scrolls sideways. Screenshots of both first screens are
// kept in FAIRBENCH_ARTIFACTS (or go test -artifacts), else in a new
// temporary folder, whose path the test prints.
func TestIndexFirstScreen(t *testing.T) {
	if testing.Short() {
		t.Skip("renders the project's site and drives headless Chromium")
	}
	exe := chromium(t)
	root := t.TempDir()
	out := buildProjectSite(t, filepath.Join(root, "project"))
	html, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.Index(html, []byte(`<table class="heat">`))
	t.Logf("index.html: %d bytes; the first heat map starts at byte %d", len(html), at)
	switch {
	case len(html) > 150<<10:
		t.Errorf("index.html is %d bytes, want at most 150 KB", len(html))
	case len(html) > 100<<10:
		t.Logf("index.html is %d bytes: over the 100 KB aim", len(html))
	}
	if at < 0 || at > 20<<10 {
		t.Errorf("the first heat map starts at byte %d of index.html, want within the first 20 KB", at)
	}

	shots := screenshotDir(t, "index-first-screen")
	if shots == "" {
		if shots, err = os.MkdirTemp("", "fairbench-index-first-screen-"); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(root)))
	defer srv.Close()
	ctx, events := newBrowser(t, exe, srv.URL)
	for _, size := range [][2]int64{{1440, 900}, {390, 844}} {
		w, h := size[0], size[1]
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, h, chromedp.EmulateScale(1))); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "light"}},
		}); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/project/index.html")); err != nil {
			t.Fatal(err)
		}
		img, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(shots, fmt.Sprintf("index-%dx%d.png", w, h))
		if err := os.WriteFile(name, img, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := chromedp.Run(ctx, chromedp.Evaluate[firstScreen](firstScreenJS))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%d×%d: header ends at %d px, the first sentence at %d px", w, h, f.Header, f.AnswerAt)
		t.Logf("%d×%d: heat map at %d px, %d numbers (%d claimed) in the first screen; %s", w, h, f.HeatTop, f.Numbers, f.Claimed, name)
		if !verdictWords.MatchString(f.Answer) {
			t.Errorf("%d×%d: the first screen holds no verdict sentence (got %q)", w, h, f.Answer)
		}
		if f.Numbers == 0 || f.Claimed == 0 {
			t.Errorf("%d×%d: the first screen holds %d heat-map numbers, %d of them claimed; want a claimed one at least", w, h, f.Numbers, f.Claimed)
		}
		// Room to spare: the header is two short rows, and the numbers
		// start in the top half of the window. (Before the header's rows
		// scrolled sideways, a phone's header ended at 285 px and its heat
		// map started at 593 px of 844.)
		if f.Header > maxHeader {
			t.Errorf("%d×%d: the site's header ends at %d px, want at most %d", w, h, f.Header, maxHeader)
		}
		if f.HeatTop < 0 || f.HeatTop >= int(h)/2 {
			t.Errorf("%d×%d: the first heat map starts at %d px, not in the top half of the first screen", w, h, f.HeatTop)
		}
		if f.Overflow > 0 {
			t.Errorf("%d×%d: the page is %d px wider than the window", w, h, f.Overflow)
		}
		for _, p := range events.take() {
			t.Errorf("%d×%d: %s", w, h, p)
		}
	}
	t.Logf("screenshots of the first screens: %s", shots)
}
