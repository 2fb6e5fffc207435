package render

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestOutLockedByAnotherRender: while one render process writes into an
// out folder, a second render into it fails at once, as ErrUsage naming
// the folder, and the first finishes with its site whole.
func TestOutLockedByAnotherRender(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	run := fixtureRun(t)
	if err := renderTo(t, out, run); err != nil { // a site the first render replaces
		t.Fatal(err)
	}
	first, stderr, resume := pausedRender(t, out, run)

	start := time.Now()
	_, _, err := BuildPaths([]string{run}, Options{Out: out})
	if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "-out "+out+" is being written by another fairbench render") {
		t.Errorf("second render: %v, want a usage error naming the folder", err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("the second render took %s to give up, want at once", took)
	}

	resume()
	if err := first.Wait(); err != nil {
		t.Fatalf("first render: %v\n%s", err, stderr)
	}
	site := tree(t, out)
	text, ok := strings.CutPrefix(site[marker], markerHead)
	if !ok {
		t.Fatalf("the marker is not whole:\n%q", site[marker])
	}
	n := 0
	for line := range strings.Lines(text) {
		size, rel, _ := strings.Cut(strings.TrimSuffix(line, "\n"), " ")
		if got, ok := site[rel]; !ok || size != strconv.Itoa(len(got)) {
			t.Errorf("the marker lists %s (%s bytes), the folder has %d bytes (present %v)", rel, size, len(got), ok)
		}
		n++
	}
	if n != len(site)-1 {
		t.Errorf("the marker lists %d files, the folder holds %d besides it", n, len(site)-1)
	}
	if _, ok := site[lockName]; ok {
		t.Errorf("the lock file is left in the site")
	}
}

// TestOutLockOfDeadRender: a render killed while it held the folder
// blocks no later render.
func TestOutLockOfDeadRender(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	run := fixtureRun(t)
	first, _, _ := pausedRender(t, out, run)
	if _, err := os.Stat(filepath.Join(out, lockName)); err != nil {
		t.Fatalf("the first render holds no lock file: %v", err)
	}
	first.Process.Kill()
	first.Wait()
	if err := renderTo(t, out, run); err != nil {
		t.Fatalf("render after a killed one: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(out, lockName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the lock file is left in the site: %v", err)
	}
}

// TestSpoolLeftByNoExit: a render ended by a signal, or killed, while it
// holds its spool leaves no spool file in the temporary folder.
func TestSpoolLeftByNoExit(t *testing.T) {
	for _, sig := range []os.Signal{os.Interrupt, os.Kill} {
		tmp := t.TempDir()
		t.Setenv("TMPDIR", tmp)
		first, _, _ := pausedRender(t, filepath.Join(t.TempDir(), "public"), fixtureRun(t))
		first.Process.Signal(sig)
		first.Wait()
		if left, _ := filepath.Glob(filepath.Join(tmp, "fairbench-render-*")); len(left) > 0 {
			t.Errorf("a render ended by %v left %v", sig, left)
		}
	}
}
