package sshlab

// Finding the lab's processes in /proc: what an sshd forked (its per-
// connection processes each lead a session of their own, so its process
// group does not hold them), and what carries the lab's marker in its
// environment (the sessions, and what they left running).

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// proc is one process as /proc tells it.
type proc struct {
	pid, ppid int
	comm      string
}

// procs lists the processes visible in /proc.
func procs() []proc {
	entries, _ := os.ReadDir("/proc")
	var ps []proc
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may hold spaces and parentheses.
		open, close := bytes.IndexByte(stat, '('), bytes.LastIndexByte(stat, ')')
		if open < 0 || close < open {
			continue
		}
		f := strings.Fields(string(stat[close+1:]))
		if len(f) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		ps = append(ps, proc{pid: pid, ppid: ppid, comm: string(stat[open+1 : close])})
	}
	return ps
}

// descendants are the processes below pid, children first.
func descendants(ps []proc, pid int) []proc {
	children := map[int][]proc{}
	for _, p := range ps {
		children[p.ppid] = append(children[p.ppid], p)
	}
	var out []proc
	queue := []int{pid}
	for len(queue) > 0 {
		for _, c := range children[queue[0]] {
			out = append(out, c)
			queue = append(queue, c.pid)
		}
		queue = queue[1:]
	}
	return out
}

// marked are the processes whose environment holds a variable that begins
// with prefix. Processes of other users, unreadable, are left out.
func marked(ps []proc, prefix string) []int {
	var pids []int
	for _, p := range ps {
		env, err := os.ReadFile("/proc/" + strconv.Itoa(p.pid) + "/environ")
		if err != nil {
			continue
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			if bytes.HasPrefix(kv, []byte(prefix)) {
				pids = append(pids, p.pid)
				break
			}
		}
	}
	return pids
}

// signal sends sig to each of pids.
func signal(pids []int, sig syscall.Signal) {
	for _, pid := range pids {
		syscall.Kill(pid, sig)
	}
}
