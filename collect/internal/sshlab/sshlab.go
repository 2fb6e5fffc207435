// Package sshlab builds, for a test, a lab of hosts that each run a real
// OpenSSH server (Debian's /usr/sbin/sshd), so that code driving the system
// ssh and rsync clients can be tested against the real thing.
//
// Where the machine lets it (root, `ip netns add` works), every host is a
// network namespace of its own with one address on a private /24 that the
// test process and the other hosts reach; a host's link can be cut and
// mended (Drop, Restore). Elsewhere, or with FAIRBENCH_SSHLAB=loopback, the
// hosts are sshd processes on distinct loopback addresses (127.0.0.2,
// 127.0.0.3, …), and Lab.Namespaced is false. FAIRBENCH_SSHLAB=netns makes
// a machine without namespaces fail the test instead of falling back.
//
//	lab := sshlab.Start(t, "server", "client")
//	srv := lab.Host("server")
//	out, err := exec.Command("ssh", append(lab.SSHArgs("server"), "uname -n")...).Output()
//	lab.Drop("server") // the link is cut; Restore mends it
//
// The hosts share the test's file system, users and processes; each has a
// work dir of its own (Host.Dir) so that "remote" folders differ. A lab
// cleans up after itself when the test ends, failed or panicked: it stops
// its sshd processes, kills what runs in its namespaces or was started by
// its sshd, and deletes its namespaces and links. It never touches anything
// it did not make. Setting up ssh clients (control sockets, options beyond
// the lab's ssh config) is left to the code under test.
package sshlab

import (
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// sshdPath is the OpenSSH server every lab host runs.
const sshdPath = "/usr/sbin/sshd"

// markerVar is set in the environment of every session a lab's sshd starts
// and of every Command, to "<lab id>/<host name>"; cleanup kills what still
// carries it.
const markerVar = "FAIRBENCH_SSHLAB_HOST"

// Lab is a set of hosts running sshd, made by Start for one test.
type Lab struct {
	Dir        string // the lab's own folder, removed with the test's temp dirs
	Namespaced bool   // hosts are network namespaces; false: loopback addresses
	Config     string // ssh config file for `ssh -F`
	KnownHosts string // known_hosts with every host's key
	Identity   string // the client's private key, authorized on every host

	t     testing.TB
	id    string // fbl<pid>-<n>, unique on the machine while the test runs
	hosts []*host
	net   *network // nil in loopback mode

	mu sync.Mutex // guards host.dropped
}

// Host is one host of a lab as a test sees it.
type Host struct {
	Name  string
	Addr  string // IPv4 address sshd listens on
	Port  int    // sshd's port: 22 in a namespace, a free port on loopback
	User  string // the login: the user running the test
	Dir   string // the host's own work folder, empty at start
	NetNS string // the host's network namespace; empty in loopback mode
	Log   string // sshd's log file (LogLevel VERBOSE)
}

// Destination is the host as ssh takes it, user@addr; the port is Port.
func (h Host) Destination() string { return h.User + "@" + h.Addr }

// host is a Host with what the lab keeps to run it.
type host struct {
	Host
	conf    string // the host's sshd files
	sshd    *sshd
	link    string // the host's port on the lab bridge
	dropped bool
}

var labs atomic.Int64 // numbers labs within the process

var validName = regexp.MustCompile(`^[a-z][a-z0-9-]{0,30}$`)

// Start makes a lab with the named hosts and removes it when t ends. It
// skips the test when sshd is not installed and fails it when the lab
// cannot be built.
func Start(t testing.TB, names ...string) *Lab {
	t.Helper()
	return start(t, os.Getenv("FAIRBENCH_SSHLAB"), names)
}

// start is Start in mode: "" (namespaces where the machine can make them),
// "netns" or "loopback", as FAIRBENCH_SSHLAB says.
func start(t testing.TB, mode string, names []string) *Lab {
	t.Helper()
	if testing.Short() {
		t.Skip("sshlab: starts sshd hosts; left out of -short")
	}
	if _, err := os.Stat(sshdPath); err != nil {
		msg := fmt.Sprintf("sshlab: %s not found: apt-get install openssh-server (.ci/run does)", sshdPath)
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	if mode != "" && mode != "netns" && mode != "loopback" {
		t.Fatalf("sshlab: FAIRBENCH_SSHLAB=%q: want netns, loopback or empty", mode)
	}
	if err := checkNames(names); err != nil {
		t.Fatalf("sshlab: %v", err)
	}
	login, err := user.Current()
	if err != nil {
		t.Fatalf("sshlab: who runs the test: %v", err)
	}
	began := time.Now()
	l := &Lab{Dir: t.TempDir(), t: t, id: fmt.Sprintf("fbl%d-%d", os.Getpid(), labs.Add(1))}
	t.Cleanup(l.close) // after TempDir's: runs first, so sshd is gone before the folder
	for _, name := range names {
		h := &host{Host: Host{Name: name, User: login.Username, Dir: filepath.Join(l.Dir, "hosts", name)},
			conf: filepath.Join(l.Dir, "sshd", name)}
		h.Log = filepath.Join(h.conf, "sshd.log")
		for _, d := range []string{h.Dir, h.conf} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatalf("sshlab: %v", err)
			}
		}
		l.hosts = append(l.hosts, h)
	}
	l.place(mode)
	if err := l.writeKeys(); err != nil {
		t.Fatalf("sshlab: %v", err)
	}
	if err := l.startAll(); err != nil {
		t.Fatalf("sshlab: %v", err)
	}
	t.Logf("%s up in %v", l, time.Since(began).Round(time.Millisecond))
	return l
}

