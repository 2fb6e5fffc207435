package render

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// indexFacts is what TestIndexTablesBrowser reads off an index in Chromium.
type indexFacts struct {
	Cards       int      `json:"cards"`
	HowToRead   int      `json:"howToRead"`   // cards with a "how to read" that opens to text
	Tables      int      `json:"tables"`      // comparison tables drawn
	Comparisons int      `json:"comparisons"` // comparison sections
	Alerts      []string `json:"alerts"`
	Overflow    int      `json:"overflow"` // px the page is wider than the window
}

const indexFactsJS = `(() => {
  const cards = [...document.querySelectorAll("article.card")];
  let how = 0;
  for (const c of cards) {
    const d = c.querySelector("details.how");
    if (d) { d.open = true; if (d.querySelector("p").getBoundingClientRect().height > 0) how++; }
  }
  return {
    cards: cards.length, howToRead: how,
    tables: document.querySelectorAll("section.comparison table").length,
    comparisons: document.querySelectorAll("section.comparison").length,
    alerts: [...document.querySelectorAll(".card .alert, .comparison .alert")].map(e => e.innerText),
    overflow: document.documentElement.scrollWidth - window.innerWidth,
  };
})()`

// TestIndexTablesBrowser loads the index and the results page (which
// draws the tables the index lists) in Chromium twice: as site.toml
// reads once every target it names has a run, and with the fixed run, whose
// cards and tables name targets it lacks. Both draw without a console
// error, every card's how-to-read opens, the page never scrolls sideways on
// a phone, and the degraded one says what is missing.
func TestIndexTablesBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("drives headless Chromium")
	}
	exe := chromium(t)
	root := t.TempDir()
	set, site := siteTablesRun(t)
	if _, err := Build(set, Options{Out: filepath.Join(root, "full"), Site: site}); err != nil {
		t.Fatal(err)
	}
	fset, _ := fixture(t)
	deg, err := ParseSite([]byte(tablesSite), "site.toml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Build(fset, Options{Out: filepath.Join(root, "degraded"), Site: deg}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(root)))
	defer srv.Close()

	ctx, cancel := chromedp.NewContext(browserAllocator(t, exe))
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	var mu sync.Mutex
	var problems []string
	if err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning {
				mu.Lock()
				problems = append(problems, fmt.Sprintf("console.%s: %v", ev.Type, ev.Args))
				mu.Unlock()
			}
		case *runtime.EventExceptionThrown:
			mu.Lock()
			problems = append(problems, "exception: "+ev.ExceptionDetails.Text)
			mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	shots := screenshotDir(t, "")
	load := func(rel string, width int64) indexFacts {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 900)); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"+rel)); err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		f, err := chromedp.Run(ctx, chromedp.Evaluate[indexFacts](indexFactsJS))
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		screenshot(t, ctx, shots, fmt.Sprintf("tables-%s-%d.jpg", pageName(rel), width), 90)
		mu.Lock()
		for _, p := range problems {
			t.Errorf("%s at %d px: %s", rel, width, p)
		}
		problems = nil
		mu.Unlock()
		if f.Overflow > 0 {
			t.Errorf("%s at %d px: the page is %d px wider than the window", rel, width, f.Overflow)
		}
		return f
	}
	for _, width := range []int64{375, 1440} {
		// The index lists the comparison tables; the results page draws
		// them.
		full, fullTables := load("full/index.html", width), load("full/results.html", width)
		full.Tables, full.Alerts = fullTables.Tables, append(full.Alerts, fullTables.Alerts...)
		if full.HowToRead != full.Cards {
			t.Errorf("full index at %d px: %d of %d cards have a how-to-read that opens", width, full.HowToRead, full.Cards)
		}
		if full.Cards != len(site.Cards) || full.Tables != len(site.Comparisons) || len(full.Alerts) != 0 {
			t.Errorf("full index at %d px: %d cards, %d tables, alerts %q; want %d cards, %d tables, none missing", width, full.Cards, full.Tables, full.Alerts, len(site.Cards), len(site.Comparisons))
		}
		d, dTables := load("degraded/index.html", width), load("degraded/results.html", width)
		d.Comparisons, d.Tables, d.Alerts = dTables.Comparisons, dTables.Tables, append(d.Alerts, dTables.Alerts...)
		if d.Cards != 3 || d.HowToRead != 2 || d.Comparisons != 2 || d.Tables != 1 {
			t.Errorf("degraded index at %d px: %d cards, %d how-to-reads, %d sections, %d tables; want 3, 2 (the card without its subject shows nothing to read), 2, 1 (the ORM table has nothing measured)", width, d.Cards, d.HowToRead, d.Comparisons, d.Tables)
		}
		alerts := strings.Join(d.Alerts, "\n")
		for _, want := range []string{"nest-express-node, the baseline of this card, is not in this run", "elysia-bun, the subject of this card, is not in this run", "No pair of this table has been measured yet"} {
			if !strings.Contains(alerts, want) {
				t.Errorf("degraded index at %d px does not say %q; it says:\n%s", width, want, alerts)
			}
		}
	}
}
