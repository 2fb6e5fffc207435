package render

import (
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets a test run this test binary as a second, real render
// process: FAIRBENCH_RENDER_OUT set renders the paths in
// FAIRBENCH_RENDER_PATHS (split on "|") into that folder and exits. With
// FAIRBENCH_RENDER_PAUSE set to a folder, the render stops at its first
// progress line, after it has read its input and while it holds the out
// folder: it makes the file "paused" there and goes on once the test
// makes "go". With FAIRBENCH_RENDER_FSIZE set to a number of bytes, the
// render's input is read as usual and then no file may grow beyond that
// size (RLIMIT_FSIZE: a write past it fails, as on a full disk).
func TestMain(m *testing.M) {
	if out := os.Getenv("FAIRBENCH_RENDER_OUT"); out != "" {
		opt := Options{Out: out}
		if dir := os.Getenv("FAIRBENCH_RENDER_PAUSE"); dir != "" {
			opt.Progress = &pauser{dir: dir}
		}
		if n, err := strconv.ParseUint(os.Getenv("FAIRBENCH_RENDER_FSIZE"), 10, 64); err == nil {
			opt.Progress = &diskFiller{size: n}
		}
		_, _, err := BuildPaths(strings.Split(os.Getenv("FAIRBENCH_RENDER_PATHS"), "|"), opt)
		if err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	code := m.Run()
	removeProjectSite()
	os.Exit(code)
}

// pauser is a progress writer that holds a render at its first line.
type pauser struct {
	dir    string
	paused bool
}

func (p *pauser) Write(b []byte) (int, error) {
	if !p.paused {
		p.paused = true
		os.WriteFile(filepath.Join(p.dir, "paused"), nil, 0o644)
		for {
			if _, err := os.Stat(filepath.Join(p.dir, "go")); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	return len(b), nil
}

// diskFiller is a progress writer that, at a render's first line (its
// input read), limits the size of every file the process writes.
type diskFiller struct {
	size uint64
	set  bool
}

func (d *diskFiller) Write(b []byte) (int, error) {
	if !d.set {
		d.set = true
		signal.Ignore(syscall.SIGXFSZ) // a write past the limit fails instead
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: d.size, Max: d.size}); err != nil {
			panic(err)
		}
	}
	return len(b), nil
}

// pausedRender starts a render of paths into out in a process of its own
// and waits until it holds out, paused; resume lets it go on.
func pausedRender(t *testing.T, out string, paths ...string) (cmd *exec.Cmd, stderr *strings.Builder, resume func()) {
	t.Helper()
	dir := t.TempDir()
	cmd = exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "FAIRBENCH_RENDER_OUT="+out, "FAIRBENCH_RENDER_PATHS="+strings.Join(paths, "|"), "FAIRBENCH_RENDER_PAUSE="+dir)
	stderr = &strings.Builder{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	resume = func() { os.WriteFile(filepath.Join(dir, "go"), nil, 0o644) }
	t.Cleanup(func() {
		resume()
		cmd.Process.Kill()
		cmd.Wait()
	})
	for range 1000 {
		if _, err := os.Stat(filepath.Join(dir, "paused")); err == nil {
			return cmd, stderr, resume
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the render into %s did not start in 10s: %s", out, stderr)
	return
}
