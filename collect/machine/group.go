package machine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// processGroup is a started process and the group it leads, here
// (localGroup) or on an SSH host (remoteProc): all a Server asks of it.
type processGroup interface {
	// stats is the group's CPU time and resident memory now.
	stats() groupStats
	// watchPeak follows the group's peak resident memory from now until
	// the returned function is called, which returns it.
	watchPeak(every time.Duration) func() int64
	// stop ends the group, and what it started outside it: SIGTERM, then
	// SIGKILL after grace.
	stop(grace time.Duration)
	// lost says why the group is out of reach (a lost link), or "".
	lost(ctx context.Context) string
	// host is the name of the SSH host it runs on, "" here.
	host() string
}

// localGroup is a process group on this machine.
type localGroup struct {
	cmd *exec.Cmd
	// owner is the FAIRBENCH_OWNER value in the process's environment,
	// which its children inherit: stop ends every process that carries it.
	owner  string
	exited <-chan struct{}
	// started is the leader's start time in clock ticks since boot.
	started uint64

	// pids is the process tree as last listed, at listed (tree).
	mu     sync.Mutex
	pids   []int
	listed time.Time
}

// treeFresh is how long a listing of a group's process tree serves: the
// reads before a window (CPU time, the peak's reset) share one listing of
// /proc, and those after it another, instead of one each.
const treeFresh = 100 * time.Millisecond

// tree lists the group's process tree, or returns the listing of the last
// treeFresh.
func (g *localGroup) tree() []int {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.pids == nil || time.Since(g.listed) > treeFresh {
		g.pids, g.listed = processTree(g.leader()), time.Now()
	}
	return g.pids
}

func (g *localGroup) host() string                { return "" }
func (g *localGroup) lost(context.Context) string { return "" }
func (g *localGroup) leader() int                 { return g.cmd.Process.Pid }

func (g *localGroup) stats() groupStats {
	var st groupStats
	for _, pid := range g.tree() {
		st.CPUSeconds += cpuOf(pid)
		st.RSS += rssOf(pid)
	}
	return st
}

func (g *localGroup) stop(grace time.Duration) {
	pgid := g.leader()
	// Children that left the group (setsid, setpgid) are found while the
	// leader still holds them as descendants; later, by their session and
	// by the owner mark they inherited.
	strays := g.strays(nil)
	syscall.Kill(-pgid, syscall.SIGTERM)
	for _, p := range strays.pids {
		syscall.Kill(p, syscall.SIGTERM)
	}
	select {
	case <-g.exited:
	case <-time.After(grace):
	}
	// The group may hold children that outlive the leader.
	syscall.Kill(-pgid, syscall.SIGKILL)
	for _, p := range g.strays(strays.sessions).pids {
		syscall.Kill(p, syscall.SIGKILL)
	}
	<-g.exited
}

// watchPeak follows the tree's peak the way the kernel keeps it, as on an
// SSH host: each process's VmHWM is set back to its RSS now (resetPeaks)
// and their sum read when the window ends, so that fairbench does nothing
// during the window. Where a process's peak cannot be reset (another
// user's), the tree's RSS is sampled every interval instead
// (samplePeak).
func (g *localGroup) watchPeak(interval time.Duration) func() int64 {
	if resetPeaks(g.tree()) {
		return func() int64 { return treePeak(g.tree()) }
	}
	return g.samplePeak(interval)
}

// samplePeak samples the RSS of the process tree every interval; the tree
// is listed anew every second.
func (g *localGroup) samplePeak(interval time.Duration) func() int64 {
	stop, done := make(chan struct{}), make(chan int64)
	go func() {
		tree := processTree(g.leader())
		listed := time.Now()
		peak := treeRSS(tree)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-stop:
				done <- max(peak, treeRSS(tree))
				return
			case <-t.C:
				if time.Since(listed) > time.Second {
					tree, listed = processTree(g.leader()), time.Now()
				}
				peak = max(peak, treeRSS(tree))
			}
		}
	}()
	return func() int64 {
		close(stop)
		return <-done
	}
}

// On an SSH host the peak is the kernel's own: each process's VmHWM is
// reset when the window starts and their sum read when it ends.
func (rp *remoteProc) watchPeak(time.Duration) func() int64 {
	rp.resetPeak()
	return func() int64 { return rp.stats().Peak }
}

func (rp *remoteProc) host() string { return rp.ssh.Spec.Name }

func (rp *remoteProc) lost(ctx context.Context) string {
	if rp.ssh.Alive(ctx) {
		return ""
	}
	return fmt.Sprintf("the link to host %s was lost (the process may still run there: it is ended when the host is reached again)", rp.ssh.Spec.Name)
}

// stop ends the group on its host, then the local ssh that carried it, if
// the link left it waiting.
func (rp *remoteProc) stop(time.Duration) {
	rp.end()
	if rp.cmd != nil {
		rp.cmd.Process.Kill()
		<-rp.exited
	}
}

// treeRSS sums the resident pages of pids, from /proc/<pid>/statm (cheaper
// to read than status).
func treeRSS(pids []int) int64 {
	var total int64
	page := int64(os.Getpagesize())
	for _, pid := range pids {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
		if err != nil {
			continue
		}
		f := bytes.Fields(b)
		if len(f) < 2 {
			continue
		}
		pages, _ := strconv.ParseInt(string(f[1]), 10, 64)
		total += pages * page
	}
	return total
}
