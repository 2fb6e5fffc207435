package machine

// Remote hosts are reached with the system OpenSSH client, not with
// golang.org/x/crypto/ssh. A lab's hosts are set up for ssh already: keys
// in an agent, ProxyJump through a bastion, host keys in known_hosts,
// per-host options in ~/.ssh/config. Calling ssh takes all of that as it
// is, where a library would need each of it built again; rsync copies the
// targets over the same connection; and what fairbench runs on a host is
// exactly what a person could run by hand with the argv run.json records.
// One master connection per host (ControlMaster) carries every command, so
// a command costs a channel, not a handshake. Keep-alives (every 2 s, three
// missed) turn a dropped link into an ssh exit status of 255 within seconds.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/rundir"
	"github.com/fairbench/fairbench/parse/runjson"
)

// sshLost is ssh's exit status when the connection itself failed.
const sshLost = 255

// SSHHost is one host of the suite and its master connection.
type SSHHost struct {
	Spec   suite.HostEntry // the host's entry in the hosts file
	ctl    string          // the master's control socket
	master *exec.Cmd
	ended  chan struct{} // closed when master has been waited for
	// dir is the host's work folder, absolute, as the host resolved it.
	dir  string
	arch string // uname -m
	root bool   // the login is root: a service's user is taken with runuser
	// Facts is what the host said of itself, set once it is connected.
	Facts runjson.Facts
	// Tools are the tools and runtimes found on it.
	Tools map[string]runjson.Version
	// addr is where the client host reaches targets on this host, and the
	// address they listen on ($HOST): an IP address where one is known.
	addr string
	// Track keeps the process groups started here until they end.
	Track Tracker
	// claim is the collect's hold on its folder here (claim.go).
	claim *hostClaim
}

// NewSSHHost prepares h; Connect opens its master connection. The control
// socket lives in scratch, which must be a short path (sockets are limited
// to about 100 bytes).
func NewSSHHost(h suite.HostEntry, scratch string) *SSHHost {
	return &SSHHost{Spec: h, ctl: filepath.Join(scratch, "ssh-"+h.Name)}
}

// Destination is the host as ssh is given it, with the port when set.
func (h *SSHHost) Destination() string {
	if h.Spec.Port != 0 {
		return h.Spec.SSH + ":" + strconv.Itoa(h.Spec.Port)
	}
	return h.Spec.SSH
}

// Address is where the client host reaches targets on h, and what they
// listen on: the host's address key, else the address ssh connects to (an
// alias in the ssh config resolved by `ssh -G`, a name looked up here).
func (h *SSHHost) Address() string {
	if h.addr != "" {
		return h.addr
	}
	if h.Spec.Address != "" {
		return h.Spec.Address
	}
	addr := h.Spec.SSH
	if i := strings.LastIndexByte(addr, '@'); i >= 0 {
		addr = addr[i+1:]
	}
	return strings.TrimSuffix(strings.TrimPrefix(addr, "["), "]")
}

// resolveAddress settles address once: a name becomes the IP address it
// has here, so that a target does not listen on what the host calls
// itself (Debian maps its own name to 127.0.1.1).
func (h *SSHHost) resolveAddress(ctx context.Context) {
	addr := h.Address()
	if h.Spec.Address == "" {
		a := append([]string{"ssh", "-G"}, h.options()...)
		if out, err := exec.CommandContext(ctx, a[0], append(a[1:], h.Spec.SSH)...).Output(); err == nil {
			for _, l := range strings.Split(string(out), "\n") {
				if v, ok := strings.CutPrefix(l, "hostname "); ok {
					addr = strings.TrimSpace(v)
				}
			}
		}
	}
	if net.ParseIP(addr) == nil {
		if ips, err := net.DefaultResolver.LookupIP(ctx, "ip", addr); err == nil && len(ips) > 0 {
			addr = ips[0].String()
			for _, ip := range ips {
				if ip.To4() != nil {
					addr = ip.String()
					break
				}
			}
		}
	}
	h.addr = addr
}

