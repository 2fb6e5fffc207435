package parse

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

const goldenDir = "testdata/golden"

// goldenDumps lists every dump under testdata: the tool fixtures and the
// bun-http-framework-benchmark snapshots; not their results tables, notes,
// audit inputs or fuzz corpora.
func goldenDumps(t *testing.T) []string {
	t.Helper()
	var names []string
	for _, g := range []string{"testdata/*_*", "testdata/bun/*/results/*/*.txt"} {
		m, err := filepath.Glob(g)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, m...)
	}
	if len(names) < 100 {
		t.Fatalf("found %d dumps under testdata; run the test from the parse directory", len(names))
	}
	return names
}

// goldenOutput is what `fairbench parse -format json FILE` writes for a
// dump, read the way Walk reads a file, and its errors one per line. The
// path is relative (testdata/…), so the output does not depend on where the
// repository is.
func goldenOutput(t *testing.T, name string) (jsonl, errs []byte) {
	t.Helper()
	var out, errOut bytes.Buffer
	w := NewJSONWriter(&out)
	for _, err := range walkFile(filepath.ToSlash(name), w.Write) {
		errOut.WriteString(err.Error() + "\n")
	}
	return out.Bytes(), errOut.Bytes()
}

// TestGolden compares the JSON Lines of every dump under testdata with
// testdata/golden/<path>.jsonl, and its errors with <path>.err (absent when
// there are none). Regenerate with: go test ./parse -run Golden -update
func TestGolden(t *testing.T) {
	dumps := goldenDumps(t)
	if *update {
		if err := os.RemoveAll(goldenDir); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]bool{}
	for _, name := range dumps {
		rel := strings.TrimPrefix(filepath.ToSlash(name), "testdata/")
		jsonl, errs := goldenOutput(t, name)
		checkGolden(t, rel+".jsonl", jsonl)
		want[rel+".jsonl"] = true
		if len(errs) > 0 {
			checkGolden(t, rel+".err", errs)
			want[rel+".err"] = true
		}
	}
	// A golden file without its dump is stale, and so is a .err file for a
	// dump that now reads cleanly.
	filepath.WalkDir(goldenDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel := strings.TrimPrefix(filepath.ToSlash(p), goldenDir+"/")
		if !want[rel] {
			t.Errorf("%s: stale golden file (run go test ./parse -run Golden -update)", p)
		}
		return nil
	})
}

// checkGolden compares got with the golden file rel, or writes it with -update.
func checkGolden(t *testing.T, rel string, got []byte) {
	t.Helper()
	path := filepath.Join(goldenDir, filepath.FromSlash(rel))
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("%s: no golden file (run go test ./parse -run Golden -update): %v", rel, err)
		return
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from its golden file (run go test ./parse -run Golden -update and review the diff):\n%s", rel, firstLineDiff(got, want))
	}
}

// firstLineDiff shows the first line where got and want differ.
func firstLineDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	i := 0
	for i < len(g) && i < len(w) && g[i] == w[i] {
		i++
	}
	line := func(lines []string) string {
		if i < len(lines) {
			return lines[i]
		}
		return "(end)"
	}
	return fmt.Sprintf("line %d:\n got %s\nwant %s", i+1, line(g), line(w))
}
