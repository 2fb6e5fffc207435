package parse

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCommittedRunsRead reads every run this project published with the
// loader render uses: each has its measurements, CPU seconds and dumps.
func TestCommittedRunsRead(t *testing.T) {
	dirs, err := filepath.Glob("../site/results/*/run.json")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no committed runs under site/results: %v", err)
	}
	for _, name := range dirs {
		run, err := ReadRun(filepath.Dir(name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if run.ID == "" || run.Facts.Hostname == "" || len(run.Measurements) == 0 {
			t.Errorf("%s: id %q, host %q, %d measurements", name, run.ID, run.Facts.Hostname, len(run.Measurements))
		}
		for _, mr := range run.Measurements {
			if mr.ServerCPUSeconds <= 0 || mr.ServerCPUList == "" {
				t.Errorf("%s: %s: server CPU %v s on %q", name, mr.Dump, mr.ServerCPUSeconds, mr.ServerCPUList)
			}
			if _, err := os.Stat(filepath.Join(run.Path, mr.Dump)); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
}
