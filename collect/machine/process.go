package machine

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

// Server is a running target: a process group of its own, pinned to a CPU
// set when one is given.
type Server struct {
	Target suite.Target // the target it runs (only its name on a bare Start)
	Port   int          // the port it listens on
	Cmd    *exec.Cmd    // the process here: the server, or the ssh carrying it
	// Spawned is when the process was started.
	Spawned time.Time

	output  *tailBuffer
	exited  chan struct{}
	waitErr error
	// addr is where the server is reached: loopback, or its host's address.
	addr string
	// group is its process group, here or on an SSH host (Cmd is then the
	// local ssh that carries it).
	group processGroup
}

// Pinned wraps argv with taskset when cpus is not empty.
func Pinned(cpus string, argv []string) []string {
	if cpus == "" {
		return argv
	}
	return append([]string{"taskset", "-c", cpus}, argv...)
}

// claimPort returns port when it is free, or a free port when it is 0.
func claimPort(port int) (int, error) {
	if port == 0 {
		return freePort()
	}
	return port, portFree(port)
}

// startProcess starts argv in dir with env added to fairbench's own, in a
// process group of its own that dies with fairbench, as cred's user when
// cred is not nil.
func startProcess(name string, argv []string, dir string, env []string, cred *syscall.Credential) (*Server, error) {
	cmd := Command(context.Background(), argv)
	cmd.Cancel = nil // Stop ends it
	cmd.Dir = dir
	owner := newOwner()
	cmd.Env = append(append(os.Environ(), env...), ownerVar+"="+owner)
	out := &tailBuffer{max: 8 << 10}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr.Credential = cred
	s := &Server{Target: suite.Target{Name: name}, Cmd: cmd, output: out, exited: make(chan struct{})}
	g := &localGroup{cmd: cmd, owner: owner, exited: s.exited}
	s.group = g
	s.Spawned = time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	if f := statFields(cmd.Process.Pid); len(f) > 19 {
		g.started, _ = strconv.ParseUint(f[19], 10, 64)
	}
	go func() {
		s.waitErr = cmd.Wait()
		close(s.exited)
	}()
	return s, nil
}

// Addr is the server's address: loopback, or its host's.
func (s *Server) Addr() string { return s.addr }

// Exited reports whether the server process has ended.
func (s *Server) Exited() bool {
	select {
	case <-s.exited:
		return true
	default:
		return false
	}
}

// ExitReason says why an exited server ended: its last output, or, on an
// SSH host, a lost link.
func (s *Server) ExitReason(ctx context.Context) string {
	if why := s.group.lost(ctx); why != "" {
		return why
	}
	return "its last output:\n" + s.Output()
}

// WatchPeak follows the peak resident memory of the server's process
// tree from now until the returned function is called, which returns it.
func (s *Server) WatchPeak(every time.Duration) func() int64 { return s.group.watchPeak(every) }

// Host is the name of the SSH host the server runs on, "" here.
func (s *Server) Host() string { return s.group.host() }

// Output is the last bytes the server wrote to stdout and stderr.
func (s *Server) Output() string { return s.output.String() }

// readyPoll is how often readiness is polled: startup time is known to
// within it.
const readyPoll = 2 * time.Millisecond

// WaitReady polls ready every readyPoll until it reports true, the server exits,
// or timeout passes; each poll may take up to probe. It returns the time
// from spawn to the first success.
func (s *Server) WaitReady(ctx context.Context, timeout, probe time.Duration, ready func(context.Context) bool) (time.Duration, error) {
	deadline := time.Now().Add(timeout)
	for {
		if s.Exited() {
			return 0, fmt.Errorf("%s exited before it was ready (%v); its last output:\n%s", s.Target.Name, s.waitErr, s.Output())
		}
		pctx, cancel := context.WithTimeout(ctx, probe)
		ok := ready(pctx)
		cancel()
		if ok {
			return time.Since(s.Spawned), nil
		}
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("%s not ready after %v; its last output:\n%s", s.Target.Name, timeout, s.Output())
		}
		time.Sleep(readyPoll)
	}
}

// Stop ends the server's whole process group, and what it started
// outside it: SIGTERM, then SIGKILL after grace.
func (s *Server) Stop(grace time.Duration) { s.group.stop(grace) }

// RSS is the resident set size of the server's whole process tree, in bytes.
func (s *Server) RSS() int64 { return s.group.stats().RSS }

// CPUSeconds is the user+system CPU time of the server's live process tree.
func (s *Server) CPUSeconds() float64 { return s.group.stats().CPUSeconds }

// processTree lists root and its descendants, from /proc.
func processTree(root int) []int {
	return descendantsIn(procTable(), root)
}

// statFields returns /proc/pid/stat from the state field on (field 3 is index 0).
func statFields(pid int) []string {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return nil
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(string(b[i+1:]))
}

