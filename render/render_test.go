package render

import (
	"bytes"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// fixture reads the fixed run (a real demo run: three Go servers, three
// scenarios, five repetitions, bombardier dumps) and the test site.
func fixture(t testing.TB) (*parse.Set, *Site) {
	t.Helper()
	return loadSiteRuns(t, filepath.Join("testdata", "site"))
}

// loadSiteRuns reads the site folder dir and every run its site.toml names.
func loadSiteRuns(t testing.TB, dir string) (*parse.Set, *Site) {
	t.Helper()
	site, err := LoadSite(dir)
	if err != nil {
		t.Fatal(err)
	}
	paths, err := site.RunPaths()
	if err != nil {
		t.Fatal(err)
	}
	set, errs := parse.ReadAll(paths)
	for _, err := range errs {
		t.Errorf("reading %s: %v", dir, err)
	}
	if len(set.Measurements) == 0 {
		t.Fatalf("%s: its runs have no measurements", dir)
	}
	return set, site
}

func build(t testing.TB, set *parse.Set, site *Site) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "site")
	if _, err := Build(set, Options{Out: out, Site: site}); err != nil {
		t.Fatal(err)
	}
	return out
}

// goldenFiles are the files compared with testdata/golden: every page but
// the dump pages (one is kept), and the exports.
func goldenFiles(t *testing.T, out string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, out+string(filepath.Separator)))
		switch {
		case strings.HasPrefix(rel, "raw/"):
		case strings.HasPrefix(rel, "dump/") && !strings.HasSuffix(rel, "/dumps/gin/ping/1.txt.html"):
		case strings.HasSuffix(rel, ".html"), strings.HasPrefix(rel, "results."), rel == "verdicts.csv":
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestGolden(t *testing.T) {
	set, site := fixture(t)
	out := build(t, set, site)
	files := goldenFiles(t, out)
	if len(files) < 15 {
		t.Fatalf("only %d pages: %v", len(files), files)
	}
	golden := filepath.Join("testdata", "golden")
	if *update {
		os.RemoveAll(golden)
	}
	for _, rel := range files {
		got, err := os.ReadFile(filepath.Join(out, rel))
		if err != nil {
			t.Fatal(err)
		}
		want := filepath.Join(golden, filepath.FromSlash(rel))
		if *update {
			os.MkdirAll(filepath.Dir(want), 0o755)
			if err := os.WriteFile(want, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		w, err := os.ReadFile(want)
		if err != nil {
			t.Errorf("%s: no golden file (run go test ./render -update): %v", rel, err)
			continue
		}
		if !bytes.Equal(got, w) {
			t.Errorf("%s differs from %s (run go test ./render -update and review the diff):\n%s", rel, want, firstDiff(got, w))
		}
	}
}

// firstDiff shows the first line where got and want differ.
func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return "line " + strconv.Itoa(i+1) + ":\n got: " + a + "\nwant: " + b
		}
	}
	return ""
}

// TestDeterministic builds the site twice and compares every byte.
func TestDeterministic(t *testing.T) {
	set, site := fixture(t)
	a, b := build(t, set, site), build(t, set, site)
	files := map[string][]byte{}
	filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files[strings.TrimPrefix(p, a)], _ = os.ReadFile(p)
		}
		return err
	})
	n := 0
	filepath.WalkDir(b, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		got, _ := os.ReadFile(p)
		if want, ok := files[strings.TrimPrefix(p, b)]; !ok || !bytes.Equal(got, want) {
			t.Errorf("%s differs between two builds", strings.TrimPrefix(p, b))
		}
		return nil
	})
	if n != len(files) {
		t.Errorf("the builds wrote %d and %d files", len(files), n)
	}
}

// TestNoInlineStyleOrScript checks what a strict CSP needs: no style
// attributes, no inline scripts or handlers, no URL off the site.
func TestNoInlineStyleOrScript(t *testing.T) {
	set, site := fixture(t)
	out := build(t, set, site)
	for _, rel := range goldenFiles(t, out) {
		if !strings.HasSuffix(rel, ".html") {
			continue
		}
		b, _ := os.ReadFile(filepath.Join(out, rel))
		page := strings.ToLower(string(b))
		for _, bad := range []string{" style=", "<style", " onerror=", " onclick=", " onload=", "javascript:", "<script>", `src="http`, `src="//`, `url(`} {
			if strings.Contains(page, bad) {
				i := strings.Index(page, bad)
				t.Errorf("%s contains %q: …%s…", rel, bad, page[max(0, i-80):min(len(page), i+80)])
			}
		}
	}
}
