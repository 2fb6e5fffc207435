package render

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/fairbench/fairbench/parse/rundir"
)

// One render at a time writes into an out folder: two would remove each
// other's files and interleave their markers. A render holds the lock of
// package rundir (rundir.TryLock) on lockName inside the folder from
// before it looks at the folder until it has written its last file. A
// second render fails at once (it does not wait: the first may take
// minutes, and a build script that ran two renders into one folder has a
// bug to hear of), naming the folder and the process holding it.
//
// The kernel drops the lock when its process ends, however it ends, so a
// lock file left by a killed render blocks nothing: the next render takes
// it. A render removes the file while it still holds it, so a finished
// site holds no lock file, and no other render can hold the old file once
// it has gone.

// lockName is the lock file in an out folder. The marker never lists it,
// and a folder holding it alone counts as empty.
const lockName = ".fairbench-lock"

// outLock is a held out folder.
type outLock struct {
	l    *rundir.Lock
	path string
	// made is the highest folder lockOut created for the lock, "" if out
	// was there: a render that stops before writing removes it again.
	made string
}

// lockOut takes the out folder for this render, making it if need be.
func lockOut(out string) (*outLock, error) {
	made, err := firstMissing(out)
	if err != nil {
		return nil, fmt.Errorf("render: -out %s: %w", out, err)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("render: -out %s: %w", out, err)
	}
	l := &outLock{path: filepath.Join(out, lockName), made: made}
	held, _, err := rundir.TryLock(l.path, "render into "+out)
	var by *rundir.HeldError
	switch {
	case errors.As(err, &by):
		return nil, usagef("render: -out %s is being written by another fairbench render (%s): wait for it to end, or give another -out", out, by.Holder)
	case errors.Is(err, rundir.ErrNotLockFile):
		l.unmake()
		return nil, usagef("render: -out %s: %s is not a file render made: move it away", out, lockName)
	case err != nil:
		l.unmake()
		return nil, usagef("render: -out %s: cannot make its lock file %s: %w", out, lockName, err)
	}
	l.l = held
	return l, nil
}

// firstMissing is the highest folder on the way to dir that does not
// exist, "" if dir exists.
func firstMissing(dir string) (string, error) {
	missing := ""
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		_, err := os.Lstat(d)
		if err == nil {
			return missing, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		missing = d
		if filepath.Dir(d) == d {
			return missing, nil
		}
	}
}

// release removes the lock file and lets the folder go, and removes the
// folders lockOut made if they are empty, so that a refused render leaves
// no trace.
func (l *outLock) release() {
	if l == nil || l.l == nil {
		return
	}
	l.l.Unlock()
	l.l = nil
	l.unmake()
}

// unmake removes the folders lockOut made that are empty, deepest first.
func (l *outLock) unmake() {
	if l.made == "" {
		return
	}
	dir := filepath.Dir(l.path)
	for {
		if os.Remove(dir) != nil || dir == l.made {
			return
		}
		dir = filepath.Dir(dir)
	}
}
