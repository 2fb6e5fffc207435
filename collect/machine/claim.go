package machine

// A collect's folder of {bin}s on an SSH host, bin/<name>/, and the
// processes it starts there are that collect's while it lives and nobody's
// once it is gone: a collect killed with SIGKILL and never resumed cannot
// remove them itself, and ssh does not end what a closed session started
// (no terminal, no SIGHUP). So each collect marks what it owns on a host,
// and the next one to use the host removes what a dead one left.
//
// Ownership is a flock(2) on bin/<name>.owner held on the host by a shell
// that lives exactly as long as the collect's ssh session: it waits on
// `cat` reading the session's stdin, a pipe only the collect writes. When
// the collect dies, however it dies, its ssh client goes, sshd closes the
// session, cat reads EOF, the shell exits and the kernel drops the lock. A
// lock that can be taken is a dead owner's; one that cannot is a live
// collect's (or another reaper's that moment), and is left alone. A link
// cut without either end noticing keeps the lock held: the folder is then
// kept, never removed under a collect that may still live.
//
// What a collect starts on a host (servers, services, load tools) is marked
// twice: each process group's id, the host's boot id and the leader's start
// time are appended to bin/<name>.groups as it starts, and each carries
// FAIRBENCH_RUN=<name> in its environment, which it hands down to whatever
// it starts (a child that left the group with setsid included). A reaper
// ends the groups whose boot id and start time still match and the
// processes whose environment holds the mark: by process id, never by name.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/fairbench/fairbench/parse/runjson"
)

// runVar is the environment variable that marks every process a collect
// starts on a host with the name of its folder there.
const runVar = "FAIRBENCH_RUN"

// hostClaim is a collect's hold on its folder of a host.
type hostClaim struct {
	name  string // bin/<name>
	owner string // what bin/<name>.owner says of the collect, for others' messages
	// holder is the ssh session holding the lock; closing stdin ends it.
	holder *exec.Cmd
	stdin  io.WriteCloser
	ended  chan struct{}
	rec    runjson.Leftover // the holder's process group on the host
}

// Reaped is what a dead collect left on a host and Claim removed.
type Reaped struct {
	Folder string // bin/<name>, in the host's work folder
	Owner  string // what the dead collect wrote of itself
	// Ended are the process groups (-<pgid>) and processes (<pid>) ended.
	Ended []string
}

// ClaimReport is what Claim found on the host.
type ClaimReport struct {
	// Reaped are the dead collects' folders removed, with what ran from them.
	Reaped []Reaped
	// Earlier are the processes an earlier session of this same run (a
	// -resume's) left running, ended; its folder is kept.
	Earlier []string
	// Unowned are folders in bin/ with no owner record (written by a
	// fairbench before owners were recorded): left alone.
	Unowned []string
	// NoLock: the host has no flock(1) (util-linux): nothing is claimed,
	// and what a dead collect leaves there is not found.
	NoLock bool
}

// Claim takes bin/<name>/ in h's work folder for this collect, owner
// saying who it is, then ends and removes what dead collects left in bin/.
// An earlier session of the same name (a resumed run) keeps its folder,
// but what it left running is ended. A name a live collect holds is an
// error. Release gives the folder up.
func (h *SSHHost) Claim(ctx context.Context, name, owner string) (ClaimReport, error) {
	var rep ClaimReport
	if name == "" || name[0] == '.' || strings.IndexFunc(name, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.", r))
	}) >= 0 {
		return rep, fmt.Errorf("host %s: %q cannot name a folder in bin/", h.Spec.Name, name)
	}
	h.claim = &hostClaim{name: name, owner: owner}
	if err := h.hold(ctx); err != nil {
		h.claim = nil // not ours: Release must not remove it
		if errors.Is(err, errNoFlock) {
			return ClaimReport{NoLock: true}, nil
		}
		return rep, err
	}
	out, err := h.Output(ctx, reapScript(h.Path("bin"), name))
	if err != nil {
		return rep, fmt.Errorf("host %s: look for what dead collects left in %s: %w", h.Spec.Name, h.Path("bin"), err)
	}
	for _, l := range strings.Split(string(out), "\n") {
		kind, rest, _ := strings.Cut(l, " ")
		f := strings.Split(rest, "\t")
		switch {
		case kind == "fairbench-reaped" && len(f) == 3:
			rep.Reaped = append(rep.Reaped, Reaped{Folder: h.Path("bin/" + f[0]), Owner: f[1], Ended: strings.Fields(f[2])})
		case kind == "fairbench-earlier":
			rep.Earlier = strings.Fields(rest)
		case kind == "fairbench-unowned":
			rep.Unowned = append(rep.Unowned, h.Path("bin/"+rest))
		}
	}
	return rep, nil
}

