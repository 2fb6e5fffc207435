package render

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/fairbench/fairbench/parse"
)

// hostile is a target name that must show as text, never as markup.
const hostile = `<img src=x onerror=alert(1)>`

// chromium finds the browser the test drives: $FAIRBENCH_CHROMIUM, or
// Debian's chromium.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("FAIRBENCH_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	missing(t, "chromium", "apt-get install chromium")
	return ""
}

// netlifyPaths reads netlify.toml's headers, so that the test server
// holds each path of the site to what production sends for it.
func netlifyPaths(t *testing.T) []netlifyRule {
	t.Helper()
	rules := netlifyRules(t)
	if csp := netlifyHeadersFor(rules, "/index.html")["Content-Security-Policy"]; !strings.Contains(csp, "default-src 'none'") {
		t.Fatalf("netlify.toml: the CSP for /index.html is not strict: %q", csp)
	}
	return rules
}

// hostileFixture is the fixed run with one target renamed to markup (the
// test site's caveats.md already links javascript:alert(1)), and an earlier
// run of the same suite on another kernel, so history has two runs.
func hostileFixture(t *testing.T) (*parse.Set, *Site) {
	set, site := fixture(t)
	earlier := earlierRun(t, set.Runs[0].Path)
	more, errs := parse.ReadAll([]string{earlier})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	set.Runs = append(more.Runs, set.Runs...)
	set.Targets = append(more.Targets, set.Targets...)
	set.Measurements = append(more.Measurements, set.Measurements...)
	for _, m := range set.Measurements {
		if m.Target == "gin" {
			m.Target = hostile
		}
	}
	for _, tg := range set.Targets {
		if tg.Name == "gin" {
			tg.Name = hostile
		}
	}
	// A version string is whatever a binary printed: it must stay text too.
	for _, r := range set.Runs {
		v := r.Tools["go"]
		v.Version = hostileVersion
		r.Tools["go"] = v
	}
	s := *site
	s.Cards = append([]Card{{Subject: hostile, Baseline: "stdlib", Escapes: []string{"chi"}}}, s.Cards...)
	return set, &s
}

// earlierRun copies a run dir as a run a day before, on another kernel.
func earlierRun(t *testing.T, dir string) string {
	t.Helper()
	to := filepath.Join(t.TempDir(), "20261128T192304Z-vm")
	if err := os.CopyFS(to, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(to, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.NewReplacer(`"id": "20261129T192304Z-vm"`, `"id": "20261128T192304Z-vm"`,
		`"start": "2026-11-29T`, `"start": "2026-11-28T`, `"kernel": "6.18.44-fc-v669"`, `"kernel": "6.12.0"`).Replace(string(b))
	if s == string(b) {
		t.Fatal("run.json of the fixture changed shape: earlierRun replaced nothing")
	}
	if err := os.WriteFile(filepath.Join(to, "run.json"), []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return to
}

// browserEvents collects what must not happen on a page.
type browserEvents struct {
	mu       sync.Mutex
	problems []string
}

func (b *browserEvents) add(format string, args ...any) {
	b.mu.Lock()
	b.problems = append(b.problems, fmt.Sprintf(format, args...))
	b.mu.Unlock()
}

func (b *browserEvents) take() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.problems
	b.problems = nil
	return p
}

func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("drives headless Chromium over every page")
	}
	exe := chromium(t)
	rules := netlifyPaths(t)
	set, site := hostileFixture(t)
	root := t.TempDir()
	out := filepath.Join(root, "default")
	if _, err := Build(set, Options{Out: out, Site: site}); err != nil {
		t.Fatal(err)
	}
	mono := *site
	mono.Theme = "mono"
	if _, err := Build(set, Options{Out: filepath.Join(root, "mono"), Site: &mono}); err != nil {
		t.Fatal(err)
	}
	// fairbench's own site, from the runs committed under site/results, as
	// Netlify builds it.
	project := buildProjectSite(t, filepath.Join(root, "project"))
	srv := serveSites(t, root, rules)

	shots := screenshotDir(t, "screenshots")

	ctx, events := newBrowser(t, exe, srv.URL)

	var pages []string
	for _, p := range sitePages(t, out) {
		pages = append(pages, "default/"+p)
	}
	pages = append(pages, "mono/index.html", "mono/scenario/ping.html", "mono/target/chi.html")
	for _, p := range sitePages(t, project) {
		pages = append(pages, "project/"+p)
	}
	for rel := range keyPages {
		if !slices.Contains(pages, rel) {
			t.Errorf("key page %s is not in the site", rel)
		}
	}
	// Every page is loaded once, the four looks (light and dark, phone and
	// desktop width) taking turns, and whatever it logs, throws or asks
	// off the site is a failure; the pages of every kind in keyPages are
	// loaded in all four looks and kept as screenshots (a full-page
	// screenshot costs seconds on a busy 2-core machine: all 216 of them
	// took the test past five minutes).
	shown, look := 0, 0
	eachLook(t, ctx, func(width int64, scheme string) {
		look++
		for i, rel := range pages {
			if i%4 != look-1 && !keyPages[rel] {
				continue
			}
			if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"+rel)); err != nil {
				t.Fatalf("%s: %v", rel, err)
			}
			if keyPages[rel] {
				shown++
				screenshot(t, ctx, shots, fmt.Sprintf("%s-%d-%s.png", pageName(rel), width, scheme), 100)
			}
			for _, p := range events.take() {
				t.Errorf("%s (%d px, %s): %s", rel, width, scheme, p)
			}
		}
	})
	t.Logf("%d pages loaded, %d loads of the key pages in every look; screenshots: %q", len(pages), shown, shots)
	checkHarmless(t, ctx, srv.URL+"/default")
	for _, p := range events.take() {
		t.Errorf("%s", p)
	}
}

