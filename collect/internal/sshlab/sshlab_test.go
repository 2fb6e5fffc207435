package sshlab

import (
	"bufio"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// listenEnv makes the test binary, run as TestHelperListener, a TCP server
// on the address it names: it prints its port, then greets every client.
const listenEnv = "SSHLAB_TEST_LISTEN"

func TestHelperListener(t *testing.T) {
	addr := os.Getenv(listenEnv)
	if addr == "" {
		t.Skip("helper process for TestLab")
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	fmt.Println(port)
	for {
		c, err := ln.Accept()
		if err != nil {
			os.Exit(1)
		}
		fmt.Fprintf(c, "hello from %s\n", os.Getenv(markerVar))
		c.Close()
	}
}

// modes runs check once as the machine allows (namespaces if it can,
// mode "") and once forced onto loopback (mode "loopback"), both at once.
func modes(t *testing.T, check func(t *testing.T, mode string)) {
	t.Parallel()
	for _, mode := range []string{"", "loopback"} {
		t.Run(cmpOr(mode, "auto"), func(t *testing.T) {
			t.Parallel()
			check(t, mode)
		})
	}
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// ssh runs script on a lab host with the system ssh client; opts go before
// the destination.
func ssh(lab *Lab, name, script string, opts ...string) (string, error) {
	args := append(opts, lab.SSHArgs(name)...)
	out, err := exec.Command("ssh", append(args, "--", script)...).CombinedOutput()
	return string(out), err
}

func TestLabHosts(t *testing.T) {
	modes(t, func(t *testing.T, mode string) {
		lab := start(t, mode, []string{"server", "client"})
		if want := mode != "loopback" && lab.net != nil; lab.Namespaced != want {
			t.Errorf("Namespaced = %v, want %v", lab.Namespaced, want)
		}
		for _, name := range []string{"server", "client"} {
			h := lab.Host(name)
			out, err := ssh(lab, name, `echo "$FAIRBENCH_SSHLAB_HOST"; ip netns identify; ip -4 -o addr show; pwd`)
			if err != nil {
				t.Fatalf("ssh %s: %v\n%s", name, err, out)
			}
			t.Logf("on %s:\n%s", name, out)
			lines := strings.Split(out, "\n")
			if got, want := lines[0], lab.id+"/"+name; got != want {
				t.Errorf("%s: session marker %q, want %q", name, got, want)
			}
			if got, want := lines[1], h.NetNS; got != want {
				t.Errorf("%s: ip netns identify over ssh = %q, want %q", name, got, want)
			}
			if got, err := lab.Exec(name, "ip", "netns", "identify"); err != nil || strings.TrimSpace(string(got)) != h.NetNS {
				t.Errorf("%s: Exec ip netns identify = %q, %v, want %q", name, got, err, h.NetNS)
			}
			if !lab.Namespaced {
				continue // the session sees the machine's addresses
			}
			if !strings.Contains(out, " inet "+h.Addr+"/24 ") {
				t.Errorf("%s: %s not among the session's addresses", name, h.Addr)
			}
			if strings.Count(out, " inet ") != 2 {
				t.Errorf("%s: want lo and eth0 only in the namespace", name)
			}
		}
		if a, b := lab.Host("server").Dir, lab.Host("client").Dir; a == b {
			t.Errorf("hosts share the work dir %s", a)
		}
	})
}

func TestClientReachesServer(t *testing.T) {
	modes(t, func(t *testing.T, mode string) {
		lab := start(t, mode, []string{"server", "client"})
		srv := lab.Host("server")
		port := startListener(t, lab, "server", srv.Addr)
		// bash's /dev/tcp: the client host opens a TCP connection to the server host.
		script := fmt.Sprintf(`exec bash -c 'exec 3<>/dev/tcp/%s/%d && cat <&3'`, srv.Addr, port)
		out, err := ssh(lab, "client", script)
		if err != nil {
			t.Fatalf("ssh client: %v\n%s", err, out)
		}
		if got, want := strings.TrimSpace(out), "hello from "+lab.id+"/server"; got != want {
			t.Errorf("client read %q, want %q", got, want)
		}
		// And the client host reaches the server's sshd: ssh through the client host.
		jump := "ProxyCommand=ssh -F " + lab.Config + " -p " + strconv.Itoa(lab.Host("client").Port) + " " + lab.Host("client").Destination() + " -W %h:%p"
		out, err = ssh(lab, "server", `echo "$FAIRBENCH_SSHLAB_HOST"`, "-o", jump)
		if err != nil || strings.TrimSpace(out) != lab.id+"/server" {
			t.Errorf("ssh to server through client: %v: %q", err, out)
		}
	})
}

// startListener starts a helper listener on the host at addr and returns
// its port. The lab's cleanup kills it.
func startListener(t *testing.T, lab *Lab, name, addr string) int {
	t.Helper()
	cmd := lab.Command(name, os.Args[0], "-test.run=^TestHelperListener$")
	cmd.Env = append(cmd.Env, listenEnv+"="+net.JoinHostPort(addr, "0"))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() }) // runs before the lab's cleanup
	line, err := bufio.NewReader(stdout).ReadString('\n')
	port, perr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || perr != nil {
		t.Fatalf("helper listener: %q, %v", line, err)
	}
	return port
}

func TestDropRestore(t *testing.T) {
	modes(t, func(t *testing.T, mode string) {
		lab := start(t, mode, []string{"server", "client"})
		srv := lab.Host("server")
		addr := net.JoinHostPort(srv.Addr, strconv.Itoa(srv.Port))
		short := []string{"-o", "ConnectTimeout=1"}
		if out, err := ssh(lab, "server", "true", short...); err != nil {
			t.Fatalf("before Drop: %v\n%s", err, out)
		}

		lab.Drop("server")
		began := time.Now()
		out, err := ssh(lab, "server", "true", short...)
		if err == nil {
			t.Errorf("ssh to a dropped host worked")
		}
		t.Logf("ssh while dropped, after %v: %v: %s", time.Since(began).Round(time.Millisecond), err, strings.TrimSpace(out))
		if lab.Namespaced {
			if c, err := net.DialTimeout("tcp", addr, 300*time.Millisecond); err == nil {
				c.Close()
				t.Errorf("TCP connect to a dropped host worked")
			}
			if out, err := ssh(lab, "client", fmt.Sprintf(`timeout 1 bash -c 'exec 3<>/dev/tcp/%s/22'`, srv.Addr)); err == nil {
				t.Errorf("the client host reached a dropped host: %s", out)
			}
		}
		if out, err := ssh(lab, "client", "true", short...); err != nil {
			t.Errorf("dropping server cut client too: %v\n%s", err, out)
		}

		lab.Restore("server")
		if out, err := ssh(lab, "server", "true", short...); err != nil {
			t.Errorf("after Restore: %v\n%s", err, out)
		}
	})
}

func TestCleanup(t *testing.T) {
	modes(t, func(t *testing.T, mode string) {
		var lab *Lab
		var sshdPIDs []int
		var cmd *exec.Cmd
		t.Run("lab", func(t *testing.T) {
			lab = start(t, mode, []string{"server", "client"})
			for _, h := range lab.hosts {
				sshdPIDs = append(sshdPIDs, h.sshd.cmd.Process.Pid)
			}
			// A daemon left behind by a session, and a process started with Command.
			if out, err := ssh(lab, "server", "setsid sleep 301 </dev/null >/dev/null 2>&1 &"); err != nil {
				t.Fatalf("ssh: %v\n%s", err, out)
			}
			cmd = lab.Command("client", "sleep", "302")
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			lab.Drop("client") // a dropped host is cleaned up too
		})
		if lab == nil {
			return // the lab was skipped: nothing to clean up
		}
		if cmd != nil {
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				t.Logf("process started with Command: %v", err)
			case <-time.After(2 * time.Second):
				cmd.Process.Kill()
				t.Errorf("cleanup left the process started with Command running")
			}
		}
		deadline := time.Now().Add(2 * time.Second)
		for {
			left := leftovers(lab, sshdPIDs)
			if len(left) == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("after cleanup: %s", strings.Join(left, "; "))
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
}

// leftovers says what of the lab is still there.
func leftovers(lab *Lab, sshdPIDs []int) []string {
	var left []string
	for _, pid := range sshdPIDs {
		if syscall.Kill(pid, 0) == nil && !zombie(pid) {
			left = append(left, fmt.Sprintf("sshd %d alive", pid))
		}
	}
	for _, p := range procs() {
		cmdline, _ := os.ReadFile("/proc/" + strconv.Itoa(p.pid) + "/cmdline")
		if (strings.Contains(string(cmdline), "sleep\x00301") || strings.Contains(string(cmdline), "sleep\x00302")) && !zombie(p.pid) {
			left = append(left, fmt.Sprintf("%d %q alive", p.pid, cmdline))
		}
	}
	if lab.Namespaced {
		out, _ := exec.Command("ip", "netns", "list").Output()
		if strings.Contains(string(out), lab.id) {
			left = append(left, "namespaces: "+string(out))
		}
		if exec.Command("ip", "link", "show", lab.net.uplink).Run() == nil {
			left = append(left, "link "+lab.net.uplink)
		}
	}
	return left
}

func zombie(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	i := strings.LastIndexByte(string(stat), ')')
	return i > 0 && strings.HasPrefix(string(stat[i+1:]), " Z")
}

func TestLabsAtOnce(t *testing.T) {
	t.Parallel()
	a, b := Start(t, "server"), Start(t, "server")
	if a.Namespaced && a.net.subnet == b.net.subnet {
		t.Errorf("two labs share %s", a.net.subnet)
	}
	for _, lab := range []*Lab{a, b} {
		if out, err := ssh(lab, "server", `echo "$FAIRBENCH_SSHLAB_HOST"`); err != nil || strings.TrimSpace(out) != lab.id+"/server" {
			t.Errorf("%s: %v: %q", lab, err, out)
		}
	}
}

func TestCheckNames(t *testing.T) {
	for _, tt := range []struct {
		names []string
		ok    bool
	}{
		{[]string{"server", "client"}, true},
		{[]string{"s-1"}, true},
		{nil, false},
		{[]string{"server", "server"}, false},
		{[]string{"Server"}, false},
		{[]string{"a/b"}, false},
		{[]string{"1st"}, false},
	} {
		if got := checkNames(tt.names) == nil; got != tt.ok {
			t.Errorf("checkNames(%q) ok = %v, want %v", tt.names, got, tt.ok)
		}
	}
}

func TestOverlaps(t *testing.T) {
	taken := []netip.Prefix{
		netip.MustParsePrefix("192.0.2.0/24"),
		netip.MustParsePrefix("10.201.0.0/16"),
		netip.MustParsePrefix("10.200.7.9/32"),
	}
	for _, tt := range []struct {
		subnet string
		want   bool
	}{
		{"10.200.6.0/24", false},
		{"10.200.7.0/24", true},
		{"10.201.3.0/24", true},
		{"10.202.3.0/24", false},
	} {
		if got := overlaps(netip.MustParsePrefix(tt.subnet), taken); got != tt.want {
			t.Errorf("overlaps(%s) = %v, want %v", tt.subnet, got, tt.want)
		}
	}
	for _, tt := range []struct{ in, want string }{
		{"10.1.2.3/24", "10.1.2.0/24"},
		{"127.0.0.1", "127.0.0.1/32"},
	} {
		p, err := parsePrefix(tt.in)
		if got := p.String(); err != nil || got != tt.want {
			t.Errorf("parsePrefix(%q) = %s, %v, want %s", tt.in, got, err, tt.want)
		}
	}
}