// errNoFlock: the host cannot hold a claim.
var errNoFlock = errors.New("no flock on the host")

// holdScript takes the lock on bin/<name>.owner, writes owner into it,
// makes bin/<name>/, says so, and keeps the lock until its stdin ends. It
// first prints pgidMark's line, so that a holder left behind by a cut link
// can be ended. A lock file removed between its open and its lock (by a
// reaper) is opened again.
func holdScript(bin, name, owner string) string {
	n := shellQuote(name)
	return "command -v flock >/dev/null || { echo fairbench-noflock; exit 0; }; mkdir -p " + shellQuote(bin) + " && cd " + shellQuote(bin) + " || exit 1; " +
		markLine + "; while :; do exec 9>>" + n + ".owner || exit 1; " +
		"flock -w 10 9 || { echo \"fairbench-busy $(head -c 300 " + n + ".owner | tr -d '\\n')\"; exit 75; }; " +
		sameLocked(n+".owner") + " && break; exec 9>&-; done; " +
		"printf '%s\\n' " + shellQuote(owner) + " >" + n + ".owner && mkdir -p " + n + " && echo fairbench-claimed && cat >/dev/null"
}

// sameLocked is a test that fd 9 of the shell is the file now at path.
func sameLocked(path string) string {
	return "[ \"$(stat -L -c %d:%i /proc/$$/fd/9)\" = \"$(stat -c %d:%i " + path + " 2>/dev/null)\" ]"
}

// hold starts the claim's holder session and waits until it holds the lock.
func (h *SSHHost) hold(ctx context.Context) error {
	c := h.claim
	if h.lost() {
		return h.lostError()
	}
	cmd := h.command(context.Background(), holdScript(h.Path("bin"), c.name, c.owner))
	cmd.Cancel = nil
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	defer r.Close()
	stderr := &tailBuffer{max: 4 << 10}
	cmd.Stdout, cmd.Stderr = w, stderr
	err = cmd.Start()
	w.Close()
	if err != nil {
		return fmt.Errorf("host %s: claim %s: %w", h.Spec.Name, h.Path("bin/"+c.name), err)
	}
	c.holder, c.stdin, c.ended = cmd, stdin, make(chan struct{})
	go func() { cmd.Wait(); close(c.ended) }()
	said := make(chan string, 4)
	go func() {
		defer close(said)
		for s := bufio.NewScanner(r); s.Scan(); {
			said <- s.Text()
		}
	}()
	timeout := time.After(45 * time.Second)
	for {
		select {
		case l, ok := <-said:
			switch {
			case !ok:
				h.unhold()
				return fmt.Errorf("host %s: claim %s: the session ended: %s", h.Spec.Name, h.Path("bin/"+c.name), strings.TrimSpace(stderr.String()))
			case l == "fairbench-noflock":
				h.unhold()
				return errNoFlock
			case l == "fairbench-claimed":
				go func() { // the rest, unread, must not block the holder
					for range said {
					}
				}()
				return nil
			case strings.HasPrefix(l, "fairbench-busy"):
				h.unhold()
				if strings.TrimSpace(strings.TrimPrefix(l, "fairbench-busy")) == c.owner {
					// Two host entries, one host and work folder: this
					// collect holds it already through the other.
					return nil
				}
				return fmt.Errorf("host %s: %s is held by a collect that still runs (%s): a run is collected by one collect at a time; wait for it, or stop it and -resume", h.Spec.Name, h.Path("bin/"+c.name), strings.TrimSpace(strings.TrimPrefix(l, "fairbench-busy")))
			case strings.HasPrefix(l, pgidMark):
				if f := strings.Fields(strings.TrimPrefix(l, pgidMark)); len(f) == 3 {
					pg, _ := strconv.Atoi(f[0])
					c.rec = runjson.Leftover{Host: h.Spec.Name, What: "claim of " + c.name, Group: pg, BootID: f[1], Start: f[2]}
				}
			}
		case <-timeout:
			h.unhold()
			return fmt.Errorf("host %s: claim %s: no answer in 45 s", h.Spec.Name, h.Path("bin/"+c.name))
		case <-ctx.Done():
			h.unhold()
			return ctx.Err()
		}
	}
}

// unhold ends the holder session, which lets the lock go: its stdin
// closed, the shell ends; a session that does not is killed here.
func (h *SSHHost) unhold() {
	c := h.claim
	if c == nil || c.holder == nil {
		return
	}
	c.stdin.Close()
	awaitOrKill(c.ended, c.holder.Process.Pid, 5*time.Second)
	c.holder = nil
}