// screenshotDir is the folder under which a test keeps its screenshots,
// made, or "" when none are kept: go test removes its artifact folder
// unless -artifacts is given, and a full-page screenshot costs seconds on
// a busy 2-core machine (24 s for the tables index at 1440 px), so they
// are taken only for FAIRBENCH_ARTIFACTS or go test -artifacts.
func screenshotDir(t *testing.T, sub string) string {
	t.Helper()
	dir := os.Getenv("FAIRBENCH_ARTIFACTS")
	if f := flag.Lookup("test.artifacts"); dir == "" && f != nil && f.Value.String() == "true" {
		dir = t.ArtifactDir()
	}
	if dir == "" {
		return ""
	}
	dir = filepath.Join(dir, sub)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// screenshot saves the whole page ctx shows as dir/name (PNG at quality
// 100, else JPEG), unless dir is "" (screenshotDir).
func screenshot(t *testing.T, ctx context.Context, dir, name string, quality int) {
	t.Helper()
	if dir == "" {
		return
	}
	img, err := chromedp.Run(ctx, chromedp.FullScreenshot(quality))
	if err != nil {
		t.Fatalf("%s: screenshot: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), img, 0o644); err != nil {
		t.Fatal(err)
	}
}

// pageName is a site path as a file name: scenario/ping.html → scenario_ping.
func pageName(rel string) string {
	return strings.NewReplacer("/", "_", ".html", "").Replace(rel)
}

// serveSites serves the sites under root (/default/, /mono/, …) with the
// headers netlify.toml gives each path from a site's root, until the test
// ends.
func serveSites(t *testing.T, root string, rules []netlifyRule) *httptest.Server {
	t.Helper()
	files := http.FileServer(http.Dir(root))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The sites are served from /default/, /mono/ and /project/;
		// netlify.toml's paths are from a site's root.
		_, rest, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		for k, v := range netlifyHeadersFor(rules, "/"+rest) {
			w.Header().Set(k, v)
		}
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// browserAllocator starts headless Chromium (exe) as every browser test
// here runs it: headless, no sandbox (the tests run as root), no GPU, no
// first-run, background networking, component updates or sync, a fresh
// profile, and its own scratch files (org.chromium.Chromium.*) in the
// test's temporary folder rather than /tmp. The browser ends with the test.
func browserAllocator(t *testing.T, exe string) context.Context {
	t.Helper()
	alloc, cancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Env("TMPDIR="+t.TempDir()),
	)
	t.Cleanup(cancel)
	return alloc
}

// newBrowser starts headless Chromium for the test, bounded by what go
// test leaves of its deadline, and collects into events whatever a page
// logs as an error or warning, throws, asks off the site at siteURL, or
// fails to load. The browser ends with the test.
func newBrowser(t *testing.T, exe, siteURL string) (context.Context, *browserEvents) {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browserAllocator(t, exe))
	t.Cleanup(cancel)
	// The browser's own bound: what go test leaves of its deadline, less a
	// minute to report, so a slow shared machine fails with the page it was
	// on rather than with go test's panic.
	limit := 8 * time.Minute
	if d, ok := t.Deadline(); ok {
		limit = min(limit, time.Until(d)-time.Minute)
	}
	ctx, cancel = context.WithTimeout(ctx, limit)
	t.Cleanup(cancel)

	events := &browserEvents{}
	err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning || ev.Type == runtime.ConsoleAPICalledTypeAssert {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				events.add("console.%s: %s", ev.Type, strings.Join(args, " "))
			}
		case *runtime.EventExceptionThrown:
			events.add("exception: %s", (&chromedp.ExceptionError{ExceptionDetails: ev.ExceptionDetails}).Error())
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError || ev.Entry.Level == log.EntryLevelWarning {
				events.add("log %s %s: %s %s", ev.Entry.Level, ev.Entry.Source, ev.Entry.Text, ev.Entry.URL)
			}
		case *network.EventRequestWillBeSent:
			if u := ev.Request.URL; !strings.HasPrefix(u, siteURL+"/") && !strings.HasPrefix(u, "data:") {
				events.add("request off the site: %s", u)
			}
		case *network.EventLoadingFailed:
			events.add("loading failed: %s %s", ev.ErrorText, ev.BlockedReason)
		case *page.EventJavascriptDialogOpening:
			events.add("a script opened a %s dialog: %q", ev.Type, ev.Message)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return ctx, events
}

// eachLook sets the four looks in turn (light and dark, phone and desktop
// width) and calls fn in each.
func eachLook(t *testing.T, ctx context.Context, fn func(width int64, scheme string)) {
	t.Helper()
	for _, scheme := range []string{"light", "dark"} {
		if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
		}); err != nil {
			t.Fatal(err)
		}
		for _, width := range []int64{375, 1440} {
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 900)); err != nil {
				t.Fatal(err)
			}
			fn(width, scheme)
		}
	}
}

