package sshlab

import (
	"fmt"
	"syscall"
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
