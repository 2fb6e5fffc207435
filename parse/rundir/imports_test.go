package rundir

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImportsRunDownward keeps the layers apart: the SSH machine code and
// the TOML reader sit below parse and must not depend on its root package
// (they hash and open through rundir instead), and rundir itself depends
// on nothing of fairbench but parse/runjson, so that every layer can use
// it. go list -deps is what a newcomer would run to check.
func TestImportsRunDownward(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH")
	}
	const module = "github.com/fairbench/fairbench/"
	below := map[string][]string{
		"./collect/machine/...": {module + "parse"},
		"./parse/tomlfile/...":  {module + "parse"},
	}
	for pattern, banned := range below {
		for pkg, deps := range depsOf(t, goTool, pattern) {
			for _, d := range deps {
				for _, b := range banned {
					if d == b {
						t.Errorf("%s depends on %s: imports must run downward (hash and open through parse/rundir)", pkg, b)
					}
				}
			}
		}
	}
	for pkg, deps := range depsOf(t, goTool, "./parse/rundir") {
		for _, d := range deps {
			if strings.HasPrefix(d, module) && d != module+"parse/runjson" {
				t.Errorf("%s depends on %s: rundir may use parse/runjson alone of fairbench", pkg, d)
			}
		}
	}
}

// depsOf is every package pattern matches (tests left out), with every
// package it depends on, as go list says.
func depsOf(t *testing.T, goTool, pattern string) map[string][]string {
	t.Helper()
	cmd := exec.Command(goTool, "list", "-f", "{{.ImportPath}} {{join .Deps \" \"}}", pattern)
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %s: %v", pattern, err)
	}
	deps := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) > 0 {
			deps[f[0]] = f[1:]
		}
	}
	if len(deps) == 0 {
		t.Fatalf("go list %s: no package", pattern)
	}
	return deps
}
