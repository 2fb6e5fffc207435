//go:build unix

package parse

import (
	"syscall"
	"time"
)

// cpuTime is the user and system CPU time this process has used, so that
// benchmarks on a shared machine can report a ratio that other processes
// disturb less than wall time.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
