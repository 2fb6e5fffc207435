package rundir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse/runjson"
)

func TestRunDirWriteOnce(t *testing.T) {
	d, err := Create(t.TempDir(), runjson.Manifest{Schema: runjson.SchemaVersion, ID: "r1"}, []byte("name = \"x\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := d.WriteDump("dumps/a/b/1.txt", []byte("hello"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"; sum != want {
		t.Errorf("sha256 %s, want %s", sum, want)
	}
	if _, err := d.WriteDump("dumps/a/b/1.txt", []byte("other")); err == nil || !strings.Contains(err.Error(), "write-once") {
		t.Errorf("second write: err = %v, want a write-once error", err)
	}
	b, _ := os.ReadFile(filepath.Join(d.Path, "dumps/a/b/1.txt"))
	if string(b) != "hello" {
		t.Errorf("dump = %q after a refused rewrite", b)
	}
	if _, err := d.WriteDump("../escape.txt", nil); err == nil {
		t.Error("a dump path leaving the run dir was accepted")
	}
	left, _ := filepath.Glob(filepath.Join(d.Path, "dumps/a/b/.*tmp"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestCreateRunDirRefusesExisting(t *testing.T) {
	out := t.TempDir()
	m := runjson.Manifest{Schema: runjson.SchemaVersion, ID: "r1"}
	if _, err := Create(out, m, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(out, m, nil); err == nil || !strings.Contains(err.Error(), "-resume") {
		t.Errorf("err = %v, want one that points at -resume", err)
	}
}

func TestRunDirFilesAreReadable(t *testing.T) {
	d, err := Create(t.TempDir(), runjson.Manifest{Schema: runjson.SchemaVersion, ID: "r1"}, []byte("name = \"x\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.WriteDump("dumps/a/b/1.txt", []byte("x")); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"run.json", "suite.toml", "dumps/a/b/1.txt"} {
		info, err := os.Stat(filepath.Join(d.Path, rel))
		if err != nil {
			t.Fatal(err)
		}
		if perm := info.Mode().Perm(); perm != 0o644 {
			t.Errorf("%s: mode %v, want 0644 (a run dir is published)", rel, perm)
		}
	}
}
