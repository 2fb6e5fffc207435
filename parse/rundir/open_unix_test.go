//go:build unix

package rundir

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestOpenNamedBounded: a file named on the command line is opened through
// one bounded opener: a FIFO no one writes to reads as empty at once
// instead of hanging, a device and a folder are refused before a byte is
// read, a file over the kind's limit is refused, and a link the user names
// is followed to the regular file it names.
func TestOpenNamedBounded(t *testing.T) {
	defer func(w time.Duration) { streamWait = w }(streamWait)
	streamWait = 50 * time.Millisecond
	dir := t.TempDir()
	regular := filepath.Join(dir, "table.md")
	os.WriteFile(regular, []byte("| a | b |\n"), 0o644)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	link := filepath.Join(dir, "link")
	os.Symlink(regular, link)
	linkOut := filepath.Join(dir, "link-out")
	os.Symlink("/dev/zero", linkOut)
	big := filepath.Join(dir, "big.md")
	if f, err := os.Create(big); err == nil {
		f.Truncate(MaxTable + 1) // sparse
		f.Close()
	}
	for _, tt := range []struct {
		name, path string
		read       string // what is read; "" when refused
		refused    string // a part of the refusal
	}{
		{"regular", regular, "| a | b |\n", ""},
		{"link to a regular file", link, "| a | b |\n", ""},
		{"FIFO without a writer", fifo, "", ""},
		{"device", "/dev/zero", "", "not a regular file (a device)"},
		{"link to a device", linkOut, "", "not a regular file (a device)"},
		{"folder", dir, "", "not a regular file (a folder)"},
		{"over the limit", big, "", "over the 16 MB a table may have"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			f, err := OpenNamed(tt.path, KindTable)
			if tt.refused != "" {
				var re *RefusedError
				if !errors.As(err, &re) || !strings.Contains(err.Error(), tt.refused) {
					t.Fatalf("err %v, want a refusal saying %q", err, tt.refused)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var b strings.Builder
			buf := make([]byte, 4096)
			for {
				n, err := f.Read(buf)
				b.WriteString(string(buf[:n]))
				if err != nil {
					break
				}
			}
			if b.String() != tt.read {
				t.Errorf("read %q, want %q", b.String(), tt.read)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("took %s", d)
			}
		})
	}
}

// FuzzOpenNamedKinds opens every kind of file under a fuzzed name and size:
// it never hangs, never reads past the kind's limit, and refuses anything
// but a regular file or a pipe.
func FuzzOpenNamedKinds(f *testing.F) {
	defer func(w time.Duration) { streamWait = w }(streamWait)
	streamWait = 10 * time.Millisecond
	for _, seed := range []struct {
		name string
		kind uint8
		size int64
	}{{"t.md", 0, 10}, {"fifo", 1, 0}, {"zero", 2, 0}, {"d", 3, 0}, {"big", 0, MaxTable + 1}, {"link", 4, 0}} {
		f.Add(seed.name, seed.kind, seed.size)
	}
	f.Fuzz(func(t *testing.T, name string, kind uint8, size int64) {
		if name == "" || strings.ContainsAny(name, "/\x00") || name == "." || name == ".." || len(name) > 200 {
			return
		}
		size = max(0, min(size, 2*MaxTable))
		dir := t.TempDir()
		p := filepath.Join(dir, name)
		var err error
		switch kind % 5 {
		case 0:
			var fl *os.File
			if fl, err = os.Create(p); err == nil {
				err = fl.Truncate(size)
				fl.Close()
			}
		case 1:
			err = syscall.Mkfifo(p, 0o600)
		case 2:
			err = os.Symlink("/dev/zero", p)
		case 3:
			err = os.Mkdir(p, 0o755)
		case 4:
			err = os.Symlink("/etc/hostname", p)
		}
		if err != nil {
			return
		}
		rf, err := OpenNamed(p, KindTable)
		if err != nil {
			return
		}
		defer rf.Close()
		var n int64
		buf := make([]byte, 1<<16)
		for {
			k, err := rf.Read(buf)
			n += int64(k)
			if err != nil {
				break
			}
		}
		if n > MaxTable {
			t.Fatalf("read %d bytes of %s, over the limit", n, p)
		}
	})
}
