package sshlab

import (
	"os"
	"strconv"
	"syscall"
)

// close removes the lab: it stops every sshd, kills what runs in the lab's
// namespaces, below its sshd processes or with its marker, and deletes the
// namespaces and links. It runs as a t.Cleanup, also after a failure or a
// panic, and also for a lab half built.
func (l *Lab) close() {
	if l.t.Failed() {
		for _, h := range l.hosts {
			if h.sshd != nil {
				l.t.Logf("sshlab: host %s: sshd log:\n%s", h.Name, tail(h.Log))
			}
		}
	}
	ps := procs()
	var kill []int
	for _, h := range l.hosts {
		if h.sshd != nil {
			for _, p := range descendants(ps, h.sshd.cmd.Process.Pid) {
				kill = append(kill, p.pid)
			}
			h.sshd.stop()
		}
		if h.NetNS != "" {
			pids, err := netnsPIDs(h.NetNS)
			if err != nil {
				l.t.Errorf("sshlab: %v", err)
			}
			kill = append(kill, pids...)
		}
	}
	kill = append(kill, marked(procs(), markerVar+"="+l.id+"/")...)
	self := os.Getpid()
	for _, pid := range kill {
		if pid != self {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	if l.net != nil {
		for _, err := range l.net.delete() {
			l.t.Errorf("sshlab: %v", err)
		}
	}
}

// String names the lab, for messages.
func (l *Lab) String() string {
	mode := "loopback"
	if l.Namespaced {
		mode = "netns " + l.net.subnet.String()
	}
	s := "sshlab " + l.id + " (" + mode + "):"
	for _, h := range l.hosts {
		s += " " + h.Name + " " + h.Addr + ":" + strconv.Itoa(h.Port)
	}
	return s
}
