package sshlab

import (
	"fmt"
	"net"
	"strconv"
	"syscall"
	"time"
)

// Drop cuts the named host off, as a pulled cable or a dead route would.
//
// In a namespace the host's port on the lab bridge goes down: the host keeps
// its address and its processes run on, but no packet gets to or from it;
// a connect times out, an open connection stalls until Restore or until a
// keep-alive gives up. On loopback there is no link to cut (and no
// firewall to use), so the host's sshd and its per-connection processes
// are stopped (SIGSTOP): the commands run by its sessions go on, ssh
// sessions stall, and a new ssh times out in the banner exchange; but a
// plain TCP connect still succeeds (the kernel accepts into the backlog),
// and other listeners on the host stay reachable.
func (l *Lab) Drop(name string) {
	l.t.Helper()
	if err := l.setDropped(l.host(name), true); err != nil {
		l.t.Fatalf("sshlab: drop %s: %v", name, err)
	}
}

// Restore mends what Drop cut.
func (l *Lab) Restore(name string) {
	l.t.Helper()
	if err := l.setDropped(l.host(name), false); err != nil {
		l.t.Fatalf("sshlab: restore %s: %v", name, err)
	}
}

func (l *Lab) setDropped(h *host, drop bool) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if h.dropped == drop {
		return nil
	}
	if l.net != nil {
		state := "up"
		if drop {
			state = "down"
		}
		if err := l.net.setLink(h, state); err != nil {
			return err
		}
		if !drop {
			return l.reachable(h)
		}
	} else {
		if h.sshd == nil {
			return fmt.Errorf("no sshd")
		}
		sig := syscall.SIGCONT
		if drop {
			sig = syscall.SIGSTOP
		}
		signal(sshdPIDs(h.sshd), sig)
	}
	h.dropped = drop
	return nil
}

// reachable waits, 5 s at most, until a TCP connect to h's sshd works, and
// marks h restored. A port that comes back up does not pass packets at
// once (the carrier and the neighbour entries take a moment), and
// Restore promises a host in reach.
func (l *Lab) reachable(h *host) error {
	addr := net.JoinHostPort(h.Addr, strconv.Itoa(h.Port))
	deadline := time.Now().Add(5 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, 250*time.Millisecond)
		if err == nil {
			c.Close()
			h.dropped = false
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s is not in reach 5 s after its link came back up: %w", addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// sshdPIDs are the sshd process and the sshd processes below it, one or two
// per connection; not the commands its sessions run.
func sshdPIDs(s *sshd) []int {
	pids := []int{s.cmd.Process.Pid}
	for _, p := range descendants(procs(), s.cmd.Process.Pid) {
		if p.comm == "sshd" {
			pids = append(pids, p.pid)
		}
	}
	return pids
}
