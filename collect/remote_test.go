package collect_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect"
	"github.com/fairbench/fairbench/collect/internal/sshlab"
	"github.com/fairbench/fairbench/parse"
)

// remoteSuite runs hiserver, built on the server host from a copy of its
// source, and loads it from the client host with wrk and bombardier.
const remoteSuite = `
name = "remote"

[load]
tool = "bombardier"
connections = 4
duration = "@WINDOW@"
warmup = "0s"
repetitions = @REPS@
timeout = "1s"

@HOSTS@

[[target]]
name = "hi"
dir = "@SRC@"
build = ["@GO@", "build", "-o", "{bin}/hi", "."]
start = ["{bin}/hi"]
env = { BODY = "Hi" }
artifact = "{bin}/hi"
ready_timeout = "10s"

[[scenario]]
name = "ping"
request = { method = "GET", path = "/" }
expect = { status = 200, body = "Hi" }

[[scenario]]
name = "ping-wrk"
request = { method = "GET", path = "/" }
expect = { status = 200, body = "Hi" }
load = { tool = "wrk", threads = 1 }

[[scenario]]
name = "echo"
request = { method = "POST", path = "/echo", body_file = "body.bin" }
expect = { status = 200, body_file = "body.bin" }

[[scenario]]
name = "ip"
request = { method = "GET", path = "/ip" }
expect = { status = 200, body = "@CLIENT@" }
`

// hostTables are the [[host]] tables of a lab's hosts: name, role, name, role, ….
func hostTables(lab *sshlab.Lab, roles ...string) string {
	var b strings.Builder
	for i := 0; i+1 < len(roles); i += 2 {
		name, role := roles[i], roles[i+1]
		h := lab.Host(name)
		b.WriteString("[[host]]\nname = " + strconv.Quote(name) + "\nssh = " + strconv.Quote(h.Destination()) +
			"\nport = " + strconv.Itoa(h.Port) + "\nconfig = " + strconv.Quote(lab.Config) +
			"\nroles = [" + strconv.Quote(role) + "]\ndir = " + strconv.Quote(h.Dir) + "\n\n")
	}
	return b.String()
}

