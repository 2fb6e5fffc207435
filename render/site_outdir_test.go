package render

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The out folder (issue 13, item 1): render removes only files it wrote,
// refuses folders it must not write into, and follows no link inside.

// fixtureRun copies the fixture run dir to a new folder and returns it, so
// that a test may put -out beside or inside it.
func fixtureRun(t *testing.T) string {
	t.Helper()
	return fixtureCopy(t, "runs")
}

// fixtureCopy copies the one run dir under testdata/folder to a new folder
// and returns it.
func fixtureCopy(t *testing.T, folder string) string {
	t.Helper()
	src, err := filepath.Glob(filepath.Join("testdata", folder, "*"))
	if err != nil || len(src) != 1 {
		t.Fatalf("fixture %s: %v %v", folder, src, err)
	}
	dst := filepath.Join(t.TempDir(), filepath.Base(src[0]))
	if err := os.CopyFS(dst, os.DirFS(src[0])); err != nil {
		t.Fatal(err)
	}
	return dst
}

// renderTo renders paths into out with the default site.
func renderTo(t *testing.T, out string, paths ...string) error {
	t.Helper()
	_, errs, err := BuildPaths(paths, Options{Out: out})
	for _, e := range errs {
		t.Errorf("reading: %v", e)
	}
	return err
}

// tree is every file under dir (slash paths) with its bytes.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, _ := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func wantRefused(t *testing.T, err error, says string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), says) {
		t.Errorf("render: %v, want a refusal saying %q", err, says)
	}
}

// TestOutForeignFolder is the repro: a folder holding a user's
// file is refused, on the first render and on the second.
func TestOutForeignFolder(t *testing.T) {
	run := fixtureRun(t)
	u := filepath.Join(t.TempDir(), "u")
	os.MkdirAll(u, 0o755)
	os.WriteFile(filepath.Join(u, "thesis.txt"), []byte("precious\n"), 0o644)
	for range 2 {
		wantRefused(t, renderTo(t, u, run), "not empty and was not written by fairbench render")
	}
	if got := tree(t, u); len(got) != 1 || got["thesis.txt"] != "precious\n" {
		t.Errorf("the folder holds %d files after two refused renders, want thesis.txt alone as it was", len(got))
	}
	// A marker of the render before this one (no list) is not taken for one.
	os.WriteFile(filepath.Join(u, marker), []byte("written by fairbench render; the next render empties this folder\n"), 0o644)
	wantRefused(t, renderTo(t, u, run), "did not list its files")
	if b, _ := os.ReadFile(filepath.Join(u, "thesis.txt")); string(b) != "precious\n" {
		t.Error("thesis.txt changed")
	}
}

// TestOutRerender: a second render into its own folder removes what the
// first wrote (a page of a run that left is gone), keeps what the user put
// beside it, and lists exactly the files it wrote, with their sizes.
func TestOutRerender(t *testing.T) {
	run := fixtureRun(t)
	out := filepath.Join(t.TempDir(), "site")
	if err := renderTo(t, out, run); err != nil {
		t.Fatal(err)
	}
	first := tree(t, out)
	os.WriteFile(filepath.Join(out, "notes.txt"), []byte("mine\n"), 0o644)
	os.WriteFile(filepath.Join(out, "raw", "mine.txt"), []byte("mine too\n"), 0o644)
	dumps := filepath.Join(t.TempDir(), "dumps")
	os.MkdirAll(dumps, 0o755)
	b, _ := os.ReadFile(filepath.Join("testdata", "dumps", "wrk-4.1.0__latency.txt"))
	os.WriteFile(filepath.Join(dumps, "solo.txt"), b, 0o644)
	if err := renderTo(t, out, dumps); err != nil {
		t.Fatal(err)
	}
	second := tree(t, out)
	if second["notes.txt"] != "mine\n" || second["raw/mine.txt"] != "mine too\n" {
		t.Error("the user's files beside the site were removed or changed")
	}
	for rel := range first {
		if strings.HasPrefix(rel, "target/") {
			if _, ok := second[rel]; ok {
				t.Errorf("%s of the first render survived the second", rel)
			}
		}
	}
	listed := map[string]bool{}
	for _, line := range strings.Split(strings.TrimPrefix(second[marker], markerHead), "\n") {
		size, rel, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		listed[rel] = true
		if n, _ := strconv.Atoi(size); n != len(second[rel]) {
			t.Errorf("%s listed with %s bytes, has %d", rel, size, len(second[rel]))
		}
	}
	for rel := range second {
		want := rel != marker && rel != "notes.txt" && rel != "raw/mine.txt"
		if listed[rel] != want {
			t.Errorf("%s: listed %v, want %v", rel, listed[rel], want)
		}
	}
}

