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
	Boxes    []string `json:"boxes"`    // the answer boxes' titles wholly in the window
	Sized    int      `json:"sized"`    // of their answer lines in the window, those that say what the run tells apart
	Lines    int      `json:"lines"`    // answer lines in the window
	Overflow int      `json:"overflow"` // px the page is wider than the window
	Header   int      `json:"header"`   // px from the top of the page to the end of the site's header
	Read     int      `json:"read"`     // px from the top of the page to the end of the sentence on reading "~"
}

const firstScreenJS = `(() => {
  const h = window.innerHeight;
  const whole = e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && r.top >= 0 && r.bottom <= h; };
  const boxes = [...document.querySelectorAll(".answer-box")].filter(b => whole(b.querySelector("h2")));
  const lines = [...document.querySelectorAll(".answer-box p")].filter(whole);
  const read = document.querySelector(".read-first");
  return {
    boxes: boxes.map(b => b.querySelector("h2").textContent),
    lines: lines.length,
    sized: lines.filter(p => /tells apart differences of \d/.test(p.textContent)).length,
    overflow: document.documentElement.scrollWidth - window.innerWidth,
    header: Math.round(document.querySelector("header.site").getBoundingClientRect().bottom + window.scrollY),
    read: read ? Math.round(read.getBoundingClientRect().bottom + window.scrollY) : -1,
  };
})()`

// maxHeader is how far down the site's header may end on the index, in
// CSS px, at any window width: the brand and the pages, and on a desktop
// the scenarios. A phone wraps the brand (a title cut short read as
// another site's) and the pages: five rows of small type.
const maxHeader = 140

// firstAnswers are the questions of the project's site.toml whose answers
// the first screen must hold, at every width: plain Go, and Node.js or Bun.
var firstAnswers = regexp.MustCompile(`in Go$|on Node\.js$|on Bun$`)

// TestIndexFirstScreen renders fairbench's own site from the committed
// runs, as Netlify does, and loads its index in Chromium on a desktop
// (1440×900) and a phone (390×844). In both the header ends within
// maxHeader, the sentence on reading "~" and "=" is in the first screen
// before the answers, and that screen, before any scrolling, holds the answer
// for plain Go and for Node.js or Bun, each line with the size of what its
// run tells apart; the page is at most 150 KB and never scrolls sideways.
// Screenshots of both first screens are kept in FAIRBENCH_ARTIFACTS (or
// go test -artifacts), else taken in the test's temporary folder and
// removed with it.
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
	at := bytes.Index(html, []byte(`<section class="answers"`))
	t.Logf("index.html: %d bytes; the answers start at byte %d", len(html), at)
	if len(html) > 150<<10 {
		t.Errorf("index.html is %d bytes, want at most 150 KB", len(html))
	}
	if at < 0 || at > 8<<10 {
		t.Errorf("the answers start at byte %d of index.html, want within the first 8 KB", at)
	}

	shots := screenshotDir(t, "index-first-screen")
	if shots == "" {
		shots = t.TempDir()
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
		t.Logf("%d×%d: header ends at %d px, the reading sentence at %d px; answers in the first screen: %q, %d lines (%d with their size); %s", w, h, f.Header, f.Read, f.Boxes, f.Lines, f.Sized, name)
		var asked []string
		for _, b := range f.Boxes {
			if firstAnswers.MatchString(b) {
				asked = append(asked, b)
			}
		}
		if len(asked) < 2 {
			t.Errorf("%d×%d: the first screen answers %q; want plain Go and Node.js or Bun", w, h, f.Boxes)
		}
		if f.Lines == 0 || f.Sized < f.Lines {
			t.Errorf("%d×%d: %d answer lines in the first screen, %d of them with what the run tells apart", w, h, f.Lines, f.Sized)
		}
		if f.Read < 0 || f.Read > int(h) {
			t.Errorf("%d×%d: the sentence on reading ~ ends at %d px, below the first screen", w, h, f.Read)
		}
		if f.Header > maxHeader {
			t.Errorf("%d×%d: the site's header ends at %d px, want at most %d", w, h, f.Header, maxHeader)
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
