package render

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// netlifyRule is one [[headers]] table of netlify.toml: the paths it is
// for, as Netlify matches them, and its headers.
type netlifyRule struct {
	For    string
	re     *regexp.Regexp
	Values map[string]string
}

// netlifyRules reads netlify.toml's [[headers]] in order. A "for" path
// matches as Netlify documents it: a part "*" is any rest of the path, a
// "*" inside a part any characters, a part ":name" one segment.
func netlifyRules(t *testing.T) []netlifyRule {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "netlify.toml"))
	if err != nil {
		t.Fatal(err)
	}
	var conf struct {
		Headers []netlifyRule `toml:"headers"`
	}
	if err := toml.Unmarshal(b, &conf); err != nil {
		t.Fatalf("netlify.toml: %v", err)
	}
	for i, h := range conf.Headers {
		var parts []string
		for _, p := range strings.Split(h.For, "/") {
			switch {
			case p == "":
			case p == "*":
				parts = append(parts, "?.*")
			case strings.HasPrefix(p, ":"):
				parts = append(parts, "[^/]+")
			default:
				q := strings.Split(p, "*")
				for j := range q {
					q[j] = regexp.QuoteMeta(q[j])
				}
				parts = append(parts, strings.Join(q, ".*"))
			}
		}
		conf.Headers[i].re = regexp.MustCompile("^/" + strings.Join(parts, "/") + "/?$")
	}
	return conf.Headers
}

// netlifyHeadersFor is what Netlify sends for path: the headers of every
// rule that matches it, a later rule's value over an earlier one's.
func netlifyHeadersFor(rules []netlifyRule, path string) map[string]string {
	out := map[string]string{}
	for _, r := range rules {
		if r.re.MatchString(path) {
			for k, v := range r.Values {
				out[k] = v
			}
		}
	}
	return out
}

// TestNetlifyHeaders: every page is held to the strict CSP; raw files are
// plain text, never sniffed; a run's archive is gzip to download (it was
// served as text/plain), and the downloads page links it with download.
func TestNetlifyHeaders(t *testing.T) {
	rules := netlifyRules(t)
	out := filepath.Join(t.TempDir(), "site")
	if err := renderTo(t, out, fixtureRun(t)); err != nil {
		t.Fatal(err)
	}
	archives := 0
	for rel := range tree(t, out) {
		h := netlifyHeadersFor(rules, "/"+rel)
		if !strings.Contains(h["Content-Security-Policy"], "default-src 'none'") || h["X-Content-Type-Options"] != "nosniff" {
			t.Errorf("/%s: CSP %q, nosniff %q", rel, h["Content-Security-Policy"], h["X-Content-Type-Options"])
		}
		switch {
		case strings.HasPrefix(rel, "raw/") && strings.HasSuffix(rel, ".tar.gz"):
			archives++
			if h["Content-Type"] != "application/gzip" || h["Content-Disposition"] != "attachment" {
				t.Errorf("/%s is served as %q, %q; want application/gzip, attachment", rel, h["Content-Type"], h["Content-Disposition"])
			}
		case strings.HasPrefix(rel, "raw/"):
			if h["Content-Type"] != "text/plain; charset=utf-8" {
				t.Errorf("/%s is served as %q, want text/plain", rel, h["Content-Type"])
			}
		default:
			if _, set := h["Content-Type"]; set {
				t.Errorf("/%s gets Content-Type %q from netlify.toml", rel, h["Content-Type"])
			}
		}
	}
	if archives != 1 {
		t.Errorf("%d archives, want 1", archives)
	}
	page, _ := os.ReadFile(filepath.Join(out, "downloads.html"))
	links := regexp.MustCompile(`<a [^>]*href="[^"]*\.tar\.gz"[^>]*>`).FindAllString(string(page), -1)
	if len(links) != 1 || !strings.Contains(links[0], " download") {
		t.Errorf("archive links %q, want one with a download attribute", links)
	}
}
