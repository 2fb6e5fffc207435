package render

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSiteLinksOutRefused: a link in the site's content/ or theme/ to a
// file outside the site folder (a cloned repository's link to
// ~/.ssh/id_rsa) is refused before anything is written, naming the link;
// a link that stays inside the site folder is followed.
func TestSiteLinksOutRefused(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "id_rsa")
	os.WriteFile(secret, []byte("-----BEGIN PRIVATE KEY----- private-key\n"), 0o600)
	for _, link := range []string{"content/methodology.md", "content/caveats.md", "theme/style.css", "theme/index.html", "theme/site.js"} {
		t.Run(link, func(t *testing.T) {
			dir := t.TempDir()
			os.MkdirAll(filepath.Join(dir, "content"), 0o755)
			os.MkdirAll(filepath.Join(dir, "theme"), 0o755)
			if err := os.Symlink(secret, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
				t.Fatal(err)
			}
			site, err := LoadSite(dir)
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "public")
			_, _, err = BuildPaths([]string{fixtureRun(t)}, Options{Out: out, Site: site})
			want := filepath.Join(dir, filepath.FromSlash(link)) + " is a link to " + secret + ", outside the site folder"
			if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), want) {
				t.Errorf("render: %v, want a usage error saying %q", err, want)
			}
			if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the refused render made %s", out)
			}
		})
	}
	// A link inside the site folder is the site's own file.
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "content"), 0o755)
	os.WriteFile(filepath.Join(dir, "shared.md"), []byte("Our own words: inside-link.\n"), 0o644)
	os.Symlink(filepath.Join("..", "shared.md"), filepath.Join(dir, "content", "methodology.md"))
	site, _ := LoadSite(dir)
	out := filepath.Join(t.TempDir(), "public")
	if _, _, err := BuildPaths([]string{fixtureRun(t)}, Options{Out: out, Site: site}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "methodology.html")); !strings.Contains(string(b), "inside-link") {
		t.Errorf("the link inside the site folder was not followed")
	}
}
