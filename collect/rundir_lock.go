package collect

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// ErrRunDirLocked is wrapped by Lock's error when another process holds the
// run dir.
var ErrRunDirLocked = errors.New("run dir in use")

// lockName is the file in a run dir that a collecting process holds an
// exclusive flock(2) on. The kernel drops the lock when the process ends,
// however it ends, so a crash never leaves a run dir locked.
const lockName = ".lock"

// Lock takes the run dir for this process, so that no second collect
// (-resume of the same dir) writes into it at the same time. It fails at
// once, naming the process that holds the dir, rather than wait. A collect
// locks the dir it creates, and -resume the dir before it changes anything.
func (d *RunDir) Lock() error {
	if d.lock != nil {
		return nil
	}
	path := filepath.Join(d.Path, lockName)
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return fmt.Errorf("lock %s: %w", d.Path, err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			holder, _ := os.ReadFile(path)
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return fmt.Errorf("%w: %s is being written by %s: wait for it to end, or stop it and then -resume", ErrRunDirLocked, d.Path, describeHolder(holder))
			}
			return fmt.Errorf("lock %s: %w", d.Path, err)
		}
		// The holder before us may have removed the file between our open
		// and our lock (Unlock): then we hold a lock on a name nobody sees.
		if same(f, path) {
			f.Truncate(0)
			f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
			d.lock = f
			return nil
		}
		f.Close()
	}
}

// Unlock removes the lock file and lets the run dir go. The file is removed
// while it is still held, so that no other process can lock the old file
// after it has gone.
func (d *RunDir) Unlock() {
	if d == nil || d.lock == nil {
		return
	}
	os.Remove(filepath.Join(d.Path, lockName))
	d.lock.Close()
	d.lock = nil
}

// same reports whether the open file f is the file now at path.
func same(f *os.File, path string) bool {
	held, err := f.Stat()
	if err != nil {
		return false
	}
	now, err := os.Stat(path)
	return err == nil && os.SameFile(held, now)
}

// describeHolder names the process whose id a lock file holds.
func describeHolder(b []byte) string {
	pid, err := strconv.Atoi(string(bytes.TrimSpace(b)))
	if err != nil || pid <= 0 {
		return "another process"
	}
	what := "process " + strconv.Itoa(pid)
	if cmd, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); err == nil && len(cmd) > 0 {
		what += " (" + string(bytes.TrimSpace(bytes.ReplaceAll(cmd, []byte{0}, []byte{' '}))) + ")"
	}
	return what
}
