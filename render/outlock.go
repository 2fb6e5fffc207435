package render

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// One render at a time writes into an out folder: two would remove each
// other's files and interleave their markers. A render holds an exclusive
// flock(2) on lockName inside the folder from before it looks at the folder
// until it has written its last file. A second render fails at once (it
// does not wait: the first may take minutes, and a build script that ran
// two renders into one folder has a bug to hear of), naming the folder and
// the process holding it.
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
	f    *os.File
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
	for {
		f, err := os.OpenFile(l.path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
		if err != nil {
			l.unmake()
			return nil, usagef("render: -out %s: cannot make its lock file %s: %w", out, lockName, err)
		}
		if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
			f.Close()
			l.unmake()
			return nil, usagef("render: -out %s: %s is not a file render made: move it away", out, lockName)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			holder := lockHolder(f)
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, usagef("render: -out %s is being written by another fairbench render (%s): wait for it to end, or give another -out", out, holder)
			}
			l.unmake()
			return nil, fmt.Errorf("render: -out %s: lock: %w", out, err)
		}
		// The holder before us may have removed the file between our open
		// and our lock: then we hold a file nobody else sees, and try again.
		now, err := os.Lstat(l.path)
		if held, serr := f.Stat(); err == nil && serr == nil && os.SameFile(now, held) {
			f.Truncate(0)
			f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
			l.f = f
			return l, nil
		}
		f.Close()
	}
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

// lockHolder names the process whose id the lock file f holds.
func lockHolder(f *os.File) string {
	b := make([]byte, 32)
	n, _ := f.ReadAt(b, 0)
	pid, err := strconv.Atoi(string(bytes.TrimSpace(b[:n])))
	if err != nil || pid <= 0 {
		return "a process that did not say which"
	}
	return "process " + strconv.Itoa(pid)
}

// release removes the lock file and lets the folder go, and removes the
// folders lockOut made if they are empty, so that a refused render leaves
// no trace.
func (l *outLock) release() {
	if l == nil || l.f == nil {
		return
	}
	os.Remove(l.path)
	l.f.Close()
	l.f = nil
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
