package render

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadmeRefusesBeforeReading: a README that is a FIFO, a device or
// too big is refused at once, as ErrUsage, without reading it whole.
func TestReadmeRefusesBeforeReading(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.md")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.md")
	f, _ := os.Create(big)
	f.Truncate(MaxReadmeBytes + 1)
	f.Close()
	zero := filepath.Join(dir, "zero.md")
	os.Symlink("/dev/zero", zero)
	for path, says := range map[string]string{
		fifo:                             "is not a regular file",
		zero:                             "is not a regular file",
		big:                              "is 16,777,217 bytes, over the 16,777,216 a README may be",
		filepath.Join(dir, "missing.md"): "does not exist",
	} {
		done := make(chan error, 1)
		go func() { _, err := OpenReadme(path); done <- err }()
		select {
		case err := <-done:
			if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), says) {
				t.Errorf("OpenReadme(%s): %v, want a usage error saying %q", path, err, says)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("OpenReadme(%s) hangs", path)
		}
	}
}

// TestReadmeLinks: a symlinked README has its target rewritten and stays
// a link; a README with two hard links is refused, both names untouched.
func TestReadmeLinks(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "docs", "README.md")
	os.MkdirAll(filepath.Dir(real), 0o755)
	os.WriteFile(real, []byte(ReadmeStart+"\n"+ReadmeEnd+"\n"), 0o644)
	link := filepath.Join(dir, "README.md")
	os.Symlink(filepath.Join("docs", "README.md"), link)
	if _, err := RewriteReadme(link, []byte("| a |\n")); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode().Type() != os.ModeSymlink {
		t.Errorf("the link was replaced by a file, or is gone (%v)", err)
	}
	if b, _ := os.ReadFile(real); !strings.Contains(string(b), "| a |") {
		t.Errorf("the link's target was not updated:\n%s", b)
	}

	hard := filepath.Join(dir, "HARD.md")
	os.Link(real, hard)
	before, _ := os.ReadFile(real)
	_, err := RewriteReadme(hard, []byte("| b |\n"))
	if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "has 2 hard links") {
		t.Errorf("a hard-linked README: %v, want a refusal", err)
	}
	if after, _ := os.ReadFile(hard); string(after) != string(before) {
		t.Errorf("a refused README changed")
	}
}

// TestReadmeSplice: CRLF files stay CRLF, and only markers that stand on
// lines of their own count.
func TestReadmeSplice(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"crlf", "# x\r\n" + ReadmeStart + "\r\nold\r\n" + ReadmeEnd + "\r\nend\r\n",
			"# x\r\n" + ReadmeStart + "\r\n\r\n| a |\r\n| - |\r\n\r\n" + ReadmeEnd + "\r\nend\r\n"},
		{"quoted markers are text", "Put `" + ReadmeStart + "` and `" + ReadmeEnd + "` in.\n  " + ReadmeStart + "\nold\n" + ReadmeEnd + "\t\n",
			"Put `" + ReadmeStart + "` and `" + ReadmeEnd + "` in.\n  " + ReadmeStart + "\n\n| a |\n| - |\n\n" + ReadmeEnd + "\t\n"},
		{"end at end of file", ReadmeStart + "\n" + ReadmeEnd, ReadmeStart + "\n\n| a |\n| - |\n\n" + ReadmeEnd},
	} {
		path := filepath.Join(t.TempDir(), "README.md")
		os.WriteFile(path, []byte(c.src), 0o644)
		if _, err := RewriteReadme(path, []byte("| a |\n| - |\n")); err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got, _ := os.ReadFile(path); string(got) != c.want {
			t.Errorf("%s: got\n%q\nwant\n%q", c.name, got, c.want)
		}
	}
	path := filepath.Join(t.TempDir(), "README.md")
	os.WriteFile(path, []byte("see `"+ReadmeStart+"` … `"+ReadmeEnd+"`\n"), 0o644)
	if _, err := RewriteReadme(path, []byte("| a |\n")); err == nil || !strings.Contains(err.Error(), "each on a line of its own") {
		t.Errorf("markers inside a sentence: %v, want a refusal", err)
	}
}
