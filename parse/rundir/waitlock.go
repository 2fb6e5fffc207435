package rundir

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"time"
)

// lockPoll is how often WaitLock tries a held lock again.
var lockPoll = 100 * time.Millisecond

// WaitLock takes the lock file at path as TryLock does, but waits while
// another process holds it: waiting is told the holder when the wait
// begins, whenever the holder changes, and every remind after that,
// with how long this process has waited. It ends with ctx's error when
// ctx ends first (Ctrl-C), holding nothing. The lock file's folder is made
// if missing.
func WaitLock(ctx context.Context, path, note string, remind time.Duration, waiting func(h Holder, waited time.Duration)) (*Lock, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	start := time.Now()
	var last Holder
	var told time.Time
	for {
		l, _, err := TryLock(path, note)
		var held *HeldError
		if !errors.As(err, &held) {
			return l, err
		}
		if h := held.Holder; h.PID != last.PID || !h.Since.Equal(last.Since) || time.Since(told) >= remind {
			waiting(h, time.Since(start))
			last, told = h, time.Now()
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(lockPoll):
		}
	}
}

// HostLockPath is the lock file that makes the collects of one host take
// turns: $FAIRBENCH_HOST_LOCK when set, else collect.lock in fairbench's
// folder of the user's cache. "" (no lock) when the variable is "off" or
// no cache folder is known.
func HostLockPath() string {
	switch p := os.Getenv("FAIRBENCH_HOST_LOCK"); p {
	case "off":
		return ""
	case "":
	default:
		return p
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "fairbench", "collect.lock")
}