// place gives every host its address: in a namespace of its own where the
// machine can make them, else on loopback.
func (l *Lab) place(mode string) {
	l.t.Helper()
	why := "FAIRBENCH_SSHLAB=loopback"
	if mode != "loopback" {
		n, err := newNetwork(l.id, l.hosts)
		if err == nil {
			l.net, l.Namespaced = n, true
			return
		}
		if mode == "netns" {
			l.t.Fatalf("sshlab: FAIRBENCH_SSHLAB=netns: %v", err)
		}
		why = err.Error()
	}
	l.t.Logf("sshlab: no network namespaces here (%s): hosts are sshd on distinct loopback addresses", why)
	if err := placeLoopback(l.hosts); err != nil {
		l.t.Fatalf("sshlab: %v", err)
	}
}

func checkNames(names []string) error {
	if len(names) == 0 || len(names) > 200 {
		return fmt.Errorf("want 1 to 200 hosts, got %d", len(names))
	}
	seen := map[string]bool{}
	for _, n := range names {
		if !validName.MatchString(n) {
			return fmt.Errorf("host name %q: want lower-case letters, digits and '-', starting with a letter", n)
		}
		if seen[n] {
			return fmt.Errorf("host name %q given twice", n)
		}
		seen[n] = true
	}
	return nil
}

// Host returns the named host; an unknown name fails the test.
func (l *Lab) Host(name string) Host {
	l.t.Helper()
	return l.host(name).Host
}

func (l *Lab) host(name string) *host {
	l.t.Helper()
	for _, h := range l.hosts {
		if h.Name == name {
			return h
		}
	}
	l.t.Fatalf("sshlab: no host %q in the lab", name)
	return nil
}

// SSHArgs are the arguments that make the system ssh client log in to the
// named host: -F config -p port user@addr. Append a remote command.
func (l *Lab) SSHArgs(name string) []string {
	l.t.Helper()
	h := l.host(name)
	return []string{"-F", l.Config, "-p", strconv.Itoa(h.Port), h.Destination()}
}

// Command returns a command that runs argv on the named host without ssh:
// inside the host's namespace (`ip netns exec`), or, in loopback mode, as
// is. What it starts and leaves running is killed when the lab ends.
func (l *Lab) Command(name string, argv ...string) *exec.Cmd {
	l.t.Helper()
	h := l.host(name)
	if len(argv) == 0 {
		l.t.Fatalf("sshlab: Command on %s: no command", name)
	}
	var cmd *exec.Cmd
	if l.Namespaced {
		cmd = exec.Command("ip", append([]string{"netns", "exec", h.NetNS}, argv...)...)
	} else {
		cmd = exec.Command(argv[0], argv[1:]...)
	}
	cmd.Env = append(os.Environ(), l.marker(name))
	return cmd
}

// Exec runs argv on the named host like Command and returns its standard
// output; a failure carries its standard error.
func (l *Lab) Exec(name string, argv ...string) ([]byte, error) {
	l.t.Helper()
	cmd := l.Command(name, argv...)
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok && len(ee.Stderr) > 0 {
			err = fmt.Errorf("%w: %s", err, ee.Stderr)
		}
		return out, fmt.Errorf("sshlab: %s on %s: %w", argv[0], name, err)
	}
	return out, nil
}

func (l *Lab) marker(name string) string { return markerVar + "=" + l.id + "/" + name }
