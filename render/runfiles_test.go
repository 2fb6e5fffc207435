package render

import (
	"archive/tar"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Run-dir files (issue 13, items 2 and 13): render reads them through
// package rundir's reader, so links out of the run dir are not
// published, and an oversized run.json is refused by its size.

// TestLinkedRunFilesNotPublished is the repro: a transcript linked
// to an environment file and suite.toml linked to /etc/passwd put neither
// into the site, and the audit the site shows says so.
func TestLinkedRunFilesNotPublished(t *testing.T) {
	run := fixtureRun(t)
	secret := filepath.Join(t.TempDir(), "environ")
	os.WriteFile(secret, []byte("NETLIFY_AUTH_TOKEN=s3cr3t-t0ken\n"), 0o600)
	for _, name := range []string{"conformance/gin.txt", "suite.toml"} {
		os.Remove(filepath.Join(run, filepath.FromSlash(name)))
		if err := os.Symlink(secret, filepath.Join(run, filepath.FromSlash(name))); err != nil {
			t.Skip(err)
		}
	}
	out := filepath.Join(t.TempDir(), "site")
	if err := renderTo(t, out, run); err != nil {
		t.Fatal(err)
	}
	site := tree(t, out)
	for rel, body := range site {
		if strings.HasSuffix(rel, ".tar.gz") {
			for _, b := range untar(t, filepath.Join(out, rel)) {
				body += b
			}
		}
		if strings.Contains(body, "s3cr3t-t0ken") {
			t.Errorf("%s publishes the linked file", rel)
		}
	}
	if page := site["target/gin.html"]; !strings.Contains(page, "outside the run dir") {
		t.Error("target/gin.html does not say why the transcript is not shown")
	}
	if soft := site["soft.html"]; !strings.Contains(soft, `<a href="#rule-file-refused">a file was refused</a></td><td class="num">2</td>`) {
		t.Error("soft.html does not count 2 file-refused findings (suite.toml and the transcript)")
	}
}

// untar is every file of a .tar.gz, by name.
func untar(t *testing.T, name string) map[string]string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	tr := tar.NewReader(gz)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return files
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		files[hdr.Name] = string(b)
	}
}

// TestArchiveHoldsTheRun: a run's archive holds every file of the run dir
// byte for byte, as raw/ does, each read once for both.
func TestArchiveHoldsTheRun(t *testing.T) {
	run := fixtureRun(t)
	out := filepath.Join(t.TempDir(), "site")
	if err := renderTo(t, out, run); err != nil {
		t.Fatal(err)
	}
	id := filepath.Base(run)
	want := tree(t, run)
	archived := untar(t, filepath.Join(out, "raw", id+".tar.gz"))
	n := len(archived)
	for name, body := range archived {
		rel := strings.TrimPrefix(name, id+"/")
		if body != want[rel] {
			t.Errorf("%s in the archive differs from the run dir", name)
		}
		if raw, _ := os.ReadFile(filepath.Join(out, "raw", filepath.FromSlash(name))); string(raw) != want[rel] {
			t.Errorf("raw/%s differs from the run dir", name)
		}
	}
	if n != len(want) {
		t.Errorf("the archive holds %d files, the run dir %d", n, len(want))
	}
}

// TestRunJSONHugeFieldRender is the repro: a run.json with one
// 100 MB field beside a good run. It is refused by its size, naming the
// limit; the good run's site is written; render neither holds nor
// publishes the 100 MB (it took 880 MB and wrote a 383 MB site).
func TestRunJSONHugeFieldRender(t *testing.T) {
	good := fixtureRun(t)
	bad := filepath.Join(t.TempDir(), "20261130T000000Z-huge")
	os.MkdirAll(bad, 0o755)
	f, err := os.Create(filepath.Join(bad, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"schema":1,"id":"huge","suite":"huge","host":{"hostname":"`)
	chunk := strings.Repeat("h", 1<<20)
	for range 100 {
		f.WriteString(chunk)
	}
	f.WriteString(`"}}`)
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "site")
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, errs, err := BuildPaths([]string{good, bad}, Options{Out: out})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), filepath.Join(bad, "run.json")) || !strings.Contains(errs[0].Error(), "32 MB") {
		t.Errorf("read errors %v, want one naming the run.json and its 32 MB limit", errs)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
		t.Errorf("render allocated %d MB; the 100 MB field must not be read", grew>>20)
	}
	var size int64
	for _, body := range tree(t, out) {
		size += int64(len(body))
	}
	if size > 10<<20 {
		t.Errorf("the site is %d MB", size>>20)
	}
}
