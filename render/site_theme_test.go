package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/themes"
)

// TestThemeLookup: the site's theme/ folder, then the chosen theme, then
// the default.
func TestThemeLookup(t *testing.T) {
	set, site := fixture(t)
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "theme"), 0o755)
	os.WriteFile(filepath.Join(dir, "theme", "style.css"), []byte("/* site override */\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "theme", "downloads.html"), []byte(`{{define "downloads"}}{{template "head" .}}<p>own downloads page</p>{{template "foot" .}}{{end}}`), 0o644)
	s := *site
	s.Dir, s.Theme = dir, "mono"
	out := filepath.Join(t.TempDir(), "site")
	if _, err := Build(set, Options{Out: out, Site: &s}); err != nil {
		t.Fatal(err)
	}
	css, _ := os.ReadFile(filepath.Join(out, "style.css"))
	base, _ := os.ReadFile(filepath.Join("..", "themes", "default", "base.css"))
	if !strings.HasPrefix(string(css), string(base)) || !strings.HasSuffix(string(css), "/* site override */\n") {
		t.Errorf("style.css is not the default base.css followed by the site's style.css")
	}
	page, _ := os.ReadFile(filepath.Join(out, "downloads.html"))
	if !strings.Contains(string(page), "own downloads page") {
		t.Errorf("the site's downloads.html did not replace the theme's")
	}
	index, _ := os.ReadFile(filepath.Join(out, "index.html"))
	if !strings.Contains(string(index), `<h2 id="scenarios">`) {
		t.Errorf("index.html did not fall through to the default theme")
	}

	s.Dir, s.Theme = "", "mono"
	if _, err := Build(set, Options{Out: out, Site: &s}); err != nil {
		t.Fatal(err)
	}
	css, _ = os.ReadFile(filepath.Join(out, "style.css"))
	mono, _ := os.ReadFile(filepath.Join("..", "themes", "mono", "style.css"))
	if !strings.HasSuffix(string(css), string(mono)) {
		t.Errorf("the mono theme's colours are not in style.css")
	}

	s.Theme = "nope"
	if _, err := Build(set, Options{Out: out, Site: &s}); err == nil || !strings.Contains(err.Error(), `theme "nope"`) {
		t.Errorf("unknown theme: %v", err)
	}
}

func TestThemesComplete(t *testing.T) {
	for _, name := range themeTemplates {
		if _, err := os.Stat(filepath.Join("..", "themes", "default", name)); err != nil {
			t.Errorf("the default theme lacks %s", name)
		}
	}
	if got := themes.Names(); len(got) < 2 {
		t.Errorf("themes: %v, want default and one more", got)
	}
}
