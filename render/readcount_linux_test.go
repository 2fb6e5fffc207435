package render

import (
	"bytes"
	"encoding/binary"
	"errors"
	"path/filepath"
	"syscall"
	"testing"
)

// opens counts the times files in a folder are opened, by name, as the
// kernel sees it (inotify IN_OPEN): no hook in the code under test.
type opens struct{ fd int }

func watchOpens(t *testing.T, dir string) *opens {
	t.Helper()
	fd, err := syscall.InotifyInit1(syscall.IN_NONBLOCK | syscall.IN_CLOEXEC)
	if err != nil {
		t.Skip("no inotify:", err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	if _, err := syscall.InotifyAddWatch(fd, dir, syscall.IN_OPEN); err != nil {
		t.Fatal(err)
	}
	return &opens{fd}
}

// count reads the events so far and counts the opens of each file.
func (o *opens) count(t *testing.T) map[string]int {
	t.Helper()
	n := map[string]int{}
	buf := make([]byte, 64<<10)
	for {
		k, err := syscall.Read(o.fd, buf)
		if errors.Is(err, syscall.EAGAIN) {
			return n
		}
		if err != nil {
			t.Fatal(err)
		}
		for b := buf[:k]; len(b) >= syscall.SizeofInotifyEvent; {
			var ev syscall.InotifyEvent
			binary.Read(bytes.NewReader(b[:syscall.SizeofInotifyEvent]), binary.NativeEndian, &ev)
			name := b[syscall.SizeofInotifyEvent : syscall.SizeofInotifyEvent+int(ev.Len)]
			if ev.Mask&syscall.IN_Q_OVERFLOW != 0 {
				t.Fatal("inotify queue overflowed")
			}
			n[string(bytes.TrimRight(name, "\x00"))]++
			b = b[syscall.SizeofInotifyEvent+int(ev.Len):]
		}
	}
}

// TestDumpReadTwice: a render opens each dump of a run on show twice: once
// to parse it (which also takes the sha256 the integrity check compares),
// once to publish it (its raw copy, its archive entry and its dump page
// from the same bytes). It was five times: parse, the integrity check, the
// dump page, the copy and the archive.
func TestDumpReadTwice(t *testing.T) {
	run := fixtureRun(t)
	dir := filepath.Join(run, "dumps", "gin", "ping")
	o := watchOpens(t, dir)
	if err := renderTo(t, filepath.Join(t.TempDir(), "site"), run); err != nil {
		t.Fatal(err)
	}
	got := o.count(t)
	if got["1.txt"] != 2 || got["w1.txt"] != 2 {
		t.Errorf("opens during one render: %v; want each dump opened twice", got)
	}
}
