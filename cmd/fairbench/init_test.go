package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/collect/suite"
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

// TestInitAAPairAndQuoting: the scaffold's suite names its two copies of
// one program as its aa_pair, and the next step init prints quotes a
// folder with a space and a quote in its name, so that it can be pasted.
func TestInitAAPairAndQuoting(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "my bench's")
	stdout, stderr, code := runCLI(t, "init", dir)
	if code != 0 {
		t.Fatalf("init: exit %d, %s%s", code, stdout, stderr)
	}
	s, err := suite.LoadSuite(filepath.Join(dir, "suites", "main.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"hello", "hello-again"}; !slices.Equal(s.AAPair, want) {
		t.Errorf("aa_pair %q, want %q", s.AAPair, want)
	}
	quoted := "'" + strings.ReplaceAll(dir, "'", `'\''`) + "'"
	if want := "next: cd " + quoted + " && fairbench verify"; !strings.Contains(stdout, want) {
		t.Errorf("init printed\n%s\nwant %q", stdout, want)
	}
	out, err := exec.Command("sh", "-c", strings.Split(strings.Split(stdout, "next: ")[1], " && ")[0]+" && pwd").Output()
	if err != nil || strings.TrimSpace(string(out)) != dir {
		t.Errorf("the printed cd goes to %q (%v), want %q", out, err, dir)
	}
}
