package render

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse"
)

// TestBuildPathsMatchesBuild renders a site of four runs of one suite
// (three of them history) twice: streamed from the paths, and from a set
// read whole. Every file must be the same bytes.
func TestBuildPathsMatchesBuild(t *testing.T) {
	dir := t.TempDir()
	rssSite(t, dir, 4*rssRunDumps-7) // the newest run lacks some dumps
	site, err := LoadSite(dir)
	if err != nil {
		t.Fatal(err)
	}
	paths, err := site.RunPaths()
	if err != nil {
		t.Fatal(err)
	}
	streamed := filepath.Join(dir, "streamed")
	if _, errs, err := BuildPaths(paths, Options{Out: streamed, Site: site}); err != nil || len(errs) > 0 {
		t.Fatal(err, errs)
	}
	set, errs := parse.ReadAll(paths)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	whole := filepath.Join(dir, "whole")
	if _, err := Build(set, Options{Out: whole, Site: site}); err != nil {
		t.Fatal(err)
	}
	files := 0
	err = filepath.WalkDir(whole, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		rel, _ := filepath.Rel(whole, p)
		want, _ := os.ReadFile(p)
		got, err := os.ReadFile(filepath.Join(streamed, rel))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s differs between BuildPaths and Build (%v)", rel, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 4*rssRunDumps {
		t.Errorf("only %d files", files)
	}
}

// TestOlderRunsInExports checks that the runs not on show still reach
// results.json and results.csv, every repetition with its raw dump, read
// back from the spool; and that only the newest run gets dump pages.
func TestOlderRunsInExports(t *testing.T) {
	dir := t.TempDir()
	rssSite(t, dir, 3*rssRunDumps)
	site, err := LoadSite(dir)
	if err != nil {
		t.Fatal(err)
	}
	paths, _ := site.RunPaths()
	out := filepath.Join(dir, "public")
	if _, errs, err := BuildPaths(paths, Options{Out: out, Site: site}); err != nil || len(errs) > 0 {
		t.Fatal(err, errs)
	}
	f, err := os.Open(filepath.Join(out, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(rows)-1, 3*rssRunDumps; got != want {
		t.Errorf("results.csv has %d repetitions, want %d", got, want)
	}
	runs := map[string]int{}
	dumpCol := slices.Index(rows[0], "dump")
	for _, row := range rows[1:] {
		runs[row[0]]++
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(row[dumpCol]))); err != nil {
			t.Errorf("results.csv names dump %q, not in the site", row[dumpCol])
			break
		}
	}
	if len(runs) != 3 {
		t.Errorf("results.csv has runs %v, want 3", runs)
	}
	b, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc resultsDoc
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if got, want := len(doc.Cells), 3*rssTargets*rssScenarios; got != want || len(doc.Runs) != 3 {
		t.Errorf("results.json has %d cells of %d runs, want %d of 3", got, len(doc.Runs), want)
	}
	pages, _ := filepath.Glob(filepath.Join(out, "dump", "*"))
	if len(pages) != 1 || !strings.HasSuffix(pages[0], doc.PrimaryRun) {
		t.Errorf("dump pages for %v, want only the run on show, %s", pages, doc.PrimaryRun)
	}
}
