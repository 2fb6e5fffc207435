package rundir

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// One lock for every place fairbench takes for one process: a run dir
// being written (Dir.Lock), a render's out folder, and the host a collect
// measures on (WaitLock). A lock is an exclusive flock(2) on a lock file
// that says who holds it: its process id, since when, and what it does.
// The kernel drops the lock when its process ends, however it ends, so a
// crash never leaves a place locked: a lock file left by a killed process
// holds nothing, and the next TryLock takes it (and says whose it was).
// The holder removes the file while it still holds it, so no other
// process can lock the old file once it has gone.

// ErrHeld is what a *HeldError is (errors.Is): another process holds the
// lock.
var ErrHeld = errors.New("held by another process")

// ErrNotLockFile is wrapped by TryLock's error when the lock file is not
// a regular file (a link planted from elsewhere, a FIFO): it is never
// written through.
var ErrNotLockFile = errors.New("not a regular file")

// Holder is what a lock file says of the process that holds it, or held
// it last.
type Holder struct {
	PID   int       // 0 when the file names none
	Since time.Time // when it took the lock; zero when not said
	Note  string    // what it does, as it said ("collect of out/r1")
}

// String names the holder: "process 123 (its command line)".
func (h Holder) String() string {
	if h.PID <= 0 {
		return "another process"
	}
	what := "process " + strconv.Itoa(h.PID)
	if cmd, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", h.PID)); err == nil && len(cmd) > 0 {
		what += " (" + string(bytes.TrimSpace(bytes.ReplaceAll(cmd, []byte{0}, []byte{' '}))) + ")"
	}
	return what
}

// Running reports whether the holder's process exists (signal 0 checks
// without sending; EPERM: it exists, under another user).
func (h Holder) Running() bool {
	if h.PID <= 0 {
		return false
	}
	err := syscall.Kill(h.PID, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// HeldError is a lock another process holds.
type HeldError struct {
	Path   string
	Holder Holder
}

func (e *HeldError) Error() string {
	return fmt.Sprintf("%s is held by %s", e.Path, e.Holder)
}

// Is makes errors.Is(err, ErrHeld) true.
func (e *HeldError) Is(target error) bool { return target == ErrHeld }

// Lock is a held lock file.
type Lock struct {
	f    *os.File
	path string
}

// TryLock takes the lock file at path (made if missing) for this process
// and writes into it this process's id, the time and note. It does not
// wait: a lock another process holds is a *HeldError naming it. prev is
// what the file said before, when this process took it: the holder of a
// lock left by a process that ended without Unlock; zero when there was
// none.
func TryLock(path, note string) (l *Lock, prev Holder, err error) {
	for {
		f, err := openLockFile(path)
		if err != nil {
			return nil, Holder{}, err
		}
		holder := readHolder(f)
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, Holder{}, &HeldError{Path: path, Holder: holder}
			}
			return nil, Holder{}, fmt.Errorf("lock %s: %w", path, err)
		}
		// The holder before us may have removed the file between our open
		// and our lock (Unlock): then we hold a lock on a name nobody sees.
		if same(f, path) {
			f.Truncate(0)
			f.WriteAt(holderText(os.Getpid(), time.Now(), note), 0)
			return &Lock{f: f, path: path}, holder, nil
		}
		f.Close()
	}
}

// Unlock removes the lock file and lets the lock go. The file is removed
// while it is still held, so that no other process can lock the old file
// after it has gone.
func (l *Lock) Unlock() {
	if l == nil || l.f == nil {
		return
	}
	os.Remove(l.path)
	l.f.Close()
	l.f = nil
}

// openLockFile opens (or makes) the lock file without following a link
// and refuses anything but a regular file.
func openLockFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("%s is a link, %w: remove it, then try again", path, ErrNotLockFile)
	}
	if err != nil {
		return nil, err
	}
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is %w: remove it, then try again", path, ErrNotLockFile)
	}
	return f, nil
}

// holderText is what a lock file holds: the process id, the time it took
// the lock and its note, a line each.
func holderText(pid int, since time.Time, note string) []byte {
	note = strings.ReplaceAll(note, "\n", " ")
	return []byte(fmt.Sprintf("%d\n%s\n%s\n", pid, since.UTC().Format(time.RFC3339), note))
}

// readHolder is what the lock file f says of its holder: its first bytes
// only, as the file is three short lines. A file of a fairbench before
// held the process id alone.
func readHolder(f *os.File) Holder {
	b := make([]byte, 1024)
	n, _ := f.ReadAt(b, 0)
	lines := strings.SplitN(string(b[:n]), "\n", 4)
	var h Holder
	if pid, err := strconv.Atoi(strings.TrimSpace(lines[0])); err == nil && pid > 0 {
		h.PID = pid
	}
	if len(lines) > 1 {
		h.Since, _ = time.Parse(time.RFC3339, strings.TrimSpace(lines[1]))
	}
	if len(lines) > 2 {
		h.Note = strings.TrimSpace(lines[2])
	}
	return h
}

// same reports whether the open file f is the file now at path.
func same(f *os.File, path string) bool {
	held, err := f.Stat()
	if err != nil {
		return false
	}
	now, err := os.Lstat(path)
	return err == nil && os.SameFile(held, now)
}
