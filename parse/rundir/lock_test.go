package rundir

import (
	"github.com/fairbench/fairbench/parse/runjson"

	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestRunDirLock: a second holder of a run dir is refused at once, with
// the holder's process id; Unlock removes the lock file and lets it go.
func TestRunDirLock(t *testing.T) {
	d := newLockDir(t)
	if err := d.Lock(); err != nil {
		t.Fatal(err)
	}
	second, err := Load(d.Path)
	if err != nil {
		t.Fatal(err)
	}
	err = second.Lock()
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "process "+strconv.Itoa(os.Getpid())) {
		t.Fatalf("second Lock: %v, want ErrLocked naming process %d", err, os.Getpid())
	}
	d.Unlock()
	if _, err := os.Stat(filepath.Join(d.Path, lockName)); !os.IsNotExist(err) {
		t.Errorf("the lock file is still there after Unlock: %v", err)
	}
	if err := second.Lock(); err != nil {
		t.Fatalf("Lock after the holder let go: %v", err)
	}
	second.Unlock()
}

// TestRunDirLockHeldByAnotherProcess: this test binary, run again as
// another process, holds the run dir; Lock here is refused naming that
// process, until it ends.
func TestRunDirLockHeldByAnotherProcess(t *testing.T) {
	d := newLockDir(t)
	holder, stdin := startHolder(t, d.Path)
	err := d.Lock()
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "process "+strconv.Itoa(holder.Process.Pid)) {
		t.Fatalf("Lock while process %d holds the dir: %v, want ErrLocked naming it", holder.Process.Pid, err)
	}
	stdin.Close() // the holder ends without unlocking: the kernel lets go
	holder.Wait()
	if err := d.Lock(); err != nil {
		t.Fatalf("Lock after the holder ended: %v", err)
	}
	d.Unlock()
}

// init makes this test binary, run again by startHolder, the other
// process that holds a run dir.
func init() {
	if dir := os.Getenv("FAIRBENCH_HOLD_RUNDIR"); dir != "" {
		holdRunDir(dir)
	}
}

// newLockDir is an empty run dir.
func newLockDir(t *testing.T) *Dir {
	t.Helper()
	d, err := Create(t.TempDir(), runjson.Manifest{Schema: runjson.SchemaVersion, ID: "r1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// startHolder runs this test binary again holding dir (init), and returns once it holds it; closing stdin
// lets it end. It is killed when the test ends.
func startHolder(t *testing.T, dir string) (*exec.Cmd, io.WriteCloser) {
	t.Helper()
	holder := exec.Command(os.Args[0], "-test.run=^$")
	holder.Env = append(os.Environ(), "FAIRBENCH_HOLD_RUNDIR="+dir)
	stdin, _ := holder.StdinPipe()
	stdout, _ := holder.StdoutPipe()
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { holder.Process.Kill(); holder.Wait() })
	ready := make([]byte, 6)
	if _, err := io.ReadFull(stdout, ready); err != nil || string(ready) != "locked" {
		t.Fatalf("the holder did not take the lock: %q %v", ready, err)
	}
	return holder, stdin
}

// holdRunDir locks dir, says so on stdout and holds it until stdin closes.
func holdRunDir(dir string) {
	d, err := Load(dir)
	if err == nil {
		err = d.Lock()
	}
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	d.Reserve()
	fmt.Print("locked")
	io.Copy(io.Discard, os.Stdin)
	os.Exit(0)
}

// TestStaleLockAfterKill: a collect killed with SIGKILL leaves .lock (with
// its process id) and .reserve behind. The kernel dropped its flock, so the
// next Lock takes the dir, and says whose lock it found.
func TestStaleLockAfterKill(t *testing.T) {
	d := newLockDir(t)
	holder, _ := startHolder(t, d.Path) // stdin held open: it waits until killed
	holder.Process.Kill()               // SIGKILL: no Unlock, no release
	holder.Wait()
	for _, name := range []string{lockName, reserveName} {
		if _, err := os.Stat(filepath.Join(d.Path, name)); err != nil {
			t.Fatalf("%s not left by the killed holder: %v", name, err)
		}
	}
	if err := d.Lock(); err != nil {
		t.Fatalf("Lock after the holder was killed: %v", err)
	}
	defer d.Unlock()
	want := fmt.Sprintf("process %d, which no longer runs", holder.Process.Pid)
	if !strings.Contains(d.stale, want) {
		t.Errorf("stale lock described as %q, want it to say %q", d.stale, want)
	}
}

// TestLockFilesNotFollowed: a .lock or .reserve that is a link (a run dir
// from elsewhere) is not written through: the file it points to keeps its
// bytes.
func TestLockFilesNotFollowed(t *testing.T) {
	for _, name := range []string{lockName, reserveName} {
		t.Run(name, func(t *testing.T) {
			d := newLockDir(t)
			victim := filepath.Join(t.TempDir(), "victim")
			os.WriteFile(victim, []byte("keep me\n"), 0o644)
			if err := os.Symlink(victim, filepath.Join(d.Path, name)); err != nil {
				t.Fatal(err)
			}
			err := d.Lock()
			if name == lockName && (err == nil || !strings.Contains(err.Error(), "not a regular file")) {
				t.Errorf("Lock through a linked %s: %v, want it refused", name, err)
			}
			d.Reserve()
			d.Unlock()
			if b, _ := os.ReadFile(victim); string(b) != "keep me\n" {
				t.Errorf("the file %s links to was changed: %q", name, b[:min(len(b), 20)])
			}
		})
	}
}
