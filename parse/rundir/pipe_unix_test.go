//go:build unix

package rundir

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// readWithin opens name with OpenNamed and reads it to the end, failing
// the test past bound.
func readWithin(t *testing.T, name string, bound time.Duration) ([]byte, int64) {
	t.Helper()
	type result struct {
		b    []byte
		size int64
		err  error
	}
	done := make(chan result, 1)
	go func() {
		f, err := OpenNamed(name, KindDump)
		if err != nil {
			done <- result{err: err}
			return
		}
		defer f.Close()
		b, err := io.ReadAll(f)
		done <- result{b, f.Size(), err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatal(r.err)
		}
		return r.b, r.size
	case <-time.After(bound):
		t.Fatalf("reading %s: still waiting after %s", name, bound)
	}
	return nil, 0
}

// TestPipeReadOnce: a FIFO named on the command line gives its bytes once;
// a second OpenNamed of it (render parses a dump, then publishes it) reads
// the same bytes at once, with their size, instead of an empty pipe or a
// wait for a writer that never comes; so does a third, and a link to the
// FIFO. Nothing is left in the temporary folder.
func TestPipeReadOnce(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dump, err := os.ReadFile("../testdata/wrk-4.1.0__latency.txt")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "wrk.txt")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	link := filepath.Join(dir, "link.txt")
	os.Symlink(fifo, link)
	go func() { // the writer: the whole dump, then it closes the pipe
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			w.Write(dump)
			w.Close()
		}
	}()
	first, size := readWithin(t, fifo, 10*time.Second)
	if !bytes.Equal(first, dump) || size != -1 {
		t.Fatalf("first read: %d bytes, size %d; want the dump's %d, size -1 (a stream)", len(first), size, len(dump))
	}
	for _, name := range []string{fifo, fifo, link} {
		again, size := readWithin(t, name, time.Second) // no writer now: the kept bytes or nothing
		if !bytes.Equal(again, dump) || size != int64(len(dump)) {
			t.Errorf("%s read again: %d bytes, size %d; want the dump's %d", name, len(again), size, len(dump))
		}
	}
	// A parse of it reads it twice (the sum, then the records): Rewind
	// goes back to the start of the kept bytes.
	f, err := OpenNamed(fifo, KindDump)
	if err != nil {
		t.Fatal(err)
	}
	once, _ := io.ReadAll(f)
	if err := f.Rewind(); err != nil {
		t.Fatalf("Rewind of the kept bytes: %v", err)
	}
	twice, _ := io.ReadAll(f)
	f.Close()
	if !bytes.Equal(once, dump) || !bytes.Equal(twice, dump) {
		t.Errorf("read, Rewind, read again: %d and %d bytes, want the dump's %d twice", len(once), len(twice), len(dump))
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("%d files left in the temporary folder: %v", len(left), left[0].Name())
	}
}
