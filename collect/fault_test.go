package collect_test

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect"
	"github.com/fairbench/fairbench/collect/loadgen"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

// TestTargetExitsDuringWarmup: the server dies in its warm-up. The run
// says so with the server's last output, keeps the warm-up dump, is marked
// failed, leaves no process, and -resume takes the measurement.
func TestTargetExitsDuringWarmup(t *testing.T) {
	hi := collect.BuiltBinary(t, "hiserver")
	fc := newFaultCase(t, hi, "exit-after 50", "1s", 1, "")
	dir, err := runFault(t, fc.suite, collect.Options{Out: fc.out})
	if err == nil {
		t.Fatal("a run whose target died in its warm-up succeeded")
	}
	m := checkRunDir(t, dir.Path)
	if m.Status != runjson.StatusFailed {
		t.Errorf("status %q, want %q", m.Status, runjson.StatusFailed)
	}
	errorsSay(t, m, err, "one exited during the warm-up of ping")
	errorsSay(t, m, err, "hiserver: injected crash after ") // 50 or more: concurrent requests race to the exit
	errorsSay(t, m, err, "-resume "+dir.Path)
	for _, mr := range m.Measurements {
		if !mr.Warmup {
			t.Errorf("%s measured after the server died in the warm-up", mr.Dump)
		}
	}
	fc.heal(t)
	resumeToEndUnlessShort(t, fc.suite, dir.Path)
}

// TestTargetCrashesMidMeasurement: the server dies in a measurement window.
// The measurement is kept with its dump and marked failed; -resume takes it
// again as 1-2.txt.
func TestTargetCrashesMidMeasurement(t *testing.T) {
	hi := collect.BuiltBinary(t, "hiserver")
	fc := newFaultCase(t, hi, "exit-after 50", "0s", 1, "")
	dir, err := runFault(t, fc.suite, collect.Options{Out: fc.out})
	if err == nil {
		t.Fatal("a run whose target crashed mid-measurement succeeded")
	}
	m := checkRunDir(t, dir.Path)
	if m.Status != runjson.StatusFailed || len(m.Measurements) != 1 {
		t.Fatalf("status %q with %d measurements, want failed with 1", m.Status, len(m.Measurements))
	}
	if mr := m.Measurements[0]; !strings.Contains(mr.Error, "one exited during the window") || !strings.Contains(mr.Error, "injected crash") {
		t.Errorf("measurement error %q does not say the server died", mr.Error)
	}
	fc.heal(t)
	done := resumeToEnd(t, fc.suite, dir.Path)
	if last := done.Measurements[len(done.Measurements)-1]; last.Dump != "dumps/one/ping/1-2.txt" {
		t.Errorf("taken again as %s, want dumps/one/ping/1-2.txt", last.Dump)
	}
}

// TestTargetNeverReady: a server that never listens is given up after its
// ready_timeout, with its last output in the error.
func TestTargetNeverReady(t *testing.T) {
	hi := collect.BuiltBinary(t, "hiserver")
	fc := newFaultCase(t, hi, "never-ready", "0s", 1, "")
	// 10 s, the other fault cases' bound, is for a busy machine; this one
	// waits it out, so it is as short as a duration in a suite is written.
	s, err := suite.ParseSuite([]byte(strings.Replace(string(fc.suite.Source), `ready_timeout = "10s"`, `ready_timeout = "1s"`, 1)), fc.suite.File)
	if err != nil {
		t.Fatal(err)
	}
	fc.suite = s
	start := time.Now()
	dir, err := runFault(t, fc.suite, collect.Options{Out: fc.out})
	if err == nil {
		t.Fatal("a run whose target never became ready succeeded")
	}
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("took %v: ready_timeout = \"1s\" was not kept", took)
	}
	m := checkRunDir(t, dir.Path)
	if m.Status != runjson.StatusFailed {
		t.Errorf("status %q, want %q", m.Status, runjson.StatusFailed)
	}
	errorsSay(t, m, err, "one not ready after 1s; its last output:\nhiserver: waiting for a database that never comes")
	if len(m.Targets) != 1 || m.Targets[0].Error == "" {
		t.Errorf("targets %+v: want one with its error", m.Targets)
	}
	fc.heal(t)
	resumeToEndUnlessShort(t, fc.suite, dir.Path)
}

