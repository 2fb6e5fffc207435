package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestFreshResultsTableAudits: the results.md `fairbench render` writes
// for a real run of three scenarios passes `fairbench audit -table` with
// exit 0 and no error: the writer names its mean column for the mean it
// is, and the table audit reads that name as that mean.
func TestFreshResultsTableAudits(t *testing.T) {
	run := filepath.Join("..", "..", "render", "testdata", "runs", "20261129T192304Z-vm")
	out := filepath.Join(t.TempDir(), "site")
	if _, stderr, code := runCLI(t, "render", "-out", out, run); code != 0 {
		t.Fatalf("render: exit %d\n%s", code, stderr)
	}
	stdout, stderr, code := runCLI(t, "audit", "-table", filepath.Join(out, "results.md"), run)
	if code != 0 || strings.Contains(stdout, "ERROR") || strings.Contains(stdout, "table-mismatch") {
		t.Errorf("audit -table of fairbench's own results.md: exit %d\n%s%s", code, stdout, stderr)
	}
}
