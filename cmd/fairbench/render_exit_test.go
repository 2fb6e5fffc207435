package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestRenderExitStatus holds render to the exit status table, one row per
// condition: 0 it did its job; 2 bad usage (a flag, a refused -out, a
// missing or unreadable named input, an input with nothing to render, an
// unknown theme, a README it cannot use). A refused render leaves -out as
// it was.
func TestRenderExitStatus(t *testing.T) {
	runs := filepath.Join("..", "..", "render", "testdata", "runs")
	dir, wrk, garbage, _ := inputs(t)
	good := filepath.Join(t.TempDir(), "public") // a site an earlier render wrote
	if _, stderr, code := runCLI(t, "render", "-out", good, wrk); code != 0 {
		t.Fatalf("first render: exit %d\n%s", code, stderr)
	}
	foreign := t.TempDir()
	os.WriteFile(filepath.Join(foreign, "thesis.txt"), []byte("mine\n"), 0o644)
	readme := filepath.Join(t.TempDir(), "README.md")
	os.WriteFile(readme, []byte("# x\n<!-- fairbench:start -->\n<!-- fairbench:end -->\n"), 0o644)
	noMarkers := filepath.Join(t.TempDir(), "README.md")
	os.WriteFile(noMarkers, []byte("# x\n"), 0o644)
	fifo := filepath.Join(t.TempDir(), "README.md")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	hardLinked := filepath.Join(t.TempDir(), "README.md")
	os.WriteFile(hardLinked, []byte("<!-- fairbench:start -->\n<!-- fairbench:end -->\n"), 0o644)
	os.Link(hardLinked, hardLinked+".2")
	leaky := t.TempDir() // a site folder whose theme links a file outside it
	os.MkdirAll(filepath.Join(leaky, "theme"), 0o755)
	os.Symlink(garbage, filepath.Join(leaky, "theme", "style.css"))
	fresh := func() string { return filepath.Join(t.TempDir(), "public") }
	for _, c := range []struct {
		name string
		args []string
		code int
		want string // in stderr
		out  string // -out, checked to be as it was before
	}{
		{"ok", []string{"-out", fresh(), "-readme", readme, wrk}, 0, "render: done in", ""},
		{"help", []string{"-h"}, 0, "fairbench render:", ""},
		{"unknown flag", []string{"-nope", wrk}, 2, "flag provided but not defined: -nope", ""},
		{"no input", []string{"-out", fresh()}, 2, "give at least one PATH", ""},
		{"missing input", []string{"-out", good, filepath.Join(dir, "nonexistent")}, 2, "nonexistent", good},
		{"unreadable input", []string{"-out", good, garbage}, 2, "garbage.bin", good},
		{"empty input", []string{"-out", good, t.TempDir()}, 2, "nothing to render: ", good},
		{"foreign -out", []string{"-out", foreign, wrk}, 2, "not empty and was not written by fairbench render", foreign},
		{"-out is /", []string{"-out", "/", wrk}, 2, "is the root of the file system", ""},
		{"-out is the input", []string{"-out", dir, dir}, 2, "is the input", dir},
		{"-out held by another render", []string{"-out", good, wrk}, 2, "is being written by another fairbench render", good},
		{"unknown -theme", []string{"-theme", "nope", "-out", good, runs}, 2, `theme "nope": no such theme`, good},
		{"missing -readme", []string{"-readme", filepath.Join(dir, "nope.md"), "-out", good, wrk}, 2, "nope.md", good},
		{"-readme a FIFO", []string{"-readme", fifo, "-out", good, wrk}, 2, "is not a regular file", good},
		{"-readme hard-linked", []string{"-readme", hardLinked, "-out", good, wrk}, 2, "has 2 hard links", good},
		{"-site links out", []string{"-site", leaky, "-out", good, wrk}, 2, "outside the site folder", good},
		{"-readme without markers", []string{"-readme", noMarkers, "-out", good, wrk}, 2, "no <!-- fairbench:start -->", good},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "-out held by another render" {
				defer holdLock(t, c.out)()
			}
			var before map[string]string
			if c.out != "" {
				before = snapshot(t, c.out)
			}
			_, stderr, code := runCLI(t, append([]string{"render"}, c.args...)...)
			if code != c.code || !strings.Contains(stderr, c.want) {
				t.Errorf("fairbench render %s: exit %d, stderr:\n%s\nwant %d and %q", strings.Join(c.args, " "), code, stderr, c.code, c.want)
			}
			if c.out != "" {
				if after := snapshot(t, c.out); !sameTree(before, after) {
					t.Errorf("-out %s changed: %d files before, %d after", c.out, len(before), len(after))
				}
			}
		})
	}
}

// holdLock takes out as a render does, by flock(2) on its lock file from
// this process, and returns the function that lets it go.
func holdLock(t *testing.T, out string) func() {
	t.Helper()
	path := filepath.Join(out, ".fairbench-lock")
	lock, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err == nil {
		err = syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	}
	if err != nil {
		t.Fatal(err)
	}
	return func() {
		os.Remove(path)
		lock.Close()
	}
}

// snapshot is every file under dir (slash paths) with its bytes.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			b, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			out[filepath.ToSlash(rel)] = string(b)
		}
		return nil
	})
	return out
}

func sameTree(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
