//go:build unix

package parse

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestNamedStream reads a dump a user names as a FIFO (bash's <(cat dump)):
// a stream named on the command line is read as it comes, bounded by the
// dump limit, where a FIFO inside a run dir is refused (audit's
// TestDumpFIFO).
func TestNamedStream(t *testing.T) {
	dump := readFixture(t, "testdata/wrk-4.1.0__latency.txt")
	fifo := filepath.Join(t.TempDir(), "dump")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		w.Write(dump)
		w.Close()
	}()
	set, errs := ReadAll([]string{fifo})
	if len(errs) > 0 || len(set.Measurements) != 1 || set.Measurements[0].Requests == 0 {
		t.Fatalf("read %d measurements with %v from a FIFO, want the dump's one", len(set.Measurements), errs)
	}
}