// keyPages are seen in every look by TestBrowser: one page of each kind of
// both themes and of the project's own site.
var keyPages = map[string]bool{
	"default/index.html": true, "default/scenario/ping.html": true, "default/target/chi.html": true,
	"default/methodology.html": true, "default/results.html": true, "default/soft.html": true,
	"mono/index.html": true, "mono/scenario/ping.html": true, "mono/target/chi.html": true,
	"project/index.html": true, "project/methodology.html": true,
}

// buildProjectSite makes out a link to the project's site (../site:
// site.toml and the committed runs), rendered once for the package's
// tests (projectSiteDir), and returns the site's own folder, which a
// folder walk enters. The tests read it and never write to it, so one
// render of every committed run serves them all.
func buildProjectSite(t *testing.T, out string) string {
	t.Helper()
	dir := projectSiteDir(t)
	if err := os.Symlink(dir, out); err != nil {
		t.Fatal(err)
	}
	return dir
}

// sitePages lists the HTML pages to visit: all but the dump pages, of which
// one is kept.
func sitePages(t *testing.T, out string) []string {
	var pages []string
	dumps := 0
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, out+string(filepath.Separator)))
		if strings.HasPrefix(rel, "dump/") {
			if dumps++; dumps > 1 {
				return nil
			}
		}
		pages = append(pages, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pages
}

// checkHarmless checks that the hostile name is text and the javascript:
// link of the caveats is dead.
// hostileVersion is a tool version that is markup.
const hostileVersion = `go1.26 <svg onload=alert(2)>`

func checkHarmless(t *testing.T, ctx context.Context, base string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/methodology.html")); err != nil {
		t.Fatal(err)
	}
	shownVersion, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.body.innerText.includes("<svg onload=alert(2)>") && document.querySelectorAll("[onload]").length === 0`))
	if err != nil {
		t.Fatal(err)
	}
	if !shownVersion {
		t.Error("methodology.html: the hostile tool version is not shown as text (or became markup)")
	}
	for _, rel := range []string{"index.html", "scenario/ping.html", "results.html", "target/img-src-x-onerror-alert-1.html", "soft.html"} {
		if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"+rel)); err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		imgs, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("img, [onerror], [onload]").length`))
		if err != nil {
			t.Fatal(err)
		}
		if imgs != 0 {
			t.Errorf("%s: %d img or onerror elements: the hostile name became markup", rel, imgs)
		}
		scriptLinks, err := chromedp.Run(ctx, chromedp.Evaluate[int](`Array.from(document.querySelectorAll("[href]")).filter(a => a.getAttribute("href").trim().toLowerCase().startsWith("javascript:")).length`))
		if err != nil {
			t.Fatal(err)
		}
		if scriptLinks != 0 {
			t.Errorf("%s: %d javascript: links", rel, scriptLinks)
		}
		if rel == "soft.html" {
			continue
		}
		shown, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.body.innerText.includes("<img src=x onerror=alert(1)>")`))
		if err != nil {
			t.Fatal(err)
		}
		if !shown {
			t.Errorf("%s: the hostile target name is not shown as text", rel)
		}
	}
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("caveats").innerText`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "the raw dumps") {
		t.Errorf("soft.html caveats: the linked text is gone: %q", text)
	}
}
