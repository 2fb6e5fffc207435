package render

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// TestPublishOnlyTheRunDirLayout: of a run dir, only run.json, suite.toml,
// conformance transcripts, dumps and their .stderr files are published,
// each under a name every host serves as text; a page, a dotfile, a git
// folder or a hard link to a file outside the run dir is not, in raw/ or
// in the run's archive. _headers serves raw/ as text to hosts that read it.
func TestPublishOnlyTheRunDirLayout(t *testing.T) {
	run := fixtureRun(t)
	id := filepath.Base(run)
	put := func(rel, body string) {
		t.Helper()
		p := filepath.Join(run, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put("notes.html", "<script>alert('active-notes')</script>")
	put(".env", "TOKEN=private-env\n")
	put(".git/config", "[remote] url=private-git\n")
	put("conformance/.hidden.txt", "private-dotfile\n")
	put("dumps/gin/ping/evil.html", "<script>alert('active-dump')</script>")
	put("dumps/gin/ping/1.stderr", "warning: a real stderr\n")
	outside := filepath.Join(t.TempDir(), "id_rsa")
	os.WriteFile(outside, []byte("private-hardlink\n"), 0o600)
	if err := os.Link(outside, filepath.Join(run, "conformance", "leak.txt")); err != nil {
		t.Fatal(err)
	}

	out := filepath.Join(t.TempDir(), "site")
	var progress strings.Builder
	if _, errs, err := BuildPaths([]string{run}, Options{Out: out, Progress: &progress}); err != nil || len(errs) > 0 {
		t.Fatalf("render: %v %v", err, errs)
	}
	site := tree(t, out)
	archive := untar(t, filepath.Join(out, "raw", id+".tar.gz"))
	for name, body := range archive {
		site["(archive) "+name] = body
	}
	for rel, body := range site {
		for _, private := range []string{"active-notes", "private-env", "private-git", "private-dotfile", "active-dump", "private-hardlink"} {
			if strings.Contains(body, private) {
				t.Errorf("%s publishes %q", rel, private)
			}
		}
		if rest, ok := strings.CutPrefix(rel, "raw/"); ok && !strings.HasSuffix(rel, ".tar.gz") {
			if ext := path.Ext(rest); ext != ".txt" && ext != ".json" && ext != ".toml" {
				t.Errorf("%s is published under a name a host may serve as active content", rel)
			}
		}
	}
	if got := site["raw/"+id+"/dumps/gin/ping/1.stderr.txt"]; got != "warning: a real stderr\n" {
		t.Errorf("the .stderr file is not published as .stderr.txt: %q", got)
	}
	if _, ok := archive[id+"/dumps/gin/ping/1.stderr"]; !ok {
		t.Errorf("the archive does not keep the run dir's own names")
	}
	for _, want := range []string{"conformance/leak.txt has 2 hard links", "notes.html", "not published"} {
		if !strings.Contains(progress.String(), want) {
			t.Errorf("progress does not say %q:\n%s", want, progress.String())
		}
	}
	headers := site["_headers"]
	for _, want := range []string{"/raw/" + id + "/*\n", "Content-Type: text/plain; charset=utf-8", "X-Content-Type-Options: nosniff"} {
		if !strings.Contains(headers, want) {
			t.Errorf("_headers lacks %q:\n%s", want, headers)
		}
	}
}