// remoteCase writes hiserver's source as a module of its own (the server
// host builds it) and parses the suite for lab.
func remoteCase(t *testing.T, lab *sshlab.Lab, window string, reps int, server, client string) (*collect.Suite, string) {
	t.Helper()
	work := t.TempDir()
	src := filepath.Join(work, "hi")
	main, err := os.ReadFile("testdata/hiserver/main.go")
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(src, 0o755)
	os.WriteFile(filepath.Join(src, "main.go"), main, 0o644)
	os.WriteFile(filepath.Join(src, "go.mod"), []byte("module hi\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(work, "body.bin"), []byte("a body from a file\n"), 0o644)
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	goBin, _ = filepath.Abs(goBin)
	text := strings.NewReplacer("@WINDOW@", window, "@REPS@", strconv.Itoa(reps), "@SRC@", src, "@GO@", goBin, "@CLIENT@", callerAddr(lab, client),
		"@HOSTS@", hostTables(lab, server, "server", client, "client")).Replace(remoteSuite)
	s, err := collect.ParseSuite([]byte(text), filepath.Join(work, "suite.toml"))
	if err != nil {
		t.Fatal(err)
	}
	return s, filepath.Join(work, "runs")
}

// callerAddr is the address a connection from host shows to a server on
// another host: the host's own in a namespace; on loopback addresses the
// kernel picks 127.0.0.1 for every host.
func callerAddr(lab *sshlab.Lab, host string) string {
	if lab.Namespaced {
		return lab.Host(host).Addr
	}
	return "127.0.0.1"
}

// running lists the processes whose command line starts with the program
// path (the ssh commands that start them start with "ssh").
func running(t *testing.T, lab *sshlab.Lab, host, program string) string {
	out, _ := lab.Exec(host, "pgrep", "-af", "^"+regexp.QuoteMeta(program))
	return strings.TrimSpace(string(out))
}

func TestRemoteCollect(t *testing.T) {
	lab := sshlab.Start(t, "server", "client")
	suite, out := remoteCase(t, lab, "1s", 2, "server", "client")
	dir, err := collect.Run(context.Background(), suite, collect.Options{Out: out})
	if err != nil {
		t.Fatalf("%v\nrun.json errors: %q", err, readManifest(t, dir.Path).Errors)
	}
	m := checkRunDir(t, dir.Path)
	if m.Status != collect.StatusComplete || len(m.Measurements) != 8 {
		t.Fatalf("status %s, %d measurements, errors %q", m.Status, len(m.Measurements), m.Errors)
	}
	server, client := lab.Host("server"), lab.Host("client")
	if len(m.Hosts) != 2 || m.Hosts[0].Facts.Kernel == "" || m.Hosts[1].Facts.MemoryBytes == 0 {
		t.Fatalf("hosts: %+v", m.Hosts)
	}
	tools := m.Hosts[1].Tools
	if !strings.HasPrefix(tools["bombardier"].Path, client.Dir) || tools["wrk"].Version == "" {
		t.Errorf("client tools: %+v", tools)
	}
	for _, mr := range m.Measurements {
		t.Logf("%s rep %d: %s on %s → %s, server cpu %.2f s, client cpu %.2f s, rss %d → %d (peak %d), %v",
			mr.Scenario, mr.Rep, mr.Tool, mr.ClientHost, mr.ServerHost, mr.ServerCPUS, mr.ClientCPUS, mr.RSSBefore, mr.RSSAfter, mr.RSSPeak, mr.End.Sub(mr.Start))
		if mr.ServerHost != "server" || mr.ClientHost != "client" {
			t.Errorf("%s rep %d: ran on %q → %q", mr.Scenario, mr.Rep, mr.ClientHost, mr.ServerHost)
		}
		if mr.Scenario == "echo" && !strings.Contains(strings.Join(mr.Argv, " "), "-f "+client.Dir+"/scratch/") {
			t.Errorf("echo: the body file is not the client host's copy: %q", mr.Argv)
		}
		url := mr.Argv[len(mr.Argv)-1]
		if !strings.Contains(url, server.Addr) {
			t.Errorf("%s: url %q is not the server host's %s", mr.Scenario, url, server.Addr)
		}
	}
	tr := m.Targets[0]
	t.Logf("target: %+v", tr)
	// The gate asks from the client host: /ip answers the client's
	// address there, and another one to the collector's own gate.
	local := "fail"
	if !lab.Namespaced {
		local = "pass" // every loopback host is 127.0.0.1 to the server
	}
	if tr.Host != "server" || tr.Conformance != "pass" || tr.LocalConformance != local || tr.ArtifactBytes == 0 || tr.BuildS == 0 {
		t.Errorf("target record: %+v", tr)
	}
	if lab.Namespaced {
		errorsSay(t, m, nil, "something between the hosts changes the answers")
	}
	set, errs := parse.ReadAll([]string{dir.Path})
	if len(errs) > 0 || len(set.Measurements) != 8 {
		t.Fatalf("parse: %v, %v", set, errs)
	}
	for _, pm := range set.Measurements {
		if pm.RPS <= 0 || pm.ServerHost != "server" || pm.ClientHost != "client" {
			t.Errorf("%s %s: rps %v on %s → %s", pm.Tool, pm.Scenario, pm.RPS, pm.ClientHost, pm.ServerHost)
		}
	}
	if p := running(t, lab, "server", server.Dir+"/bin/hi/hi"); p != "" {
		t.Errorf("left running on the server host: %s", p)
	}
	if p := running(t, lab, "client", client.Dir+"/tools/"); p != "" {
		t.Errorf("left running on the client host: %s", p)
	}
}

func TestRemoteHostUnreachable(t *testing.T) {
	lab := sshlab.Start(t, "server", "client")
	suite, out := remoteCase(t, lab, "1s", 1, "server", "client")
	suite.Hosts[1].Port = 1 // nothing listens there
	_, err := collect.Run(context.Background(), suite, collect.Options{Out: out})
	if err == nil || !strings.Contains(err.Error(), "host client") || !strings.Contains(err.Error(), "cannot be reached") {
		t.Fatalf("err = %v", err)
	}
	if _, serr := os.Stat(out); !os.IsNotExist(serr) {
		t.Errorf("a run dir was made before the host was reached: %v", serr)
	}
}

// TestRemoteLinkDropped cuts the server host's link in the middle of a
// window: the measurement fails, the server process is left on its host,
// and -resume (the link back) ends it over a fresh connection and takes
// the measurement again.
func TestRemoteLinkDropped(t *testing.T) {
	lab := sshlab.Start(t, "server", "client")
	if !lab.Namespaced {
		t.Skip("a dropped link needs network namespaces")
	}
	suite, out := remoteCase(t, lab, "4s", 1, "server", "client")
	suite.Scenarios = suite.Scenarios[:1]
	server := lab.Host("server")
	done := make(chan struct{})
	var dir *collect.RunDir
	var err error
	go func() {
		defer close(done)
		dir, err = collect.Run(context.Background(), suite, collect.Options{Out: out, Progress: collect.ProgressFor(testLog{t})})
	}()
	// Wait for the load window, then cut the link.
	deadline := time.Now().Add(60 * time.Second)
	for running(t, lab, "client", lab.Host("client").Dir+"/tools/bombardier") == "" {
		if time.Now().After(deadline) {
			t.Fatal("the load tool never started on the client host")
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(time.Second)
	lab.Drop("server")
	cut := time.Now()
	<-done
	t.Logf("collect ended %v after the cut", time.Since(cut).Round(time.Millisecond))
	if err == nil || dir == nil {
		t.Fatalf("collect with the server host cut off: %v", err)
	}
	t.Logf("collect with the link cut: %v", err)
	m := checkRunDir(t, dir.Path)
	if len(m.Leftovers) != 1 || m.Leftovers[0].Host != "server" {
		t.Fatalf("leftovers %+v, errors %q", m.Leftovers, m.Errors)
	}
	lab.Restore("server")
	if p := running(t, lab, "server", server.Dir+"/bin/hi"); p == "" {
		t.Fatal("no server process left on the server host: the test shows nothing")
	}
	resumed := time.Now()
	m = resumeToEnd(t, suite, dir.Path)
	t.Logf("resume took %v", time.Since(resumed).Round(time.Millisecond))
	if len(m.Leftovers) != 0 {
		t.Errorf("leftovers after resume: %+v", m.Leftovers)
	}
	if p := running(t, lab, "server", server.Dir+"/bin/hi"); p != "" {
		t.Errorf("still running on the server host after resume: %s", p)
	}
	var failed, good int
	for _, mr := range m.Measurements {
		if mr.Error != "" {
			failed++
			if !strings.Contains(mr.Error, "link") {
				t.Errorf("failed measurement says %q", mr.Error)
			}
		} else {
			good++
		}
	}
	if failed != 1 || good != 1 {
		t.Errorf("%d failed, %d good measurements", failed, good)
	}
}

// testLog writes progress lines to the test log, timed.
type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Logf("%s %s", time.Now().Format("15:04:05.000"), strings.TrimSpace(string(p)))
	return len(p), nil
}

// TestRemoteShardsMerged runs one suite in two shards on two host pairs
// (a hosts file each, so the suite hash stays one) and merges them: every
// measurement keeps the pair it ran on, and audit warns that comparing the
// shards' targets compares machines.
func TestRemoteShardsMerged(t *testing.T) {
	lab := sshlab.Start(t, "srv1", "cli1", "srv2", "cli2")
	base, out := remoteCase(t, lab, "1s", 1, "srv1", "cli1")
	// Two targets (one per shard) with the first scenario only.
	src := string(base.Source)
	i := strings.Index(src, "[[target]]")
	j := strings.Index(src, "[[scenario]]")
	two := strings.Replace(src[i:j], `name = "hi"`, `name = "hi-b"`, 1)
	k := strings.Index(src[j+1:], "[[scenario]]") + j + 1
	text := src[:i] + src[i:j] + two + src[j:k]
	text = strings.Replace(text, hostTables(lab, "srv1", "server", "cli1", "client"), "", 1)
	suite, err := collect.ParseSuite([]byte(text), base.File)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	pairs := [][]string{{"srv1", "server", "cli1", "client"}, {"srv2", "server", "cli2", "client"}}
	var dirs []string
	for n, pair := range pairs {
		hostsFile := filepath.Join(t.TempDir(), "hosts.toml")
		os.WriteFile(hostsFile, []byte(hostTables(lab, pair...)), 0o644)
		hosts, err := collect.LoadHosts(hostsFile)
		if err != nil {
			t.Fatal(err)
		}
		shard, _ := collect.ParseShard(strconv.Itoa(n+1) + "/2")
		dir, err := collect.Run(context.Background(), suite.WithHosts(hosts), collect.Options{Out: out, Shard: shard})
		if err != nil {
			t.Fatalf("shard %v: %v", shard, err)
		}
		dirs = append(dirs, dir.Path)
	}
	merged, err := collect.Merge(out, dirs)
	if err != nil {
		t.Fatal(err)
	}
	m := checkRunDir(t, merged.Path)
	if m.Status != collect.StatusComplete || len(m.Measurements) != 2 || len(m.Hosts) != 4 {
		t.Fatalf("merged: status %s, %d measurements, hosts %+v", m.Status, len(m.Measurements), m.Hosts)
	}
	want := map[string]string{"hi": "srv1/cli1/1/2", "hi-b": "srv2/cli2/2/2"}
	for _, mr := range m.Measurements {
		if got := mr.ServerHost + "/" + mr.ClientHost + "/" + mr.Shard; got != want[mr.Target] {
			t.Errorf("%s ran on %s, want %s", mr.Target, got, want[mr.Target])
		}
	}
	set, errs := parse.ReadAll([]string{merged.Path})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var said bool
	for _, f := range parse.Audit(set, parse.AuditOptions{}) {
		t.Logf("audit: %s", f)
		said = said || f.Rule == "host-pair"
	}
	if !said {
		t.Error("audit did not warn that the shards ran on different host pairs")
	}
}

// TestRemoteVerify gates a target built on the server host from the
// client host: /ip answers the client's address.
func TestRemoteVerify(t *testing.T) {
	lab := sshlab.Start(t, "server", "client")
	suite, _ := remoteCase(t, lab, "1s", 1, "server", "client")
	res, err := collect.Verify(context.Background(), suite, collect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].Err != nil || len(res[0].Failed) != 0 {
		t.Fatalf("verify: %+v", res)
	}
	if p := running(t, lab, "server", lab.Host("server").Dir+"/bin/hi/hi"); p != "" {
		t.Errorf("left running on the server host: %s", p)
	}
}
