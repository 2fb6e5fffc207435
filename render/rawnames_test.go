package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNonASCIINamesDistinct: two targets whose names differ only in
// non-ASCII letters ("café", "cafè") keep their dumps apart under raw/
// and on their dump pages, and the site is written whole.
func TestNonASCIINamesDistinct(t *testing.T) {
	run := fixtureRun(t)
	rename := map[string]string{"gin": "café", "chi": "cafè"}
	b, err := os.ReadFile(filepath.Join(run, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for from, to := range rename {
		s = strings.ReplaceAll(s, `"`+from+`"`, `"`+to+`"`)
		s = strings.ReplaceAll(s, `dumps/`+from+`/`, `dumps/`+to+`/`)
		s = strings.ReplaceAll(s, `conformance/`+from+`.`, `conformance/`+to+`.`)
		if err := os.Rename(filepath.Join(run, "dumps", from), filepath.Join(run, "dumps", to)); err != nil {
			t.Fatal(err)
		}
		matches, _ := filepath.Glob(filepath.Join(run, "conformance", from+".*"))
		for _, m := range matches {
			os.Rename(m, filepath.Join(run, "conformance", to+strings.TrimPrefix(filepath.Base(m), from)))
		}
	}
	os.WriteFile(filepath.Join(run, "run.json"), []byte(s), 0o644)
	out := filepath.Join(t.TempDir(), "site")
	if err := renderTo(t, out, run); err != nil {
		t.Fatal(err)
	}
	site := tree(t, out)
	var cafe []string
	for rel := range site {
		if strings.HasPrefix(rel, "raw/") && strings.Contains(rel, "/dumps/caf") {
			cafe = append(cafe, rel)
		}
	}
	got := map[string]bool{}
	for _, rel := range cafe {
		got[strings.SplitN(strings.SplitN(rel, "/dumps/", 2)[1], "/", 2)[0]] = true
	}
	if len(got) != 2 {
		t.Errorf("the dumps of café and cafè are under %d folders of raw/, want 2: %v", len(got), got)
	}
	for _, name := range []string{"target/caf.html", "target/caf-2.html"} {
		if _, ok := site[name]; !ok {
			t.Errorf("no %s: the site is not whole", name)
		}
	}
}
