package main

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/fairbench/fairbench/collect/machine"
)

// scaffold is the project `fairbench init` writes. Files that Go would
// take for its own (main.go, go.mod) are stored with a .txt suffix, which
// init removes.
//
//go:embed all:scaffold
var scaffold embed.FS

var initCommand = command{
	summary: "scaffold a benchmark project: a suite, a target, a site",
	usage: `fairbench init DIR

Writes a small benchmark project into DIR (which must be empty or absent):
suites/main.toml (one scenario, one Go target listed twice as an A/A pair),
apps/hello (the target), site.toml and content/ for the site, results/.

Examples:
  fairbench init mybench
  cd mybench && fairbench verify -suite suites/main.toml
  cd mybench && fairbench collect -suite suites/main.toml -out results && fairbench render -site .`,
	run: runInit,
}

func runInit(e *env, args []string) error {
	fs := newFlags(e, "init")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return usageErr("init: give exactly one DIR")
	}
	dir := fs.Arg(0)
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return usageErr("init: %s is not empty: choose a new folder", dir)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return usageErr("init: %w", err)
	}
	n, err := writeScaffold(dir)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote %d files to %s\nnext: cd %s && fairbench verify -suite suites/main.toml\n", n, dir, machine.ShellQuote(dir))
	return nil
}

// writeScaffold copies the embedded scaffold into dir.
func writeScaffold(dir string) (int, error) {
	root, err := fs.Sub(scaffold, "scaffold")
	if err != nil {
		return 0, err
	}
	n := 0
	err = fs.WalkDir(root, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := filepath.Join(dir, filepath.FromSlash(strings.TrimSuffix(p, ".txt")))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := fs.ReadFile(root, p)
		if err != nil {
			return err
		}
		n++
		return os.WriteFile(target, b, 0o644)
	})
	return n, err
}
