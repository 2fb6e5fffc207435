package machine

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

// remoteProc is a process group on an SSH host: a server, or a load tool.
// Its ssh session is its process group there (sshd starts every session in
// a new session), so the group id it reports on its first line ends the
// whole tree.
type remoteProc struct {
	ssh *SSHHost
	// cmd is the local ssh that carries the group, exited closed when it
	// has been waited for; nil for a group known only by its record.
	cmd    *exec.Cmd
	exited <-chan struct{}
	rec    runjson.Leftover // host, group, the host's boot and the leader's start
	// track is told when the group starts and when it has ended; the
	// collector keeps the ones not seen to end in run.json.
	track Tracker
	// stats are the last ones asked, reused for a moment: one question
	// answers the CPU time, the RSS and the peak of the same instant.
	mu    sync.Mutex
	last  groupStats
	asked time.Time
}

// Tracker keeps the process groups started on hosts until they end.
type Tracker interface {
	// Started is told of a group as soon as it runs.
	Started(runjson.Leftover)
	// Ended is told of a group seen to end.
	Ended(runjson.Leftover)
	// Unended is told of a group that could not be ended, and why.
	Unended(runjson.Leftover, error)
}

// pgidMark starts the first line a remote command prints: its process
// group, the host's boot_id and the group leader's start time.
const pgidMark = "fairbench-pgid "

// markLine is the shell command that prints pgidMark's line.
const markLine = "echo \"" + pgidMark + "$(cut -d' ' -f5 /proc/$$/stat) $(cat /proc/sys/kernel/random/boot_id) $(" + "awk '{ sub(/^.*\\) /, \"\"); print $20 }' /proc/$$/stat" + ")\""

// remoteScript is the shell command that runs argv in dir on a host with
// env, printing its process group first (and appending it to the file
// groups, when one is given) and then becoming argv.
func remoteScript(dir string, env []string, argv []string, groups string) string {
	var b strings.Builder
	b.WriteString("cd " + shellQuote(dir) + " && " + recordedMark(groups) + " && exec")
	if len(env) > 0 {
		b.WriteString(" env")
		for _, e := range env {
			b.WriteString(" " + shellQuote(e))
		}
	}
	for _, a := range argv {
		b.WriteString(" " + shellQuote(a))
	}
	return b.String()
}

// recordedMark is markLine, its line also appended to the file groups
// when one is given (claim.go).
func recordedMark(groups string) string {
	if groups == "" {
		return markLine
	}
	return markLine + " | tee -a " + shellQuote(groups)
}

// startRemote starts argv on h in dir with env, a process group of its
// own there, and waits for its first word.
func startRemote(h *SSHHost, name, dir string, env, argv []string, track Tracker) (*Server, error) {
	if h.lost() {
		return nil, fmt.Errorf("start %s: %w", name, h.lostError())
	}
	runEnv, groups := h.runMark()
	if runEnv != "" {
		env = append(env[:len(env):len(env)], runEnv)
	}
	cmd := h.command(context.Background(), remoteScript(dir, env, argv, groups), "-n")
	cmd.Cancel = nil
	out := &tailBuffer{max: 8 << 10}
	mark := newMarkWriter(out)
	cmd.Stdout, cmd.Stderr = mark, out
	s := &Server{Target: suite.Target{Name: name}, Cmd: cmd, output: out, exited: make(chan struct{})}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s on host %s: %w", name, h.Spec.Name, err)
	}
	go func() {
		s.waitErr = cmd.Wait()
		close(s.exited)
	}()
	rp := &remoteProc{ssh: h, track: track, cmd: cmd, exited: s.exited}
	select {
	case rp.rec = <-mark.found:
		s.Spawned = time.Now()
	case <-s.exited:
		return nil, fmt.Errorf("%s did not start on host %s (%v): %s", name, h.Spec.Name, h.failure(s.waitErr, ""), s.Output())
	case <-time.After(15 * time.Second):
		cmd.Process.Kill()
		<-s.exited
		return nil, fmt.Errorf("%s: no word from host %s in 15 s: %s", name, h.Spec.Name, s.Output())
	}
	rp.rec.Host, rp.rec.What = h.Spec.Name, name
	track.Started(rp.rec)
	s.group = rp
	return s, nil
}

// remotePort returns port when it is free on h, or a free one when it is 0,
// asking the host's own `ss`.
func remotePort(ctx context.Context, h *SSHHost, port int) (int, error) {
	candidates := []int{port}
	if port == 0 {
		candidates = candidates[:0]
		for range 10 {
			candidates = append(candidates, 20000+rand.IntN(30000))
		}
	}
	var b strings.Builder
	b.WriteString("command -v ss >/dev/null || { echo 'no ss on this host: apt-get install iproute2' >&2; exit 2; }; for p in")
	for _, p := range candidates {
		b.WriteString(" " + strconv.Itoa(p))
	}
	b.WriteString(`; do [ -z "$(ss -Hltn "sport = :$p")" ] && { echo $p; exit 0; }; done; exit 1`)
	out, err := h.Output(ctx, b.String())
	if err != nil {
		if port != 0 {
			return 0, fmt.Errorf("port %d is taken on host %s: stop what holds it or choose another port (%v)", port, h.Spec.Name, err)
		}
		return 0, fmt.Errorf("no free port found on host %s: %w", h.Spec.Name, err)
	}
	return strconv.Atoi(strings.TrimSpace(string(out)))
}

