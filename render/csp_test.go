package render

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// cspMetaRE is the Content-Security-Policy meta element of a page.
var cspMetaRE = regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`)

// TestEveryPageCarriesCSP: every page of a site, in every theme, carries a
// strict Content-Security-Policy of its own, in its head before anything it
// loads, for hosts that send no headers: no inline script or style, nothing
// from off the site.
func TestEveryPageCarriesCSP(t *testing.T) {
	for _, theme := range []string{"default", "mono"} {
		out := filepath.Join(t.TempDir(), "site")
		site := DefaultSite
		site.Theme = theme
		if _, errs, err := BuildPaths([]string{fixtureRun(t)}, Options{Out: out, Site: &site}); err != nil || len(errs) > 0 {
			t.Fatal(err, errs)
		}
		pages := 0
		for rel, body := range tree(t, out) {
			if !strings.HasSuffix(rel, ".html") {
				continue
			}
			pages++
			m := cspMetaRE.FindStringSubmatchIndex(body)
			if m == nil {
				t.Errorf("%s: %s has no CSP meta", theme, rel)
				continue
			}
			csp := body[m[2]:m[3]]
			for _, want := range []string{"default-src 'none'", "script-src 'self'", "style-src 'self'", "base-uri 'none'", "form-action 'none'"} {
				if !strings.Contains(csp, want) {
					t.Errorf("%s: %s: CSP %q lacks %q", theme, rel, csp, want)
				}
			}
			if strings.Contains(csp, "unsafe-") {
				t.Errorf("%s: %s: CSP %q allows unsafe sources", theme, rel, csp)
			}
			if first := strings.Index(body, "<link"); first >= 0 && first < m[0] || strings.Index(body, "<script") >= 0 && strings.Index(body, "<script") < m[0] {
				t.Errorf("%s: %s loads something before its CSP", theme, rel)
			}
		}
		if pages < 10 {
			t.Errorf("%s: %d pages", theme, pages)
		}
	}
}
