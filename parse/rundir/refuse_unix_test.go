//go:build unix

package rundir

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// One test per rule of the run-dir opener (Root.Open, OpenFile, ReadFile,
// OpenPublished): each builds a run dir that breaks the rule and checks
// the refusal, its Rule, and that a file keeping the rule is read.

// runDirWith is a run dir holding dumps/ok.txt and whatever plant adds.
func runDirWith(t *testing.T, plant func(dir string)) string {
	t.Helper()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "dumps"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, "dumps", "ok.txt"), []byte("Requests/sec: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	plant(dir)
	return dir
}

// refusedBy is err's rule, failing the test when err is no refusal.
func refusedBy(t *testing.T, what string, err error) Rule {
	t.Helper()
	var re *RefusedError
	if !errors.As(err, &re) || !errors.Is(err, ErrRefused) {
		t.Fatalf("%s: %v, want a refusal", what, err)
	}
	return re.Rule
}

// TestRefusesLinksOut: a link that leads out of the run dir, an absolute
// link back into it, and a path with ".." are refused; a relative link
// inside the run dir is followed.
func TestRefusesLinksOut(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "id_rsa")
	os.WriteFile(secret, []byte("KEY"), 0o600)
	dir := runDirWith(t, func(dir string) {
		os.Symlink(secret, filepath.Join(dir, "dumps", "out.txt"))
		os.Symlink(filepath.Join(dir, "dumps", "ok.txt"), filepath.Join(dir, "dumps", "abs.txt"))
		os.Symlink("ok.txt", filepath.Join(dir, "dumps", "rel.txt"))
	})
	for _, rel := range []string{"dumps/out.txt", "dumps/abs.txt", "../" + filepath.Base(dir) + "/dumps/ok.txt"} {
		b, err := ReadFile(dir, rel, KindDump)
		if rule := refusedBy(t, rel, err); rule != RuleLeaves || b != nil {
			t.Errorf("%s: rule %d, read %q; want RuleLeaves and nothing read", rel, rule, b)
		}
	}
	if b, err := ReadFile(dir, "dumps/rel.txt", KindDump); err != nil || string(b) != "Requests/sec: 1\n" {
		t.Errorf("a relative link inside the run dir: %q %v, want the file it names", b, err)
	}
}

// TestRefusesFIFOs: a FIFO (or a socket) in a run dir is refused at once,
// before a byte is read, never waited on for a writer.
func TestRefusesFIFOs(t *testing.T) {
	dir := runDirWith(t, func(dir string) {
		if err := syscall.Mkfifo(filepath.Join(dir, "dumps", "fifo.txt"), 0o644); err != nil {
			t.Skip("no FIFOs here:", err)
		}
	})
	done := make(chan error, 1)
	go func() { _, err := ReadFile(dir, "dumps/fifo.txt", KindDump); done <- err }()
	select {
	case err := <-done:
		if rule := refusedBy(t, "FIFO", err); rule != RuleNotRegular || !strings.Contains(err.Error(), "not a regular file (a FIFO)") {
			t.Errorf("FIFO: rule %d, %v; want RuleNotRegular naming a FIFO", rule, err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the FIFO was waited on")
	}
	if _, err := ReadFile(dir, "dumps", KindDump); refusedBy(t, "folder", err) != RuleNotRegular {
		t.Errorf("a folder: %v, want RuleNotRegular", err)
	}
}

// TestRefusesOverSize: a file over its kind's limit is refused before it
// is read, saying its size; a file that grows past the limit while it is
// read stops there with a refusal.
func TestRefusesOverSize(t *testing.T) {
	dir := runDirWith(t, func(dir string) {
		f, _ := os.Create(filepath.Join(dir, "conformance.txt"))
		f.Truncate(MaxTranscript + 1) // sparse
		f.Close()
	})
	_, err := ReadFile(dir, "conformance.txt", KindTranscript)
	var re *RefusedError
	if refusedBy(t, "over the limit", err) != RuleSize || !errors.As(err, &re) || re.Size != MaxTranscript+1 || re.Limit != MaxTranscript {
		t.Errorf("over the limit: %v (%+v), want RuleSize with its size and the limit", err, re)
	}
	if !strings.Contains(err.Error(), "over the 8 MB a transcript may have") {
		t.Errorf("over the limit: %v, want it to say the limit", err)
	}
	grow := filepath.Join(dir, "dumps", "grow.txt")
	os.WriteFile(grow, []byte("x"), 0o644)
	f, err := OpenFile(dir, "dumps/grow.txt", KindTranscript)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	os.Truncate(grow, MaxTranscript+10) // grows after it was opened
	n, err := io.Copy(io.Discard, f)
	if refusedBy(t, "grew while read", err) != RuleSize || n > MaxTranscript {
		t.Errorf("grew while read: %d bytes read, %v; want at most the limit and RuleSize", n, err)
	}
}

// TestRefusesForeignFiles: a file that may come from outside the run dir
// (a hard link to a file elsewhere) is read for parsing but never
// published: OpenPublished refuses it, Publishable leaves it out saying
// why, and Foreign reports it.
func TestRefusesForeignFiles(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(secret, []byte("KEY"), 0o600)
	dir := runDirWith(t, func(dir string) {
		if err := os.Link(secret, filepath.Join(dir, "dumps", "linked.txt")); err != nil {
			t.Skip("no hard links across these folders:", err)
		}
	})
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if _, err := root.OpenPublished("dumps/linked.txt", KindDump); refusedBy(t, "hard link", err) != RuleForeign || !strings.Contains(err.Error(), "2 hard links") {
		t.Errorf("hard link: %v, want RuleForeign naming the links", err)
	}
	if f, err := root.OpenPublished("dumps/ok.txt", KindDump); err != nil {
		t.Errorf("a file of the run dir's own: %v, want it published", err)
	} else {
		f.Close()
	}
	files, left, err := Publishable(dir)
	if err != nil || len(files) != 1 || files[0] != "dumps/ok.txt" || len(left) != 1 || !strings.Contains(left[0].Error(), "dumps/linked.txt has 2 hard links") {
		t.Errorf("Publishable: %v, left %v, %v; want dumps/ok.txt alone and the linked file left out, said", files, left, err)
	}
	if !Foreign(dir, "dumps/linked.txt") || Foreign(dir, "dumps/ok.txt") {
		t.Error("Foreign does not tell the hard-linked file from the run dir's own")
	}
}