// markWriter passes everything on but the first line, which must be
// pgidMark's; what it says is sent on found.
type markWriter struct {
	next  *tailBuffer
	found chan runjson.Leftover
	mu    sync.Mutex
	line  []byte
	done  bool
}

func newMarkWriter(next *tailBuffer) *markWriter {
	return &markWriter{next: next, found: make(chan runjson.Leftover, 1)}
}

func (w *markWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return w.next.Write(p)
	}
	w.line = append(w.line, p...)
	i := bytes.IndexByte(w.line, '\n')
	if i < 0 {
		if len(w.line) > 512 {
			w.done = true
			w.next.Write(w.line)
		}
		return len(p), nil
	}
	w.done = true
	first, rest := string(w.line[:i]), w.line[i+1:]
	if v, ok := strings.CutPrefix(first, pgidMark); ok {
		if f := strings.Fields(v); len(f) == 3 {
			if pg, err := strconv.Atoi(f[0]); err == nil {
				w.found <- runjson.Leftover{Group: pg, BootID: f[1], Start: f[2]}
				w.next.Write(rest)
				return len(p), nil
			}
		}
	}
	w.next.Write(w.line)
	return len(p), nil
}

// stop ends the process group on its host: through the master connection,
// else over a fresh one; when neither reaches the host the group stays
// with the tracker, for -resume or the next connection to end.
func (rp *remoteProc) end() {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	script := killGroupScript(rp.rec.Group, rp.rec.BootID, rp.rec.Start)
	var err error
	if rp.ssh.Alive(ctx) {
		if _, err = rp.ssh.Output(ctx, script); err == nil {
			rp.track.Ended(rp.rec)
			return
		}
	}
	if _, err = rp.ssh.fresh(ctx, script); err == nil {
		rp.track.Ended(rp.rec)
		return
	}
	rp.track.Unended(rp.rec, err)
}

// EndLeftover ends the process group l on h over a fresh connection: the
// way to end what a lost link or an earlier collect left running.
func (h *SSHHost) EndLeftover(ctx context.Context, l runjson.Leftover) error {
	_, err := h.fresh(ctx, killGroupScript(l.Group, l.BootID, l.Start))
	return err
}

// groupStats is what /proc on a host says of a process group.
type groupStats struct {
	CPUSeconds float64
	RSS        int64 // resident now
	Peak       int64 // sum of each process's VmHWM: its own peak
}

// groupStatsScript prints, for process group pg: CPU seconds (user +
// system), resident bytes, and the sum of each process's VmHWM in bytes.
// With reset, each process's VmHWM is then set back to its RSS (clear_refs
// 5), so that the next peak is the next window's own.
func groupStatsScript(pg int, reset bool) string {
	r := "0"
	if reset {
		r = "1"
	}
	return `cat /proc/[0-9]*/stat 2>/dev/null | awk -v pg=` + strconv.Itoa(pg) + ` -v reset=` + r + ` -v ps="$(getconf PAGESIZE)" -v hz="$(getconf CLK_TCK)" '
{ l = $0; sub(/^.*\) /, "", l); split(l, f, " ")
  if (f[3] == pg) {
    t += f[12] + f[13]; r += f[22]; file = "/proc/" $1 "/status"
    while ((getline s < file) > 0) if (s ~ /^VmHWM:/) { split(s, v, " "); h += v[2] }
    close(file)
    if (reset) system("echo 5 > /proc/" $1 "/clear_refs 2>/dev/null")
  } }
END { printf "%.2f %.0f %.0f\n", t / hz, r * ps, h * 1024 }'`
}

// stats asks the host about the group, or reuses what it said in the last
// quarter second.
func (rp *remoteProc) stats() groupStats {
	return rp.ask(false)
}

// resetPeak asks the stats and starts a new peak.
func (rp *remoteProc) resetPeak() groupStats {
	return rp.ask(true)
}

func (rp *remoteProc) ask(reset bool) groupStats {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	if !reset && time.Since(rp.asked) < 250*time.Millisecond {
		return rp.last
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := rp.ssh.Output(ctx, groupStatsScript(rp.rec.Group, reset))
	if err != nil {
		return groupStats{}
	}
	var g groupStats
	if _, err := fmt.Sscan(string(out), &g.CPUSeconds, &g.RSS, &g.Peak); err != nil {
		return groupStats{}
	}
	rp.last, rp.asked = g, time.Now()
	return g
}