// TestPortTakenWholeRun: a target's fixed port is held by another process.
// The target is skipped with an error naming the port, nothing is started,
// and -resume measures it once the port is free.
func TestPortTakenWholeRun(t *testing.T) {
	hi := collect.BuiltBinary(t, "hiserver")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	fc := newFaultCase(t, hi, "", "0s", 1, "port = "+strconv.Itoa(port))
	dir, err := runFault(t, fc.suite, collect.Options{Out: fc.out})
	if err == nil {
		t.Fatal("a run on a taken port succeeded")
	}
	m := checkRunDir(t, dir.Path)
	errorsSay(t, m, err, "port "+strconv.Itoa(port)+" is taken")
	if len(m.Measurements) != 0 || m.Status != runjson.StatusFailed {
		t.Errorf("status %q with %d measurements, want failed with none", m.Status, len(m.Measurements))
	}
	l.Close()
	resumeToEndUnlessShort(t, fc.suite, dir.Path)
}

// fakeTool writes a shell script standing in for bombardier and returns
// the tools to give in Options.ToolPaths: fault injection only.
func fakeTool(t *testing.T, script string) map[string]string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bombardier")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"bombardier": path}
}

// TestLoadToolMissing: a tool override that names nothing fails before any
// run dir is made.
func TestLoadToolMissing(t *testing.T) {
	hi := collect.BuiltBinary(t, "hiserver")
	fc := newFaultCase(t, hi, "", "0s", 1, "")
	t.Setenv(loadgen.ToolEnv("bombardier"), "/nonexistent/bombardier")
	_, err := runFault(t, fc.suite, collect.Options{Out: fc.out})
	if err == nil || !strings.Contains(err.Error(), "FAIRBENCH_BOMBARDIER=/nonexistent/bombardier: ") {
		t.Errorf("err = %v, want it to name FAIRBENCH_BOMBARDIER", err)
	}
	if entries, _ := os.ReadDir(fc.out); len(entries) > 0 {
		t.Errorf("a run dir was made: %v", entries)
	}
}

// TestLoadToolFails: the load generator dies of a signal, or hangs and is
// killed with its whole process group after its window, request timeout
// and grace. What it printed is kept, its exit status and error recorded,
// the run fails, and -resume (with the real bombardier) takes the
// measurement again.
func TestLoadToolFails(t *testing.T) {
	hi := collect.BuiltBinary(t, "hiserver")
	for _, c := range []struct{ name, script, wantErr, wantDump string }{
		{"crash", `echo '{"partial":'; kill -SEGV $$`, "signal: segmentation fault", "{\"partial\":\n"},
		{"hang", `echo started; sleep 600 & sleep 600`, "ran past its window (1s) + timeout + grace, 2.5s in all: killed", "started\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fc := newFaultCase(t, hi, "", "0s", 1, "")
			tools := fakeTool(t, c.script)
			start := time.Now()
			dir, err := runFault(t, fc.suite, collect.Options{Out: fc.out, ToolPaths: tools, ToolGrace: 500 * time.Millisecond})
			if err == nil {
				t.Fatal("the run succeeded")
			}
			if took := time.Since(start); took > 30*time.Second {
				t.Errorf("took %v with a 2.5s limit on the tool", took)
			}
			m := checkRunDir(t, dir.Path)
			if len(m.Measurements) != 1 {
				t.Fatalf("%d measurements, want 1", len(m.Measurements))
			}
			mr := m.Measurements[0]
			if mr.ExitStatus == 0 || !strings.Contains(mr.Error, c.wantErr) {
				t.Errorf("exit status %d, error %q: want non-zero and %q", mr.ExitStatus, mr.Error, c.wantErr)
			}
			if b, _ := os.ReadFile(filepath.Join(dir.Path, mr.Dump)); string(b) != c.wantDump {
				t.Errorf("dump %q, want %q: what the tool printed", b, c.wantDump)
			}
			resumeToEndUnlessShort(t, fc.suite, dir.Path)
		})
	}
}

