package collect_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect"
	"github.com/fairbench/fairbench/collect/internal/sshlab"
	"github.com/fairbench/fairbench/collect/loadgen"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/audit"
	"github.com/fairbench/fairbench/parse/rundir"
	"github.com/fairbench/fairbench/parse/runjson"
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
rate = 1000              # plumbing, not speed: an uncapped window takes both cores

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
load = { tool = "wrk", threads = 1, rate = 0 }   # wrk has no rate cap

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
func remoteCase(t *testing.T, lab *sshlab.Lab, window string, reps int, server, client string) (*suite.Suite, string) {
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
	s, err := suite.ParseSuite([]byte(text), filepath.Join(work, "suite.toml"))
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

// prebuilt is the suite text of base with hiserver built here, copied to
// the server host with the target's folder and started there as start,
// instead of built there: for tests whose point is not the build
// (TestRemoteCollect builds there).
func prebuilt(t *testing.T, base *suite.Suite, start string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "hi")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("cp", collect.BuiltBinary(t, "hiserver"), filepath.Join(dir, "hi")).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	src := strings.NewReplacer(`dir = "`+base.Targets[0].Dir+`"`, `dir = "`+dir+`"`, `start = ["{bin}/hi"]`, `start = [`+strconv.Quote(start)+`]`,
		`artifact = "{bin}/hi"`, "").Replace(string(base.Source))
	return regexp.MustCompile(`(?m)^build = .*$`).ReplaceAllString(src, "")
}

// running lists the processes whose command line starts with the program
// path (the ssh commands that start them start with "ssh").
func running(t *testing.T, lab *sshlab.Lab, host, program string) string {
	out, _ := lab.Exec(host, "pgrep", "-af", "^"+regexp.QuoteMeta(program))
	return strings.TrimSpace(string(out))
}