// TestOutOverlapsInput: -out that is, holds or sits inside an input, the
// current folder, a folder above it, or / is refused before anything is
// read or written.
func TestOutOverlapsInput(t *testing.T) {
	run := fixtureRun(t)
	before := tree(t, run)
	parent := filepath.Dir(run)
	dumps := filepath.Join(t.TempDir(), "dumps")
	os.MkdirAll(dumps, 0o755)
	b, _ := os.ReadFile(filepath.Join("testdata", "dumps", "wrk-4.1.0__latency.txt"))
	os.WriteFile(filepath.Join(dumps, "solo.txt"), b, 0o644)
	// Build from a set read before checks the set's run dirs and dumps.
	set, _ := fixture(t)
	for _, r := range set.Runs {
		r.Path = run
	}
	_, err := Build(set, Options{Out: filepath.Join(run, "site")})
	wantRefused(t, err, "is inside the input")
	t.Chdir(t.TempDir())
	for _, tc := range []struct{ out, input, says string }{
		{run, run, "is the input"},
		{filepath.Join(run, "public"), run, "is inside the input"},
		{filepath.Join(run, "dumps"), run, "is inside the input"},
		{parent, run, "holds the input"},
		{dumps, dumps, "is the input"},
		{filepath.Join(dumps, "site"), dumps, "is inside the input"},
		{dumps, filepath.Join(dumps, "solo.txt"), "holds the input"},
		{".", dumps, "the current folder"},
		{"..", dumps, "the current folder"},
	} {
		wantRefused(t, renderTo(t, tc.out, tc.input), tc.says)
	}
	// "/" is asked of checkOut alone: a render that got it wrong would
	// write into /.
	wantRefused(t, checkOut("/", []string{dumps}), "root of the file system")
	after := tree(t, run)
	if len(after) != len(before) {
		t.Errorf("the run dir has %d files, had %d", len(after), len(before))
	}
	for rel, body := range before {
		if after[rel] != body {
			t.Errorf("%s changed", rel)
		}
	}
	// The -site folder is not an input: site/public beside site/results is
	// fine.
	site := filepath.Join(t.TempDir(), "site")
	os.MkdirAll(filepath.Join(site, "results"), 0o755)
	os.CopyFS(filepath.Join(site, "results", filepath.Base(run)), os.DirFS(run))
	if err := renderTo(t, filepath.Join(site, "public"), filepath.Join(site, "results", filepath.Base(run))); err != nil {
		t.Errorf("render -site site -out site/public: %v", err)
	}
}

// TestOutLinks: a link the user put in a site folder, in place of a file or
// a folder render writes, is not written through.
func TestOutLinks(t *testing.T) {
	run := fixtureRun(t)
	for _, name := range []string{"style.css", "raw"} {
		t.Run(name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "site")
			if err := renderTo(t, out, run); err != nil {
				t.Fatal(err)
			}
			victim := filepath.Join(t.TempDir(), "victim")
			os.MkdirAll(victim, 0o755)
			os.WriteFile(filepath.Join(victim, "style.css"), []byte("keep\n"), 0o644)
			target := victim
			if name == "style.css" {
				target = filepath.Join(victim, "style.css")
			}
			os.RemoveAll(filepath.Join(out, name))
			if err := os.Symlink(target, filepath.Join(out, name)); err != nil {
				t.Skip(err)
			}
			err := renderTo(t, out, run)
			wantRefused(t, err, name)
			if got := tree(t, victim); len(got) != 1 || got["style.css"] != "keep\n" {
				t.Errorf("render wrote through the link: the linked folder holds %v", got)
			}
		})
	}
}

// TestOutLinkedFolderInside: a site folder replaced by a link to another
// folder inside the out folder is neither emptied nor written through.
func TestOutLinkedFolderInside(t *testing.T) {
	run := fixtureRun(t)
	out := filepath.Join(t.TempDir(), "site")
	if err := renderTo(t, out, run); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(out, "raw"), filepath.Join(out, "kept")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("kept", filepath.Join(out, "raw")); err != nil {
		t.Skip(err)
	}
	kept := tree(t, filepath.Join(out, "kept"))
	wantRefused(t, renderTo(t, out, run), "raw in the out folder is not a folder")
	after := tree(t, filepath.Join(out, "kept"))
	if len(after) != len(kept) {
		t.Errorf("the folder behind the link holds %d files, held %d", len(after), len(kept))
	}
}
