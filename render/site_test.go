package render

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fairbench/fairbench/parse/audit"
)

func TestParseSiteErrors(t *testing.T) {
	for _, c := range []struct {
		name, src, want string
	}{
		{"unknown key", "title = \"x\"\nthem = \"mono\"\n", `site.toml:2: unknown key "them"`},
		{"wrong type", "title = \"x\"\n\n[[card]]\nsubject = 3\n", "site.toml:4:"},
		{"card without baseline", "[[card]]\nsubject = \"a\"\n\n[[card]]\nsubject = \"b\"\nbaseline = \"c\"\n\n[[card]]\nsubject = \"d\"\n", "site.toml:8: card needs a subject and a baseline"},
		{"bad pair", "[[comparison]]\ntitle = \"t\"\npairs = [[\"a\"]]\n", `site.toml:3: comparison "t": pair ["a"] must name two targets`},
		{"bad metric", "title = \"x\"\nmetric = \"p99\"\n", `site.toml:2: metric "p99": want rps or good_rps`},
		{"bad column", "[results_md]\ncolumns = [{ title = \"X\", value = \"bogus\" }]\n", `site.toml:2: results_md column 1: unknown value "bogus"`},
		{"scenario column without name", "[results_md]\ncolumns = [{ title = \"X\", value = \"scenario\" }]\n", `needs a scenario`},
		{"syntax", "title = \n", "site.toml:1:"},
		{"unknown kind", "[[comparison]]\ntitle = \"t\"\nkind = \"orms\"\npairs = [[\"a\", \"b\"]]\n", `site.toml:3: comparison "t": kind "orms": want one of aa, adapter, orm, pairs, runtime, static`},
		{"pair of one target", "[[comparison]]\ntitle = \"t\"\n\npairs = [[\"a\", \"a\"]]\n", `site.toml:4: comparison "t": pair ["a" "a"] names one target twice`},
		{"empty scenario", "[[comparison]]\ntitle = \"t\"\npairs = [[\"a\", \"b\"]]\nscenarios = [\"db\", \"\"]\n", `site.toml:4: comparison "t": scenario 2 is empty`},
		{"scenario twice", "[[card]]\ntitle = \"c\"\nsubject = \"a\"\nbaseline = \"b\"\nscenarios = [\"db\", \"db\"]\n", `site.toml:5: card "c": scenario "db" is named twice`},
		{"card baseline is subject", "[[card]]\nsubject = \"a\"\nbaseline = \"a\"\n", `site.toml:3: card "": subject and baseline are both "a"`},
		{"escape is baseline", "[[card]]\nsubject = \"a\"\nbaseline = \"b\"\n\nescapes = [\"c\", \"b\"]\n", `site.toml:5: card "": escape "b" must name a target other than the subject and the baseline`},
	} {
		_, err := ParseSite([]byte(c.src), "site.toml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.name, err, c.want)
		}
	}
}

func TestParseSite(t *testing.T) {
	s, err := ParseSite([]byte(`
title = "T"
runs = ["results/*"]
theme = "mono"

[[card]]
subject = "a"
baseline = "b"
escapes = ["c"]

[[comparison]]
title = "pairs"
pairs = [["a", "b"]]
`), "site.toml")
	if err != nil {
		t.Fatal(err)
	}
	if s.Title != "T" || s.Theme != "mono" || s.Metric != "rps" || len(s.Cards) != 1 || s.Cards[0].Escapes[0] != "c" || len(s.Comparisons[0].Pairs) != 1 {
		t.Errorf("got %+v", s)
	}
}

func TestLoadSiteWithout(t *testing.T) {
	dir := t.TempDir()
	s, err := LoadSite(dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Title != DefaultTitle || s.Dir != dir {
		t.Errorf("got %+v", s)
	}
	if _, err := s.RunPaths(); err != nil {
		t.Errorf("no runs declared: %v", err)
	}
	s.Runs = []string{"nothing/*"}
	if _, err := s.RunPaths(); err == nil || !strings.Contains(err.Error(), "match nothing") {
		t.Errorf("a glob matching nothing: %v", err)
	}
}

func TestAAPairs(t *testing.T) {
	if _, err := ParseSite([]byte("aa_pairs = [[\"a\"]]\n"), "site.toml"); err == nil || !strings.Contains(err.Error(), `site.toml:1: aa_pairs: pair ["a"] must name two targets`) {
		t.Errorf("bad pair: err = %v", err)
	}
	set, site := fixture(t)
	// A pair whose second name was never measured: the audit must say the
	// run's noise went unchecked, which proves the pairs reach it.
	s := *site
	s.AAPairs = [][]string{{"chi", "chi-again"}}
	m := newModel(fromSet(set, Options{Site: &s}), &s)
	found := false
	for _, f := range m.findings {
		if f.Rule == audit.RuleAAPair && strings.Contains(f.Target, "chi") {
			found = true
		}
	}
	if !found {
		t.Errorf("no %s finding for the pair chi = chi-again", audit.RuleAAPair)
	}
}

// TestLoadSiteRefusesSpecialFiles refuses a site.toml that is a FIFO or
// over the size limit, at once and saying which.
func TestLoadSiteRefusesSpecialFiles(t *testing.T) {
	fifoDir, bigDir := t.TempDir(), t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(fifoDir, "site.toml"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bigDir, "site.toml"), bytes.Repeat([]byte("# padding\n"), 200_000), 0o600); err != nil {
		t.Fatal(err)
	}
	for dir, want := range map[string]string{fifoDir: "not a regular file (a FIFO)", bigDir: "over the 1024 KiB limit of a TOML file"} {
		done := make(chan error, 1)
		go func() { _, err := LoadSite(dir); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "site.toml")+": "+want) {
				t.Errorf("err = %v, want it to name site.toml and say %q", err, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: still reading site.toml after 5 s", dir)
		}
	}
}