// TestLoadToolPrintsGarbage: a tool that exits 0 with bytes no parser
// reads. The collector keeps them byte for byte with exit status 0, and
// fails the measurement: it holds no count.
func TestLoadToolPrintsGarbage(t *testing.T) {
	hi := collect.BuiltBinary(t, "hiserver")
	fc := newFaultCase(t, hi, "", "0s", 1, "")
	tools := fakeTool(t, `printf 'Statistics \000\377 req/s: lots\r\n'`)
	dir, err := runFault(t, fc.suite, collect.Options{Out: fc.out, ToolPaths: tools})
	if err == nil {
		t.Fatal("a run whose tool printed garbage succeeded")
	}
	m := checkRunDir(t, dir.Path)
	if len(m.Measurements) != 1 || m.Status != runjson.StatusFailed {
		t.Fatalf("status %q, %d measurements: want failed with 1", m.Status, len(m.Measurements))
	}
	mr := m.Measurements[0]
	if mr.ExitStatus != 0 || !strings.Contains(mr.Error, "binary data") || m.Tools["bombardier"].Version != "unknown" {
		t.Errorf("exit %d, error %q, version %q: want 0, the parse error, unknown", mr.ExitStatus, mr.Error, m.Tools["bombardier"].Version)
	}
	if b, _ := os.ReadFile(filepath.Join(dir.Path, mr.Dump)); string(b) != "Statistics \x00\xff req/s: lots\r\n" {
		t.Errorf("dump %q, want the bytes as printed", b)
	}
}

// TestServiceFailsToStart: a service with a bad argv, and one whose
// readiness is never met, stop the run before any target starts, with
// nothing left running.
func TestServiceFailsToStart(t *testing.T) {
	hi := collect.BuiltBinary(t, "hiserver")
	for _, c := range []struct{ name, service, want string }{
		{"bad argv", `start = ["/nonexistent/db"]`, "start db: fork/exec /nonexistent/db: no such file or directory"},
		{"never ready", `start = ["sleep", "60"]` + "\nready = [\"false\"]\nready_timeout = \"1s\"", "service db: db not ready after 1s"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fc := newFaultCase(t, hi, "", "0s", 1, "")
			src := string(fc.suite.Source) + "\n[[service]]\nname = \"db\"\nversion = [\"echo\", \"db 1.0\"]\n" + c.service + "\n"
			s, err := suite.ParseSuite([]byte(src), fc.suite.File)
			if err != nil {
				t.Fatal(err)
			}
			dir, err := runFault(t, s, collect.Options{Out: fc.out})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
			m := checkRunDir(t, dir.Path)
			if m.Status != runjson.StatusFailed || len(m.Targets) != 0 || len(m.Measurements) != 0 {
				t.Errorf("status %q, %d targets, %d measurements: want failed before any target", m.Status, len(m.Targets), len(m.Measurements))
			}
		})
	}
}

// TestServicePostgresFailsToStart starts a real PostgreSQL with a setting
// it refuses: it exits at once, and the run stops before any target with
// PostgreSQL's own complaint, leaving no postgres process.
func TestServicePostgresFailsToStart(t *testing.T) {
	if testing.Short() {
		t.Skip("starts PostgreSQL")
	}
	if bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin"); len(bins) > 0 {
		t.Setenv("PATH", os.Getenv("PATH")+":"+bins[len(bins)-1])
	}
	for _, c := range []string{"initdb", "postgres"} {
		if _, err := exec.LookPath(c); err != nil {
			collect.Missing(t, c, "apt-get install postgresql")
		}
	}
	hi := collect.BuiltBinary(t, "hiserver")
	fc := newFaultCase(t, hi, "", "0s", 1, "")
	src := string(fc.suite.Source) + `
[[service]]
name = "pg"
user = "postgres"
version = ["postgres", "--version"]
init = ["initdb", "-D", "{dir}/data", "-U", "bench", "--auth=trust", "--no-sync"]
start = ["postgres", "-D", "{dir}/data", "-p", "{port}", "-k", "{dir}", "-c", "no_such_setting=1"]
ready_timeout = "20s"
`
	s, err := suite.ParseSuite([]byte(src), fc.suite.File)
	if err != nil {
		t.Fatal(err)
	}
	dir, err := runFault(t, s, collect.Options{Out: fc.out})
	if err == nil {
		t.Fatal("a run whose PostgreSQL refused to start succeeded")
	}
	for _, want := range []string{"service pg: pg exited before it was ready", `unrecognized configuration parameter "no_such_setting"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not say %q:\n%v", want, err)
		}
	}
	if m := checkRunDir(t, dir.Path); m.Status != runjson.StatusFailed || len(m.Targets) != 0 {
		t.Errorf("status %q with %d targets: want failed before any target", m.Status, len(m.Targets))
	}
}