// clockTicks is USER_HZ, 100 on every Linux this runs on.
const clockTicks = 100

func cpuOf(pid int) float64 {
	f := statFields(pid)
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseFloat(f[11], 64)
	stime, _ := strconv.ParseFloat(f[12], 64)
	return (utime + stime) / clockTicks
}

func rssOf(pid int) int64 { return statusKB(pid, "VmRSS:") << 10 }

// statusKB is the value in kB of a key ("VmRSS:") in /proc/<pid>/status,
// 0 when it cannot be read.
func statusKB(pid int, key string) int64 {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, key); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb
		}
	}
	return 0
}

// portFree checks that nothing listens on the loopback port and names the
// holder when something does.
func portFree(port int) error {
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		return fmt.Errorf("port %d is taken%s: stop it or choose another port", port, portHolder(port))
	}
	return l.Close()
}

// portHolder names the process listening on port, from `ss`, when it can.
func portHolder(port int) string {
	out, err := exec.Command("ss", "-Hltnp", "sport = :"+strconv.Itoa(port)).Output()
	if err != nil || len(bytes.TrimSpace(out)) == 0 {
		return ""
	}
	if i := bytes.Index(out, []byte("users:(")); i >= 0 {
		return " by " + strings.TrimSpace(string(out[i:]))
	}
	return ""
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// resetPeaks sets the VmHWM of each of pids back to its RSS (clear_refs
// 5): the peak starts anew. It reports false when one of them could not
// be reset.
func resetPeaks(pids []int) bool {
	for _, pid := range pids {
		if os.WriteFile(filepath.Join("/proc", strconv.Itoa(pid), "clear_refs"), []byte("5"), 0) != nil {
			return false
		}
	}
	return len(pids) > 0
}

// treePeak sums the VmHWM of pids: each process's own peak since its
// start or its last resetPeaks. Processes that ended are not counted.
func treePeak(pids []int) int64 {
	var total int64
	for _, pid := range pids {
		total += statusKB(pid, "VmHWM:") << 10
	}
	return total
}

// cpuMask is a thread's CPU affinity as sched_setaffinity takes it: one
// bit a CPU, up to 1024.
type cpuMask [16]uint64

func affinity(tid int) (cpuMask, error) {
	var m cpuMask
	if _, _, e := syscall.RawSyscall(syscall.SYS_SCHED_GETAFFINITY, uintptr(tid), unsafe.Sizeof(m), uintptr(unsafe.Pointer(&m))); e != 0 {
		return m, e
	}
	return m, nil
}

func setAffinity(tid int, m cpuMask) error {
	if _, _, e := syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, uintptr(tid), unsafe.Sizeof(m), uintptr(unsafe.Pointer(&m))); e != 0 {
		return e
	}
	return nil
}

// ownThreads lists fairbench's own threads.
func ownThreads() []int { return idsIn("/proc/self/task") }

// idsIn lists the numeric names in a /proc folder: pids, thread ids.
func idsIn(dir string) []int {
	entries, _ := os.ReadDir(dir)
	var ids []int
	for _, e := range entries {
		if id, err := strconv.Atoi(e.Name()); err == nil {
			ids = append(ids, id)
		}
	}
	return ids
}

// KeepOff moves every thread of fairbench off the CPUs in cpus (a CPU
// list) until the returned function puts them back where they were, so
// that what little fairbench does during a window (a timer, the runtime's
// own housekeeping) never takes the server's CPU. Threads started
// meanwhile inherit the mask. It does nothing when cpus is empty, cannot
// be read, or covers every CPU fairbench may use.
func KeepOff(cpus string) func() {
	set, err := runjson.ParseCPUList(cpus)
	if err != nil || len(set) == 0 {
		return func() {}
	}
	offCPUs.Lock()
	defer offCPUs.Unlock()
	was := offCPUs.was
	if offCPUs.holders == 0 {
		if was, err = affinity(0); err != nil {
			return func() {}
		}
	}
	off := was
	for _, cpu := range set {
		if cpu >= 0 && cpu < 64*len(off) {
			off[cpu/64] &^= 1 << (cpu % 64)
		}
	}
	if off == (cpuMask{}) || off == was {
		return func() {}
	}
	offCPUs.was = was
	offCPUs.holders++
	for _, tid := range ownThreads() {
		setAffinity(tid, off)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			offCPUs.Lock()
			defer offCPUs.Unlock()
			// Collects side by side in one process (tests) share the
			// mask: the last to finish its window puts it back.
			if offCPUs.holders--; offCPUs.holders == 0 {
				for _, tid := range ownThreads() {
					setAffinity(tid, offCPUs.was)
				}
			}
		})
	}
}

// offCPUs is the process's mask before the first KeepOff still in force,
// and how many windows hold one.
var offCPUs struct {
	sync.Mutex
	holders int
	was     cpuMask
}
