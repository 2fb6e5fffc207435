package parse

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestLongDumpFlat: reading a file of many runs holds one run at a time, not
// the file's: the heap while 40,000 wrk runs (16 MB) are walked stays far
// below what holding them takes (about 2.5 KB a run, 100 MB).
func TestLongDumpFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 16 MB dump")
	}
	run := readFixture(t, "testdata/wrk-4.1.0__latency.txt")
	name := filepath.Join(t.TempDir(), "long.txt")
	if err := os.WriteFile(name, []byte(strings.Repeat(string(run), 40_000)), 0o644); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var ms runtime.MemStats
	var n int
	var peak uint64
	errs := Walk([]string{name}, func(r Record) error {
		if n++; n%2000 == 0 {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
		return nil
	})
	if len(errs) != 0 || n != 40_000 {
		t.Fatalf("read %d records with %v", n, errs)
	}
	t.Logf("peak heap %.1f MB for %d runs", float64(peak)/(1<<20), n)
	if peak > 48<<20 {
		t.Errorf("peak heap %.1f MB while reading %d runs: records are held per file", float64(peak)/(1<<20), n)
	}
}
