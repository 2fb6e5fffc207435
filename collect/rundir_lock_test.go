package collect

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
	d, err := CreateRunDir(t.TempDir(), runjson.Manifest{Schema: runjson.SchemaVersion, ID: "r1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Lock(); err != nil {
		t.Fatal(err)
	}
	second, err := OpenRunDir(d.Path)
	if err != nil {
		t.Fatal(err)
	}
	err = second.Lock()
	if !errors.Is(err, ErrRunDirLocked) || !strings.Contains(err.Error(), "process "+strconv.Itoa(os.Getpid())) {
		t.Fatalf("second Lock: %v, want ErrRunDirLocked naming process %d", err, os.Getpid())
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
	if dir := os.Getenv("FAIRBENCH_HOLD_RUNDIR"); dir != "" {
		holdRunDir(dir) // the other process
		return
	}
	d, err := CreateRunDir(t.TempDir(), runjson.Manifest{Schema: runjson.SchemaVersion, ID: "r1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	holder := exec.Command(os.Args[0], "-test.run=^TestRunDirLockHeldByAnotherProcess$")
	holder.Env = append(os.Environ(), "FAIRBENCH_HOLD_RUNDIR="+d.Path)
	stdin, _ := holder.StdinPipe()
	stdout, _ := holder.StdoutPipe()
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	defer holder.Process.Kill()
	ready := make([]byte, 6)
	if _, err := io.ReadFull(stdout, ready); err != nil || string(ready) != "locked" {
		t.Fatalf("the holder did not take the lock: %q %v", ready, err)
	}
	err = d.Lock()
	if !errors.Is(err, ErrRunDirLocked) || !strings.Contains(err.Error(), "process "+strconv.Itoa(holder.Process.Pid)) {
		t.Fatalf("Lock while process %d holds the dir: %v, want ErrRunDirLocked naming it", holder.Process.Pid, err)
	}
	stdin.Close() // the holder ends without unlocking: the kernel lets go
	holder.Wait()
	if err := d.Lock(); err != nil {
		t.Fatalf("Lock after the holder ended: %v", err)
	}
	d.Unlock()
}

// holdRunDir locks dir, says so on stdout and holds it until stdin closes.
func holdRunDir(dir string) {
	d, err := OpenRunDir(dir)
	if err == nil {
		err = d.Lock()
	}
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	fmt.Print("locked")
	io.Copy(io.Discard, os.Stdin)
	os.Exit(0)
}
