package rundir

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// ErrLocked is wrapped by Lock's error when another process holds the
// run dir.
var ErrLocked = errors.New("run dir in use")

// lockName is the file in a run dir that a collecting process holds an
// exclusive flock(2) on. The kernel drops the lock when the process ends,
// however it ends, so a crash never leaves a run dir locked.
const lockName = ".lock"

// Lock takes the run dir for this process, so that no second collect
// (-resume of the same dir) writes into it at the same time. It fails at
// once, naming the process that holds the dir, rather than wait. A collect
// locks the dir it creates, and -resume the dir before it changes anything.
//
// A lock file left by a collect that ended without Unlock (SIGKILL, a
// crash, a power cut) holds no lock any more: the kernel dropped it with
// the process. Lock takes it over and keeps the old holder's description
// for the caller to report (stale). A lock file that is not a regular
// file (a link planted in a run dir from elsewhere) is refused, never
// written through.
func (d *Dir) Lock() error {
	if d.lock != nil {
		return nil
	}
	path := filepath.Join(d.Path, lockName)
	for {
		f, err := openLockFile(path)
		if err != nil {
			return fmt.Errorf("lock %s: %w", d.Path, err)
		}
		holder := lockHolder(f)
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return fmt.Errorf("%w: %s is being written by %s: wait for it to end, or stop it and then -resume", ErrLocked, d.Path, describeHolder(holder))
			}
			return fmt.Errorf("lock %s: %w", d.Path, err)
		}
		// The holder before us may have removed the file between our open
		// and our lock (Unlock): then we hold a lock on a name nobody sees.
		if same(f, path) {
			if holder > 0 {
				d.stale = describeHolder(holder)
				if !running(holder) {
					d.stale = fmt.Sprintf("process %d, which no longer runs", holder)
				}
			}
			f.Truncate(0)
			f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
			d.lock = f
			return nil
		}
		f.Close()
	}
}

// StaleLock names the process whose lock file Lock found and took over (a
// collect that ended without letting go, killed); "" if none.
func (d *Dir) StaleLock() string { return d.stale }

// openLockFile opens (or makes) the lock file without following a link
// and refuses anything but a regular file.
func openLockFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("%s is a link, not a regular file: remove it, then try again", path)
	}
	if err != nil {
		return nil, err
	}
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file: remove it, then try again", path)
	}
	return f, nil
}

// lockHolder is the process id a lock file holds, 0 when none: the first
// bytes only, as the file is no longer than a number.
func lockHolder(f *os.File) int {
	b := make([]byte, 32)
	n, _ := f.ReadAt(b, 0)
	pid, err := strconv.Atoi(string(bytes.TrimSpace(b[:n])))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

// running reports whether a process with this id exists (signal 0 checks
// without sending; EPERM: it exists, under another user).
func running(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// Unlock removes the lock file and lets the run dir go. The file is removed
// while it is still held, so that no other process can lock the old file
// after it has gone.
func (d *Dir) Unlock() {
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
func describeHolder(pid int) string {
	if pid <= 0 {
		return "another process"
	}
	what := "process " + strconv.Itoa(pid)
	if cmd, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); err == nil && len(cmd) > 0 {
		what += " (" + string(bytes.TrimSpace(bytes.ReplaceAll(cmd, []byte{0}, []byte{' '}))) + ")"
	}
	return what
}