func TestRemoteCollect(t *testing.T) {
	t.Parallel()
	lab := sshlab.Start(t, "server", "client")
	st, out := remoteCase(t, lab, "1s", 1, "server", "client")
	dir, err := collect.Run(context.Background(), st, collect.Options{Out: out})
	if err != nil {
		t.Fatalf("%v\nrun.json errors: %q", err, readManifest(t, dir.Path).Errors)
	}
	m := checkRunDir(t, dir.Path)
	if m.Status != runjson.StatusComplete || len(m.Measurements) != 4 {
		t.Fatalf("status %s, %d measurements, errors %q", m.Status, len(m.Measurements), m.Errors)
	}
	server, client := lab.Host("server"), lab.Host("client")
	if len(m.Hosts) != 2 || m.Hosts[0].Facts.Kernel == "" || m.Hosts[1].Facts.MemoryBytes == 0 {
		t.Fatalf("hosts: %+v", m.Hosts)
	}
	tools := m.Hosts[1].Tools
	// run.json's paths are portable ({tmp}/…): LocalPath reads them back
	if !strings.HasPrefix(rundir.LocalPath(tools["bombardier"].Path, ""), client.Dir) || tools["wrk"].Version == "" {
		t.Errorf("client tools: %+v", tools)
	}
	for _, mr := range m.Measurements {
		t.Logf("%s rep %d: %s on %s → %s, server cpu %.2f s, client cpu %.2f s, rss %d → %d (peak %d), %v",
			mr.Scenario, mr.Rep, mr.Tool, mr.ClientHost, mr.ServerHost, mr.ServerCPUSeconds, mr.ClientCPUSeconds, mr.RSSBefore, mr.RSSAfter, mr.RSSPeak, mr.End.Sub(mr.Start))
		if mr.ServerHost != "server" || mr.ClientHost != "client" {
			t.Errorf("%s rep %d: ran on %q → %q", mr.Scenario, mr.Rep, mr.ClientHost, mr.ServerHost)
		}
		// /proc/stat is read on both hosts through ssh (hostcheck.Window).
		if in := mr.Interference; in == nil || in.Server == nil || in.Client == nil || in.Server.CapacityS < 1 || in.Client.CapacityS < 1 || in.Server.OursS < mr.ServerCPUSeconds-0.001 {
			t.Errorf("%s rep %d: interference %+v, server %+v, client %+v", mr.Scenario, mr.Rep, in, in.Server, in.Client)
		}
		if f := slices.Index(mr.Argv, "-f"); mr.Scenario == "echo" && (f < 0 || f+1 == len(mr.Argv) || !strings.HasPrefix(rundir.LocalPath(mr.Argv[f+1], ""), client.Dir+"/scratch/")) {
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
	if len(errs) > 0 || len(set.Measurements) != 4 {
		t.Fatalf("parse: %v, %v", set, errs)
	}
	for _, pm := range set.Measurements {
		if pm.RPS <= 0 || pm.ServerHost != "server" || pm.ClientHost != "client" {
			t.Errorf("%s %s: rps %v on %s → %s", pm.Tool, pm.Scenario, pm.RPS, pm.ClientHost, pm.ServerHost)
		}
	}
	if p := running(t, lab, "server", server.Dir+"/bin/"); p != "" {
		t.Errorf("left running on the server host: %s", p)
	}
	if p := running(t, lab, "client", client.Dir+"/tools/"); p != "" {
		t.Errorf("left running on the client host: %s", p)
	}
}

func TestRemoteHostUnreachable(t *testing.T) {
	t.Parallel()
	lab := sshlab.Start(t, "server", "client")
	st, out := remoteCase(t, lab, "1s", 1, "server", "client")
	st.Hosts[1].Port = 1 // nothing listens there
	_, err := collect.Run(context.Background(), st, collect.Options{Out: out})
	if err == nil || !strings.Contains(err.Error(), "host client") || !strings.Contains(err.Error(), "cannot be reached") {
		t.Fatalf("err = %v", err)
	}
	if _, serr := os.Stat(out); !os.IsNotExist(serr) {
		t.Errorf("a run dir was made before the host was reached: %v", serr)
	}
}

// TestRemoteLinkDroppedSoak cuts the server host's link in the middle of rep
// 1's window: the measurement fails and the server process is left on its
// host, out of reach. The link comes back; rep 2 reconnects, ends the
// left process over a fresh connection first (never two servers at once),
// and -resume takes rep 1 again.
func TestRemoteLinkDroppedSoak(t *testing.T) {
	collect.Soak(t, "collects over SSH while the link drops, about a minute")
	t.Parallel()
	lab := sshlab.Start(t, "server", "client")
	if !lab.Namespaced {
		t.Skip("a dropped link needs network namespaces")
	}
	base, out := remoteCase(t, lab, "4s", 2, "server", "client")
	// The link is the point, not the build (TestRemoteCollect's).
	servers := lab.Host("server").Dir + "/targets/hi/hi"
	st, perr := suite.ParseSuite([]byte(prebuilt(t, base, servers)), base.File)
	if perr != nil {
		t.Fatal(perr)
	}
	st.Scenarios = st.Scenarios[:1]
	done := make(chan struct{})
	var dir *collect.RunDir
	var err error
	go func() {
		defer close(done)
		// bombardier does not stop at the end of its window while its
		// server is cut off: a short grace kills it soon after.
		dir, err = collect.Run(context.Background(), st, collect.Options{Out: out, Progress: collect.ProgressFor(testLog{t}), ToolGrace: 2 * time.Second})
	}()
	deadline := time.Now().Add(3 * time.Minute)
	wait := func(what string, ok func() bool) {
		t.Helper()
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("waited in vain for %s", what)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	// A load run, not the version check made when bombardier is copied.
	wait("the load tool on the client host", func() bool {
		return running(t, lab, "client", lab.Host("client").Dir+"/tools/bombardier-"+loadgen.BombardierVersion+" -c") != ""
	})
	time.Sleep(time.Second) // the cut comes a second into the 4 s window
	lab.Drop("server")
	cut := time.Now()
	wait("the collector to give up on the server", func() bool {
		m, _ := filepath.Glob(filepath.Join(out, "*", "run.json"))
		b, _ := os.ReadFile(m[0])
		return strings.Contains(string(b), "could not be ended")
	})
	// Keep-alives end the master within 6 s, the tool is killed 2 s past
	// its window, a fresh connection times out in 10 s: about 20 s. Over
	// 40 s means reads wait for a new connection's timeout.
	if gaveUp := time.Since(cut); gaveUp > 40*time.Second {
		t.Errorf("gave up %v after the cut, want under 40 s", gaveUp.Round(time.Millisecond))
	} else {
		t.Logf("gave up %v after the cut", gaveUp.Round(time.Millisecond))
	}
	if running(t, lab, "server", servers) == "" {
		t.Fatal("no server process left on the server host: the test shows nothing")
	}
	lab.Restore("server")
	most := 0
	for {
		select {
		case <-done:
		default:
			if n := len(strings.Fields(running(t, lab, "server", servers))) / 2; n > most {
				most = n
			}
			time.Sleep(100 * time.Millisecond)
			continue
		}
		break
	}
	if err == nil || dir == nil {
		t.Fatalf("collect with rep 1 cut off: %v", err)
	}
	if most > 1 {
		t.Errorf("%d servers ran at once on the server host", most)
	}
	m := checkRunDir(t, dir.Path)
	if len(m.Leftovers) != 0 {
		t.Errorf("leftovers at the end of the run: %+v", m.Leftovers)
	}
	if p := running(t, lab, "server", servers); p != "" {
		t.Errorf("still running on the server host: %s", p)
	}
	resumed := time.Now()
	// Not runFault: it would take the parallel tests' processes for
	// orphans; what the resume leaves on the server host is checked here.
	m = resumeWith(t, st, dir.Path, runBounded)
	t.Logf("resume took %v", time.Since(resumed).Round(time.Millisecond))
	if p := running(t, lab, "server", servers); p != "" {
		t.Errorf("still running on the server host after the resume: %s", p)
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
	if failed != 1 || good != 2 {
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
	t.Parallel()
	lab := sshlab.Start(t, "srv1", "cli1", "srv2", "cli2")
	base, out := remoteCase(t, lab, "1s", 1, "srv1", "cli1")
	// Two targets (one per shard) with the first scenario only, started
	// in their folders there.
	src := prebuilt(t, base, "./hi")
	i := strings.Index(src, "[[target]]")
	j := strings.Index(src, "[[scenario]]")
	two := strings.Replace(src[i:j], `name = "hi"`, `name = "hi-b"`, 1)
	k := strings.Index(src[j+1:], "[[scenario]]") + j + 1
	text := src[:i] + src[i:j] + two + src[j:k]
	text = strings.Replace(text, hostTables(lab, "srv1", "server", "cli1", "client"), "", 1)
	st, err := suite.ParseSuite([]byte(text), base.File)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	// The shards run at once, as on two host pairs they would.
	pairs := [][]string{{"srv1", "server", "cli1", "client"}, {"srv2", "server", "cli2", "client"}}
	dirs := make([]string, len(pairs))
	errs := make([]error, len(pairs))
	var wg sync.WaitGroup
	for n, pair := range pairs {
		hostsFile := filepath.Join(t.TempDir(), "hosts.toml")
		os.WriteFile(hostsFile, []byte(hostTables(lab, pair...)), 0o644)
		hosts, err := suite.LoadHosts(hostsFile)
		if err != nil {
			t.Fatal(err)
		}
		shard, _ := collect.ParseShard(strconv.Itoa(n+1) + "/2")
		withHosts, err := st.WithHosts(hosts)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			// An out folder each: run ids are to the second.
			dir, err := collect.Run(context.Background(), withHosts, collect.Options{Out: filepath.Join(out, strconv.Itoa(n+1)), Shard: shard})
			if err != nil {
				errs[n] = fmt.Errorf("shard %v: %w", shard, err)
				return
			}
			dirs[n] = dir.Path
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	merged, err := collect.Merge(out, dirs)
	if err != nil {
		t.Fatal(err)
	}
	m := checkRunDir(t, merged.Path)
	if m.Status != runjson.StatusComplete || len(m.Measurements) != 2 || len(m.Hosts) != 4 {
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
	for _, f := range audit.Audit(set, audit.AuditOptions{}) {
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
	t.Parallel()
	lab := sshlab.Start(t, "server", "client")
	st, _ := remoteCase(t, lab, "1s", 1, "server", "client")
	res, err := collect.Verify(context.Background(), st, collect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].Err != nil || len(res[0].Failed) != 0 {
		t.Fatalf("verify: %+v", res)
	}
	if p := running(t, lab, "server", lab.Host("server").Dir+"/bin/"); p != "" {
		t.Errorf("left running on the server host: %s", p)
	}
}

// TestRemoteDirAlreadyThere declares the target's files already on the
// server host (remote_dir): nothing is copied, the build runs there.
func TestRemoteDirAlreadyThere(t *testing.T) {
	t.Parallel()
	lab := sshlab.Start(t, "server", "client")
	base, _ := remoteCase(t, lab, "1s", 1, "server", "client")
	there := filepath.Join(lab.Host("server").Dir, "apps", "hi")
	os.MkdirAll(filepath.Dir(there), 0o755)
	if out, err := exec.Command("cp", "-r", base.Targets[0].Dir, there).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	src := strings.Replace(string(base.Source), `dir = "`+base.Targets[0].Dir+`"`, `remote_dir = "apps/hi"`, 1)
	st, err := suite.ParseSuite([]byte(src), base.File)
	if err != nil {
		t.Fatal(err)
	}
	res, err := collect.Verify(context.Background(), st, collect.Options{})
	if err != nil || len(res) != 1 || res[0].Err != nil || len(res[0].Failed) != 0 {
		t.Fatalf("verify: %+v, %v", res, err)
	}
	if _, err := os.Stat(filepath.Join(lab.Host("server").Dir, "targets")); !os.IsNotExist(err) {
		t.Errorf("the target was copied although it was there: %v", err)
	}
	// the collect's own {bin} is gone with it; the build cache's entry stays
	if built, _ := filepath.Glob(filepath.Join(lab.Host("server").Dir, "cache", "bin", "*", "out", "hi")); len(built) != 1 {
		t.Errorf("not built on the server host: build cache entries %v", built)
	}
}

// TestRemoteServicePostgres starts a real PostgreSQL on the server host,
// as user postgres (runuser: the lab logs in as root), seeds it there and
// hands its port to the target, which runs on the same host.
func TestRemoteServicePostgres(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts PostgreSQL")
	}
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	if len(bins) == 0 {
		collect.Missing(t, "PostgreSQL", "apt-get install postgresql")
	}
	bin := bins[len(bins)-1]
	lab := sshlab.Start(t, "server", "client")
	base, out := remoteCase(t, lab, "1s", 1, "server", "client")
	// postgres must reach its data folder: a work folder it may traverse.
	work, err := os.MkdirTemp("", "fb-remote-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(work) })
	os.Chmod(work, 0o755)
	src := strings.Replace(prebuilt(t, base, "./hi"), strconv.Quote(lab.Host("server").Dir), strconv.Quote(work), 1)
	src = strings.Replace(src, `env = { BODY = "Hi" }`, `env = { BODY = "Hi", DSN = "postgres://bench@127.0.0.1:{pg.port}/postgres" }`, 1)
	src = strings.Replace(src, "[[target]]", `[[service]]
name = "pg"
user = "postgres"
version = ["`+bin+`/postgres", "--version"]
init = ["`+bin+`/initdb", "-D", "{dir}/data", "-U", "bench", "--auth=trust", "--no-sync"]
start = ["`+bin+`/postgres", "-D", "{dir}/data", "-p", "{port}", "-k", "{dir}", "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"]
ready = ["`+bin+`/pg_isready", "-q", "-h", "127.0.0.1", "-p", "{port}"]
seed = ["`+bin+`/psql", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", "{port}", "-U", "bench", "-d", "postgres", "-c", "CREATE TABLE world (id int); INSERT INTO world VALUES (1)"]

[[target]]`, 1)
	st, err := suite.ParseSuite([]byte(src), base.File)
	if err != nil {
		t.Fatal(err)
	}
	st.Scenarios = st.Scenarios[:1]
	dir, err := collect.Run(context.Background(), st, collect.Options{Out: out})
	if err != nil {
		t.Fatalf("%v\nrun.json errors: %q", err, readManifest(t, dir.Path).Errors)
	}
	m := checkRunDir(t, dir.Path)
	if len(m.Services) != 1 || m.Services[0].SeedS <= 0 || !strings.HasPrefix(m.Services[0].Version, "postgres (PostgreSQL)") {
		t.Fatalf("services %+v", m.Services)
	}
	if v := m.Hosts[0].Tools["pg"]; !strings.HasPrefix(v.Version, "postgres (PostgreSQL)") {
		t.Errorf("server host tools[pg] = %+v", v)
	}
	if p := running(t, lab, "server", bin+"/postgres"); p != "" {
		t.Errorf("PostgreSQL still runs on the server host: %s", p)
	}
	if _, err := os.Stat(filepath.Join(work, "services", "pg")); !os.IsNotExist(err) {
		t.Errorf("the service's scratch folder is still there: %v", err)
	}
}