// options are the ssh options every connection to h takes.
func (h *SSHHost) options() []string {
	o := []string{"-o", "BatchMode=yes", "-o", "ServerAliveInterval=2", "-o", "ServerAliveCountMax=3", "-o", "ConnectTimeout=10"}
	if h.Spec.Config != "" {
		o = append(o, "-F", h.Spec.Config)
	}
	if h.Spec.Port != 0 {
		o = append(o, "-p", strconv.Itoa(h.Spec.Port))
	}
	if h.Spec.Identity != "" {
		o = append(o, "-i", h.Spec.Identity, "-o", "IdentitiesOnly=yes")
	}
	if h.Spec.KnownHosts != "" {
		o = append(o, "-o", "UserKnownHostsFile="+h.Spec.KnownHosts, "-o", "StrictHostKeyChecking=yes")
	}
	return o
}

// argv is the ssh command line that runs script on h through the master
// connection; extra options go before the destination.
func (h *SSHHost) argv(script string, extra ...string) []string {
	a := append([]string{"ssh", "-S", h.ctl, "-o", "ControlMaster=no"}, h.options()...)
	a = append(a, extra...)
	return append(a, h.Spec.SSH, "--", posix(script))
}

// posix makes script the same on every host: whatever the login shell
// (bash, dash, zsh, fish), it runs under /bin/sh, and in the C locale, so
// that numbers are printed with a decimal point (ssh passes LANG and LC_*
// on by default).
func posix(script string) string {
	return "exec env LC_ALL=C /bin/sh -c " + shellQuote(script)
}

// sshHint says what to do about the ssh errors people meet first.
func sshHint(stderr string) string {
	switch {
	case strings.Contains(stderr, "Host key verification failed"):
		return " (the host's key is not in known_hosts: add it, e.g. ssh-keyscan HOST >> ~/.ssh/known_hosts, or name a file with known_hosts)"
	case strings.Contains(stderr, "Permission denied"):
		return " (the key was refused: name it with identity, or load it into ssh-agent)"
	}
	return ""
}

// Connect opens the master connection and learns the host's work folder
// and architecture. It fails with ssh's own words when the host cannot be
// reached or refuses the key.
func (h *SSHHost) Connect(ctx context.Context) error {
	a := append([]string{"ssh", "-M", "-N", "-S", h.ctl, "-o", "ControlPersist=no"}, h.options()...)
	a = append(a, h.Spec.SSH)
	cmd := exec.Command(a[0], a[1:]...)
	var stderr tailBuffer
	stderr.max = 4 << 10
	cmd.Stderr = &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("host %s: start ssh: %w", h.Spec.Name, err)
	}
	var waitErr error
	ended := make(chan struct{})
	go func() { waitErr = cmd.Wait(); close(ended) }()
	h.master, h.ended = cmd, ended
	deadline := time.Now().Add(15 * time.Second)
	for {
		if exec.CommandContext(ctx, "ssh", "-S", h.ctl, "-O", "check", h.Spec.SSH).Run() == nil {
			break
		}
		select {
		case <-ended:
			h.master = nil
			return fmt.Errorf("host %s (%s) cannot be reached: %v: %s%s", h.Spec.Name, h.Destination(), waitErr, strings.TrimSpace(stderr.String()), sshHint(stderr.String()))
		case <-ctx.Done():
			h.Close()
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			h.Close()
			return fmt.Errorf("host %s (%s): no connection after 15 s: %s", h.Spec.Name, h.Destination(), strings.TrimSpace(stderr.String()))
		}
	}
	dir := strings.TrimPrefix(h.Spec.Dir, "~/") // relative paths are in the home already
	if dir == "" {
		dir = ".cache/fairbench-remote"
	}
	out, err := h.Output(ctx, "mkdir -p "+shellQuote(dir)+" && cd "+shellQuote(dir)+" && pwd && uname -m && id -u")
	if err != nil {
		h.Close()
		return fmt.Errorf("host %s: work folder %s: %w", h.Spec.Name, dir, err)
	}
	f := strings.Fields(string(out))
	if len(f) != 3 {
		h.Close()
		return fmt.Errorf("host %s: pwd, uname -m and id -u said %q", h.Spec.Name, out)
	}
	h.dir, h.arch, h.root = f[0], f[1], f[2] == "0"
	h.resolveAddress(ctx)
	return nil
}

