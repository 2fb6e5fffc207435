package sshlab

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// readyTimeout bounds how long sshd may take to accept connections.
const readyTimeout = 5 * time.Second

// sshd is a running sshd, the process Start began, leading its own process
// group.
type sshd struct {
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has been waited for
	err  error         // its exit, once done
}

// writeKeys makes the lab's client key and every host's host key, the
// authorized_keys file and the client's ssh config.
func (l *Lab) writeKeys() error {
	l.Identity = filepath.Join(l.Dir, "id_ed25519")
	l.KnownHosts = filepath.Join(l.Dir, "known_hosts")
	l.Config = filepath.Join(l.Dir, "ssh_config")
	keys := []string{l.Identity}
	for _, h := range l.hosts {
		keys = append(keys, filepath.Join(h.conf, "ssh_host_ed25519_key"))
	}
	errs := make([]error, len(keys))
	var wg sync.WaitGroup
	for i, k := range keys {
		wg.Go(func() {
			out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "sshlab "+l.id, "-f", k).CombinedOutput()
			if err != nil {
				errs[i] = fmt.Errorf("ssh-keygen %s: %w: %s", k, err, strings.TrimSpace(string(out)))
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	pub, err := os.ReadFile(l.Identity + ".pub")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(l.Dir, "authorized_keys"), pub, 0o600); err != nil {
		return err
	}
	return os.WriteFile(l.Config, []byte(clientConfig(l)), 0o644)
}

// clientConfig is the ssh config of the lab's client: this lab's keys
// only, no questions asked, no prompts.
func clientConfig(l *Lab) string {
	return fmt.Sprintf(`# ssh config of sshlab %s, for ssh -F.
Host *
	StrictHostKeyChecking yes
	UserKnownHostsFile %q
	GlobalKnownHostsFile /dev/null
	UpdateHostKeys no
	CheckHostIP no
	IdentityFile %q
	IdentitiesOnly yes
	IdentityAgent none
	PasswordAuthentication no
	KbdInteractiveAuthentication no
	BatchMode yes
	ConnectTimeout 5
	LogLevel ERROR
`, l.id, l.KnownHosts, l.Identity)
}

// sshdConfig is h's sshd_config.
func sshdConfig(l *Lab, h *host) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# sshd_config of host %s of sshlab %s\n", h.Name, l.id)
	fmt.Fprintf(&b, "Port %d\nListenAddress %s\n", h.Port, h.Addr)
	fmt.Fprintf(&b, "HostKey %q\n", filepath.Join(h.conf, "ssh_host_ed25519_key"))
	fmt.Fprintf(&b, "AuthorizedKeysFile %q\n", filepath.Join(l.Dir, "authorized_keys"))
	fmt.Fprintf(&b, "PidFile %q\n", filepath.Join(h.conf, "sshd.pid"))
	// SHLVL=1: bash, as the login shell of a session sshd starts, sources
	// ~/.bashrc unless it is nested (Debian builds it so); the test user's
	// rc file (a pyenv init took 3.5 s a command on a busy CI machine) is
	// the machine's, not the lab host's, and every ssh command paid for it.
	fmt.Fprintf(&b, "SetEnv %s SHLVL=1\n", l.marker(h.Name))
	b.WriteString(`PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
LogLevel VERBOSE
PrintMotd no
PrintLastLog no
AllowTcpForwarding yes
MaxSessions 100
MaxStartups 100:30:200
`)
	if _, err := os.Stat("/usr/lib/openssh/sftp-server"); err == nil {
		b.WriteString("Subsystem sftp /usr/lib/openssh/sftp-server\n")
	}
	return b.String()
}

// startAll starts every host's sshd, waits until each accepts, and writes
// known_hosts.
func (l *Lab) startAll() error {
	if os.Geteuid() == 0 {
		// sshd run by root wants its privilege separation folder.
		if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
			return err
		}
	}
	errs := make([]error, len(l.hosts))
	var wg sync.WaitGroup
	for i, h := range l.hosts {
		wg.Go(func() { errs[i] = l.startHost(h) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	var kh strings.Builder
	for _, h := range l.hosts {
		pub, err := os.ReadFile(filepath.Join(h.conf, "ssh_host_ed25519_key.pub"))
		if err != nil {
			return err
		}
		f := strings.Fields(string(pub))
		name := h.Addr
		if h.Port != 22 {
			name = "[" + h.Addr + "]:" + strconv.Itoa(h.Port)
		}
		fmt.Fprintf(&kh, "%s %s %s\n", name, f[0], f[1])
	}
	return os.WriteFile(l.KnownHosts, []byte(kh.String()), 0o644)
}

// startHost starts h's sshd. On loopback, where the free port found may
// have been taken meanwhile, it tries other ports.
func (l *Lab) startHost(h *host) error {
	for try := 1; ; try++ {
		if err := os.WriteFile(filepath.Join(h.conf, "sshd_config"), []byte(sshdConfig(l, h)), 0o644); err != nil {
			return err
		}
		s, err := startSSHD(h)
		h.sshd = s
		if err == nil || l.Namespaced || try == 3 || !strings.Contains(err.Error(), "in use") {
			return err
		}
		if h.Port, err = freePort(netip.MustParseAddr(h.Addr)); err != nil {
			return err
		}
	}
}

// startSSHD starts sshd for h, in h's namespace if it has one, and waits
// until it accepts connections. The sshd returned, even with an error, is
// to be stopped.
func startSSHD(h *host) (*sshd, error) {
	log, err := os.OpenFile(h.Log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer log.Close()
	argv := []string{sshdPath, "-D", "-e", "-f", filepath.Join(h.conf, "sshd_config"), "-E", h.Log}
	if h.NetNS != "" {
		argv = append([]string{"ip", "netns", "exec", h.NetNS}, argv...) // ip execs sshd: same PID
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("host %s: start sshd: %w", h.Name, err)
	}
	s := &sshd{cmd: cmd, done: make(chan struct{})}
	go func() { s.err = cmd.Wait(); close(s.done) }()
	addr := net.JoinHostPort(h.Addr, strconv.Itoa(h.Port))
	// Ready is this sshd saying it listens there, then a connection going
	// through: on loopback another lab's sshd may hold the port this one
	// failed to bind, and a connection alone would reach that one.
	listening := fmt.Sprintf("Server listening on %s port %d.", h.Addr, h.Port)
	deadline := time.Now().Add(readyTimeout)
	for {
		if b, err := os.ReadFile(h.Log); err == nil && strings.Contains(string(b), listening) {
			c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond)
			if err == nil {
				c.Close()
				return s, nil
			}
		}
		select {
		case <-s.done:
			return s, fmt.Errorf("host %s: sshd exited (%v): %s", h.Name, s.err, tail(h.Log))
		case <-time.After(5 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return s, fmt.Errorf("host %s: sshd does not accept on %s after %v: %s", h.Name, addr, readyTimeout, tail(h.Log))
		}
	}
}

// stop ends the sshd's process group: SIGTERM, then SIGKILL if it is still
// there after a second.
func (s *sshd) stop() {
	pgid := s.cmd.Process.Pid
	syscall.Kill(-pgid, syscall.SIGCONT) // a dropped host's sshd is stopped
	syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-s.done:
		return
	case <-time.After(time.Second):
	}
	syscall.Kill(-pgid, syscall.SIGKILL)
	<-s.done
}

// tail is the end of a log file, for an error message.
func tail(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	s := strings.TrimSpace(string(b))
	if len(s) > 2000 {
		s = "…" + s[len(s)-2000:]
	}
	return s
}
