package render

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chromedp/chromedp"
)

// cellsState is what TestCellsTableBrowser reads of results.html's long
// table after each step.
type cellsState struct {
	Rows    int       `json:"rows"`    // rows shown
	All     int       `json:"all"`     // rows in the table
	Runtime []string  `json:"runtime"` // the runtimes of the rows shown, distinct
	Scen    []string  `json:"scen"`    // the scenarios of the rows shown, distinct
	RPS     []float64 `json:"rps"`     // the req/s column's sort keys of the rows shown, in order
	URL     string    `json:"url"`
}

const cellsStateJS = `(() => {
  const rows = [...document.querySelectorAll("#cells tbody tr")];
  const shown = rows.filter(r => getComputedStyle(r).display !== "none");
  const uniq = a => [...new Set(a)];
  return {
    rows: shown.length, all: rows.length,
    runtime: uniq(shown.map(r => r.cells[2].textContent.trim())),
    scen: uniq(shown.map(r => r.cells[4].textContent.trim())),
    rps: shown.map(r => parseFloat(r.cells[5].getAttribute("data-v"))),
    url: location.search,
  };
})()`

// TestCellsTableBrowser loads the project's results.html in Chromium: the
// long table of every cell is there without script (every row shown),
// sorts by req/s when its heading is clicked, and keeps only the rows of
// the runtime and scenario chosen in the filters, which the URL keeps.
func TestCellsTableBrowser(t *testing.T) {
	exe := chromium(t)
	projectPage(t, "results.html") // builds the site, or skips under -short
	srv := httptest.NewServer(http.FileServer(http.Dir(projectSite.dir)))
	defer srv.Close()
	ctx, events := newBrowser(t, exe, srv.URL)
	read := func(step string) cellsState {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[cellsState](cellsStateJS))
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		t.Logf("%s: %d of %d rows, runtimes %v, scenarios %d, query %q", step, s.Rows, s.All, s.Runtime, len(s.Scen), s.URL)
		return s
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/results.html")); err != nil {
		t.Fatal(err)
	}
	s := read("loaded")
	if s.All < 100 || s.Rows != s.All || len(s.Runtime) < 3 {
		t.Fatalf("the table shows %d of %d rows over runtimes %v; want every cell of the site's runs", s.Rows, s.All, s.Runtime)
	}
	act := func(js string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js)); err != nil {
			t.Fatal(err)
		}
	}
	act(`(document.querySelector("#cells thead th:nth-child(6)").click(), true)`)
	s = read("sorted by req/s")
	for i := 1; i < len(s.RPS); i++ {
		if s.RPS[i] > s.RPS[i-1] {
			t.Fatalf("after a click on req/s, row %d (%g) is above row %d (%g): not sorted highest first", i, s.RPS[i-1], i+1, s.RPS[i])
		}
	}
	// As a reader picks from the selects: the value, then a change event.
	for _, pick := range [][2]string{{"rt", "bun"}, {"s", "json"}} {
		act(`(() => { const s = document.querySelector('select[name="` + pick[0] + `"]'); s.value = "` + pick[1] + `"; s.dispatchEvent(new Event("change")); return true; })()`)
	}
	s = read("bun, json")
	if s.Rows == 0 || s.Rows >= s.All || len(s.Runtime) != 1 || s.Runtime[0] != "bun" || len(s.Scen) != 1 || s.Scen[0] != "json" {
		t.Errorf("filtered to bun and json, the table shows %d rows of runtimes %v and scenarios %v", s.Rows, s.Runtime, s.Scen)
	}
	if s.URL == "" {
		t.Error("the filters are not kept in the URL")
	}
	for _, p := range events.take() {
		t.Error(p)
	}
}