// lost reports whether the master connection is known to be gone: closed,
// or its ssh exited (unanswered keep-alives end it within seconds of a
// cut). It costs nothing to ask, and a command over a lost master would
// not fail at once: ssh would wait for a new connection's timeout.
func (h *SSHHost) lost() bool {
	if h.master == nil {
		return true
	}
	select {
	case <-h.ended:
		return true
	default:
		return false
	}
}

// lostError says the link to h is lost.
func (h *SSHHost) lostError() error {
	return fmt.Errorf("the link to host %s (%s) is lost", h.Spec.Name, h.Destination())
}

// Alive reports whether the master connection still stands.
func (h *SSHHost) Alive(ctx context.Context) bool {
	if h.lost() {
		return false
	}
	return exec.CommandContext(ctx, "ssh", "-S", h.ctl, "-O", "check", h.Spec.SSH).Run() == nil
}

// Reconnect opens a new master connection when the old one is gone.
func (h *SSHHost) Reconnect(ctx context.Context) error {
	if h.Alive(ctx) {
		return nil
	}
	h.Close()
	if err := h.Connect(ctx); err != nil {
		return err
	}
	return h.reclaim(ctx)
}

// Close ends the master connection, and the claim's hold with it (its
// folder stays, for -resume or the next collect to remove).
func (h *SSHHost) Close() {
	h.unhold()
	if h.master == nil {
		return
	}
	exec.Command("ssh", "-S", h.ctl, "-O", "exit", h.Spec.SSH).Run()
	select {
	case <-h.ended:
	default:
		syscall.Kill(-h.master.Process.Pid, syscall.SIGTERM)
	}
	awaitOrKill(h.ended, h.master.Process.Pid, 2*time.Second)
	h.master = nil
	os.Remove(h.ctl)
}

