package render

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestSoftFirstScreenBrowser: in headless Chromium, the committed site's
// soft.html shows its summary of causes on the first screen: at 1440×900
// the whole table, at 390×844 (a phone) its heading and first cause.
// Full-page screenshots of both are kept under -artifacts
// (FAIRBENCH_ARTIFACTS).
func TestSoftFirstScreenBrowser(t *testing.T) {
	projectPage(t, "soft.html") // builds the site, or skips under -short
	exe := chromium(t)
	srv := httptest.NewServer(http.FileServer(http.Dir(projectSite.dir)))
	t.Cleanup(srv.Close)
	ctx, events := newBrowser(t, exe, srv.URL)
	shots := screenshotDir(t, "soft")
	for _, vp := range []struct {
		w, h  int64
		whole bool
	}{{1440, 900, true}, {390, 844, false}} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(vp.w, vp.h)); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/soft.html")); err != nil {
			t.Fatal(err)
		}
		// The bottom of the part that must be seen: the whole table, or its
		// first row of causes.
		sel := `#summary tbody tr`
		if vp.whole {
			sel = `#summary table`
		}
		bottom, err := chromedp.Run(ctx, chromedp.Evaluate[float64](fmt.Sprintf(`document.querySelector(%q).getBoundingClientRect().bottom`, sel)))
		if err != nil {
			t.Fatal(err)
		}
		if bottom > float64(vp.h) {
			t.Errorf("soft.html at %d×%d: %s ends at %.0f px, below the first screen", vp.w, vp.h, sel, bottom)
		}
		t.Logf("soft.html at %d×%d: %s ends at %.0f px", vp.w, vp.h, sel, bottom)
		screenshot(t, ctx, shots, fmt.Sprintf("soft-%dx%d.png", vp.w, vp.h), 100)
		for _, p := range events.take() {
			t.Errorf("soft.html (%d px): %s", vp.w, p)
		}
	}
}