// awaitOrKill waits up to grace for ended to close, then kills the local
// process group pg and waits for it.
func awaitOrKill(ended <-chan struct{}, pg int, grace time.Duration) {
	select {
	case <-ended:
	case <-time.After(grace):
		syscall.Kill(-pg, syscall.SIGKILL)
		<-ended
	}
}

// reclaim holds the claim again over a new master connection: the old
// holder, if a cut link left it running on the host, is ended first.
func (h *SSHHost) reclaim(ctx context.Context) error {
	if h.claim == nil {
		return nil
	}
	h.unhold()
	if g := h.claim.rec; g.Group > 0 {
		h.Output(ctx, killGroupScript(g.Group, g.BootID, g.Start))
	}
	return h.hold(ctx)
}

// Release ends what still carries the claim's mark on h, removes
// bin/<name>/ and its records, the lock file while it is still held, and
// lets the lock go. It is called once the collect has stopped everything
// it started there: what is still running then left its process group (a
// daemon, a child started with setsid), and is ended; its ids are
// returned (as Reaped.Ended).
func (h *SSHHost) Release(ctx context.Context) []string {
	c := h.claim
	if c == nil {
		return nil
	}
	n := shellQuote(c.name)
	out, _ := h.Output(ctx, "cd "+shellQuote(h.Path("bin"))+" || exit 0; boot=$(cat /proc/sys/kernel/random/boot_id); "+endRunFunc+
		"end_run "+n+"; rm -rf ./"+n+" ./"+n+".groups && rm -f ./"+n+".owner")
	h.unhold()
	h.claim = nil
	return strings.Fields(string(out))
}

// reapScript ends and removes what dead collects left in bin: every
// <name>.owner whose lock can be taken (checked to be the file still
// there) is a dead collect's, and goes with bin/<name>/ and what its
// records name. own, this collect's name, is not taken; what an earlier
// session of it left running is ended. Folders with no owner record are
// listed.
func reapScript(bin, own string) string {
	o := shellQuote(own)
	return "cd " + shellQuote(bin) + " 2>/dev/null || exit 0; boot=$(cat /proc/sys/kernel/random/boot_id); " +
		endRunFunc +
		"for o in *.owner; do [ -f \"$o\" ] || continue; n=${o%.owner}; [ \"$n\" = " + o + " ] && continue; " +
		"{ flock -n 9 || continue; " + sameLocked("\"$o\"") + " || continue; " +
		"ended=$(end_run \"$n\"); printf 'fairbench-reaped %s\\t%s\\t%s\\n' \"$n\" \"$(head -c 300 \"$o\" | tr -d '\\n\\t')\" \"$ended\"; " +
		"rm -rf \"./$n\" \"./$n.groups\" && rm -f \"./$o\"; } 9<\"$o\"; done; " +
		"if [ -s " + o + ".groups ]; then echo \"fairbench-earlier $(end_run " + o + ")\"; : >" + o + ".groups; fi; " +
		"for d in */; do n=${d%/}; [ -d \"$n\" ] && [ ! -e \"$n.owner\" ] && echo \"fairbench-unowned $n\"; done; true"
}

// endRunFunc defines end_run NAME: it ends the process groups NAME.groups
// records whose boot id and leader start time still match, and every
// process with runVar=NAME in its environment, TERM first and KILL after
// two seconds, and prints what it ended.
const endRunFunc = `end_run() {
  ps=""
  if [ -f "$1.groups" ]; then
    while read -r _ pg b st; do
      case $pg in ''|*[!0-9]*) continue;; esac
      [ "$b" = "$boot" ] && [ "$(` + "awk '{ sub(/^.*\\) /, \"\"); print $20 }' /proc/$pg/stat 2>/dev/null" + `)" = "$st" ] && ps="$ps -$pg"
    done <"$1.groups"
  fi
  for e in $(grep -lzxF "` + runVar + `=$1" /proc/[0-9]*/environ 2>/dev/null); do
    p=${e#/proc/}; p=${p%/environ}
    [ "$p" = "$$" ] || ps="$ps $p"
  done
  [ -n "$ps" ] || return 0
  kill -TERM $ps 2>/dev/null
  i=0
  while [ $i -lt 20 ]; do
    a=""; for p in $ps; do kill -0 $p 2>/dev/null && a=1; done
    [ -n "$a" ] || break
    sleep 0.1; i=$((i+1))
  done
  kill -KILL $ps 2>/dev/null
  echo $ps
}
`

// runMark is the environment entry and the record file every process
// group started on h carries and is written to, empty when h is not
// claimed.
func (h *SSHHost) runMark() (env, groups string) {
	if h.claim == nil {
		return "", ""
	}
	return runVar + "=" + h.claim.name, h.Path("bin/" + h.claim.name + ".groups")
}