// command is script run on h through the master connection.
func (h *SSHHost) command(ctx context.Context, script string, extra ...string) *exec.Cmd {
	a := h.argv(script, extra...)
	cmd := exec.CommandContext(ctx, a[0], a[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// Output runs script on h and returns its stdout; a failure carries its stderr.
// A master known to be lost fails it at once.
func (h *SSHHost) Output(ctx context.Context, script string) ([]byte, error) {
	if h.lost() {
		return nil, h.lostError()
	}
	cmd := h.command(ctx, script, "-n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.Bytes(), h.failure(err, stderr.String())
	}
	return stdout.Bytes(), nil
}

// failure words an ssh error: a lost link is said so.
func (h *SSHHost) failure(err error, stderr string) error {
	var exit *exec.ExitError
	msg := strings.TrimSpace(stderr)
	if errors.As(err, &exit) && exit.ExitCode() == sshLost {
		return fmt.Errorf("%w: %s", h.lostError(), msg)
	}
	if msg != "" {
		return fmt.Errorf("%v: %s", err, msg)
	}
	return err
}

// fresh runs script on h over a new connection of its own, not the master:
// the way to reach a host after its master connection died.
func (h *SSHHost) fresh(ctx context.Context, script string) ([]byte, error) {
	a := append([]string{"ssh", "-S", "none", "-n"}, h.options()...)
	a = append(a, h.Spec.SSH, "--", posix(script))
	cmd := exec.CommandContext(ctx, a[0], a[1:]...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.Bytes(), h.failure(err, stderr.String())
	}
	return stdout.Bytes(), nil
}

// Sync copies the local folder src to dst on h (relative to the work
// folder) with rsync over the master connection; files that are gone from
// src are deleted from dst.
func (h *SSHHost) Sync(ctx context.Context, src, dst string) error {
	if _, err := h.Output(ctx, "mkdir -p "+shellQuote(h.Path(dst))); err != nil {
		return err
	}
	return h.rsync(ctx, strings.TrimSuffix(src, "/")+"/", h.Path(dst)+"/", "--delete")
}

// put copies the local file src to dst on h (relative to the work
// folder) with rsync over the master connection.
func (h *SSHHost) put(ctx context.Context, src, dst string) error {
	if _, err := h.Output(ctx, "mkdir -p "+shellQuote(path.Dir(h.Path(dst)))); err != nil {
		return err
	}
	return h.rsync(ctx, src, h.Path(dst))
}

// rsync runs rsync -a from the local src to dst on h over the master
// connection.
func (h *SSHHost) rsync(ctx context.Context, src, dst string, flags ...string) error {
	rsh := strings.Join(quoteAll(append([]string{"ssh", "-S", h.ctl, "-o", "ControlMaster=no"}, h.options()...)), " ")
	a := append(append([]string{"rsync", "-a"}, flags...), "-e", rsh, src, rsyncHost(h.Spec.SSH)+":"+dst)
	cmd := exec.CommandContext(ctx, a[0], a[1:]...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("copy %s to host %s: %v: %s", src, h.Spec.Name, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// rsyncHost writes an ssh destination the way rsync reads it: an IPv6
// address in brackets (rsync would take "::" for its daemon syntax).
func rsyncHost(dest string) string {
	user, host, ok := strings.Cut(dest, "@")
	if !ok {
		user, host = "", dest
	}
	if strings.Contains(host, ":") && !strings.HasPrefix(host, "[") {
		host = "[" + host + "]"
	}
	if ok {
		return user + "@" + host
	}
	return host
}

// Path is rel inside the host's work folder; absolute paths stay.
func (h *SSHHost) Path(rel string) string {
	if strings.HasPrefix(rel, "/") {
		return rel
	}
	return h.dir + "/" + rel
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func quoteAll(argv []string) []string {
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = shellQuote(a)
	}
	return out
}

// killGroupScript ends process group pg on a host: SIGTERM, up to 2 s for
// it to go, then SIGKILL. It succeeds when nothing of the group is left.
// When boot and start are given (the host's boot_id and the group
// leader's start time), a group that is not that process any more (the
// host rebooted, the number was reused) is left alone.
func killGroupScript(pg int, boot, start string) string {
	g := strconv.Itoa(pg)
	guard := ""
	if boot != "" && start != "" {
		guard = "[ \"$(cat /proc/sys/kernel/random/boot_id)\" = " + shellQuote(boot) + " ] && [ \"$(" + startTimeOf(g) + ")\" = " + shellQuote(start) + " ] || exit 0; "
	}
	// No "--" after kill: dash's kill does not take it.
	return guard + "kill -TERM -" + g + " 2>/dev/null; i=0; while kill -0 -" + g +
		" 2>/dev/null && [ $i -lt 20 ]; do sleep 0.1; i=$((i+1)); done; kill -KILL -" + g +
		" 2>/dev/null; sleep 0.1; ! kill -0 -" + g + " 2>/dev/null"
}

// startTimeOf is a shell command printing the start time (in clock ticks
// since boot) of process pid, field 22 of /proc/<pid>/stat.
func startTimeOf(pid string) string {
	return "awk '{ sub(/^.*\\) /, \"\"); print $20 }' /proc/" + pid + "/stat 2>/dev/null"
}

// viaHost is an HTTP client whose TCP connections start on h: each is a
// `ssh -W` stream through the master connection, opened by h's sshd. What
// it sees is what a program on h sees, a firewall or proxy included.
func viaHost(h *SSHHost) *http.Client {
	t := &http.Transport{DisableKeepAlives: true, DisableCompression: true}
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		a := h.argv("", "-W", addr)
		a = a[:len(a)-2] // -W takes no command
		cmd := exec.Command(a[0], a[1:]...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
		in, err := cmd.StdinPipe()
		if err != nil {
			return nil, err
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			return nil, err
		}
		stderr := &tailBuffer{max: 1 << 10}
		cmd.Stderr = stderr
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		return &streamConn{cmd: cmd, in: in, out: out, stderr: stderr, host: h.Spec.Name, addr: addr}, nil
	}
	return &http.Client{Timeout: TargetTimeout, CheckRedirect: NoRedirect, Transport: t}
}

// streamConn is a TCP stream carried by an ssh -W process.
type streamConn struct {
	cmd        *exec.Cmd
	in         io.WriteCloser
	out        io.ReadCloser
	stderr     *tailBuffer
	host, addr string
	once       sync.Once
}

// Read reads the stream; where it ends with ssh's complaint (the host
// could not connect), the complaint is the error.
func (c *streamConn) Read(p []byte) (int, error) {
	n, err := c.out.Read(p)
	if err == io.EOF {
		time.Sleep(20 * time.Millisecond) // ssh writes its reason as it exits
		if msg := strings.TrimSpace(c.stderr.String()); msg != "" {
			err = fmt.Errorf("from host %s to %s: %s", c.host, c.addr, msg)
		}
	}
	return n, err
}
func (c *streamConn) Write(p []byte) (int, error) { return c.in.Write(p) }
func (c *streamConn) Close() error {
	c.once.Do(func() {
		c.in.Close()
		c.cmd.Process.Kill()
		c.cmd.Wait()
	})
	return nil
}
func (c *streamConn) LocalAddr() net.Addr              { return streamAddr("ssh:" + c.host) }
func (c *streamConn) RemoteAddr() net.Addr             { return streamAddr(c.addr) }
func (c *streamConn) SetDeadline(time.Time) error      { return nil }
func (c *streamConn) SetReadDeadline(time.Time) error  { return nil }
func (c *streamConn) SetWriteDeadline(time.Time) error { return nil }

type streamAddr string

func (a streamAddr) Network() string { return "ssh" }
func (a streamAddr) String() string  { return string(a) }

// TargetTimeout bounds one request of the gate or a readiness probe to a
// target, here or on a host.
const TargetTimeout = 5 * time.Second

// NoRedirect makes a client return a redirect as the answer it is: the
// gate checks the bytes a target sent, not where they point.
func NoRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// goArch names a `uname -m` machine the way Go does.
func goArch(machine string) string {
	switch machine {
	case "x86_64":
		return "amd64"
	case "aarch64", "arm64":
		return "arm64"
	case "i386", "i686":
		return "386"
	}
	return machine
}

// CopyTool copies local, the tool binary fairbench resolved here, to h's
// work folder, checks its sha256 there and that it runs.
func (h *SSHHost) CopyTool(ctx context.Context, tool string, local runjson.Version) (runjson.Version, error) {
	if goArch(h.arch) != runtime.GOARCH {
		return runjson.Version{}, fmt.Errorf("the %s here is for %s, the host is %s", tool, runtime.GOARCH, h.arch)
	}
	sum, err := sha256Of(local.Path)
	if err != nil {
		return runjson.Version{}, err
	}
	dst := "tools/" + tool + "-" + local.Version
	if err := h.put(ctx, local.Path, dst); err != nil {
		return runjson.Version{}, err
	}
	q := shellQuote(h.Path(dst))
	out, err := h.Output(ctx, "sha256sum "+q+" && "+q+" --version 2>&1")
	if err != nil {
		return runjson.Version{}, fmt.Errorf("%s copied to %s does not run there: %w", tool, h.Path(dst), err)
	}
	if got, _, _ := strings.Cut(string(out), " "); got != sum {
		return runjson.Version{}, fmt.Errorf("%s copied to %s: sha256 %s there, %s here", tool, h.Path(dst), got, sum)
	}
	return runjson.Version{Path: h.Path(dst), Version: local.Version, Asked: append([]string{"sha256", sum, "of"}, local.Asked...)}, nil
}

// sha256Of is the hex sha256 of a local file.
func sha256Of(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return rundir.ReaderSHA256(f)
}
