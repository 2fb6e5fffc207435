//go:build unix

package audit

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/fairbench/fairbench/parse"
)

// TestDumpFIFO: a FIFO where a dump should be is refused without waiting
// for a writer.
func TestDumpFIFO(t *testing.T) {
	dump, sum := wrkDump(t)
	dir := hostileRun(t, map[string]string{"dumps/a/ping/1.txt": dump},
		map[string]any{"dump": "dumps/a/ping/1.txt", "sha256": sum},
		map[string]any{"dump": "dumps/a/ping/2.txt", "sha256": sum})
	if err := syscall.Mkfifo(filepath.Join(dir, "dumps/a/ping/2.txt"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	var set *parse.Set
	var errs []error
	var fs map[string][]Finding
	within10s(t, "reading a run with a FIFO", func() {
		set, errs = parse.ReadAll([]string{dir})
		fs = findingsOf(t, dir)
	})
	if len(set.Measurements) != 1 {
		t.Errorf("read %d measurements, want the one regular dump", len(set.Measurements))
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "not a regular file (a FIFO)") {
		t.Errorf("errs %v, want one saying 2.txt is a FIFO", errs)
	}
	if got := fs[RuleDumpMissing]; len(got) != 1 || !strings.Contains(got[0].Message, "FIFO") {
		t.Errorf("findings %v, want dump-missing for the FIFO", fs)
	}
}
