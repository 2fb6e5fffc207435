package machine

import (
	"bytes"
	"os"
	"strconv"
	"sync/atomic"
)

// A target may start processes that leave its process group: a daemon
// that calls setsid, `sh -c "setsid sleep 40 & exec ./server"`. Stop ends
// them too, found three ways: below the leader in the process tree while
// it lives, in a session one of them leads, and by ownerVar, which every
// process fairbench starts carries in its environment and hands down to
// whatever it starts.

// ownerVar is the environment variable that marks a server's or service's
// processes with the Server they belong to.
const ownerVar = "FAIRBENCH_OWNER"

var owners atomic.Int64

// newOwner is an ownerVar value unique on the machine while fairbench runs.
func newOwner() string {
	return strconv.Itoa(os.Getpid()) + "." + strconv.FormatInt(owners.Add(1), 10)
}

// procEntry is one process as /proc/<pid>/stat tells it; start is its
// start time in clock ticks since boot.
type procEntry struct {
	ppid, pgid, sid int
	start           uint64
}

// procTable lists every process visible in /proc.
func procTable() map[int]procEntry {
	entries, _ := os.ReadDir("/proc")
	table := make(map[int]procEntry, len(entries))
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if f := statFields(pid); len(f) > 19 {
			ppid, _ := strconv.Atoi(f[1])
			pgid, _ := strconv.Atoi(f[2])
			sid, _ := strconv.Atoi(f[3])
			start, _ := strconv.ParseUint(f[19], 10, 64)
			table[pid] = procEntry{ppid: ppid, pgid: pgid, sid: sid, start: start}
		}
	}
	return table
}

// descendantsIn lists root and every process below it in table.
func descendantsIn(table map[int]procEntry, root int) []int {
	children := map[int][]int{}
	for pid, p := range table {
		children[p.ppid] = append(children[p.ppid], pid)
	}
	tree := []int{root}
	for i := 0; i < len(tree); i++ {
		tree = append(tree, children[tree[i]]...)
	}
	return tree
}

// strayList is what strays found: the processes, and the sessions they
// lead or belong to (other than fairbench's own).
type strayList struct {
	pids     []int
	sessions map[int]bool
}

// strays lists the processes of g that its process group does not hold
// (and those it does, which are signalled with it anyway): its
// descendants, the members of their sessions and of the sessions given,
// and every process carrying its owner mark (only a process started after
// the leader can: the environments of older ones are not read). fairbench's
// own session and process are never among them.
func (g *localGroup) strays(sessions map[int]bool) strayList {
	self := os.Getpid()
	table := procTable()
	own := table[self].sid
	out := strayList{sessions: map[int]bool{}}
	for sid := range sessions {
		out.sessions[sid] = true
	}
	tree := map[int]bool{}
	for _, pid := range descendantsIn(table, g.leader()) {
		tree[pid] = true
		if sid := table[pid].sid; sid != own && sid != 0 {
			out.sessions[sid] = true
		}
	}
	mark := []byte(ownerVar + "=" + g.owner + "\x00")
	for pid, p := range table {
		if pid != self && (tree[pid] || out.sessions[p.sid] || p.start >= g.started && g.marked(pid, mark)) {
			out.pids = append(out.pids, pid)
		}
	}
	return out
}

// marked reports whether process pid carries mark in its environment.
func (g *localGroup) marked(pid int, mark []byte) bool {
	if g.owner == "" {
		return false
	}
	env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	return err == nil && (bytes.HasPrefix(env, mark) || bytes.Contains(env, append([]byte{0}, mark...)))
}
