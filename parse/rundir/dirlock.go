package rundir

import (
	"errors"
	"fmt"
	"path/filepath"
)

// ErrLocked is wrapped by Dir.Lock's error when another process holds the
// run dir.
var ErrLocked = errors.New("run dir in use")

// lockName is the file in a run dir that a collecting process holds its
// lock on (lock.go).
const lockName = ".lock"

// Lock takes the run dir for this process, so that no second collect
// (-resume of the same dir) writes into it at the same time. It fails at
// once, naming the process that holds the dir, rather than wait. A collect
// locks the dir it creates, and -resume the dir before it changes anything.
//
// A lock file left by a collect that ended without Unlock (SIGKILL, a
// crash, a power cut) holds no lock any more: Lock takes it over and keeps
// the old holder's description for the caller to report (StaleLock). A
// lock file that is not a regular file (a link planted in a run dir from
// elsewhere) is refused, never written through.
func (d *Dir) Lock() error {
	if d.lock != nil {
		return nil
	}
	l, prev, err := TryLock(filepath.Join(d.Path, lockName), "collect of "+d.Path)
	var held *HeldError
	if errors.As(err, &held) {
		return fmt.Errorf("%w: %s is being written by %s: wait for it to end, or stop it and then -resume", ErrLocked, d.Path, held.Holder)
	}
	if err != nil {
		return fmt.Errorf("lock %s: %w", d.Path, err)
	}
	if prev.PID > 0 {
		d.stale = prev.String()
		if !prev.Running() {
			d.stale = fmt.Sprintf("process %d, which no longer runs", prev.PID)
		}
	}
	d.lock = l
	return nil
}

// StaleLock names the process whose lock file Lock found and took over (a
// collect that ended without letting go, killed); "" if none.
func (d *Dir) StaleLock() string { return d.stale }

// Unlock removes the lock file and lets the run dir go.
func (d *Dir) Unlock() {
	if d == nil || d.lock == nil {
		return
	}
	d.lock.Unlock()
	d.lock = nil
}
