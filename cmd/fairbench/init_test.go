package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInitScaffoldPassesTheGate: what init writes is a working project:
// its suite loads, its target builds and passes the gate, its site.toml loads.
func TestInitScaffoldPassesTheGate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bench")
	stdout, stderr, code := runCLI(t, "init", dir)
	if code != 0 || !strings.Contains(stdout, "wrote") {
		t.Fatalf("init: exit %d, %s%s", code, stdout, stderr)
	}
	for _, f := range []string{"apps/hello/main.go", "apps/hello/go.mod", "suites/main.toml", "site.toml", "content/methodology.md", "results/.gitkeep"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("init did not write %s: %v", f, err)
		}
	}
	if testing.Short() {
		return
	}
	t.Parallel()
	stdout, stderr, code = runCLI(t, "verify", "-suite", filepath.Join(dir, "suites", "main.toml"), "-base", dir)
	if code != 0 || !strings.Contains(stdout, "all 2 targets passed") {
		t.Errorf("verify of the scaffold: exit %d\n%s\n%s", code, stdout, stderr)
	}
	_, stderr, code = runCLI(t, "init", dir)
	if code != 2 || !strings.Contains(stderr, "is not empty") {
		t.Errorf("init into a full folder: exit %d, %s", code, stderr)
	}
}
