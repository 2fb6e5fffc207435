package main

import (
	"github.com/fairbench/fairbench/parse/rundir"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect/hostcheck"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

// exitSuite writes a suite whose one target never needs to start (the
// rows below are refused before anything runs), with isolation as its
// [isolation] table body.
func exitSuite(t *testing.T, dir, isolation string) string {
	t.Helper()
	src := "name = \"exit\"\n\n[load]\ntool = \"wrk\"\nduration = \"1s\"\nwarmup = \"0s\"\nrepetitions = 1\n\n" +
		"[isolation]\n" + isolation + "\n" +
		"[[target]]\nname = \"one\"\nstart = [\"/nonexistent/server\"]\n\n" +
		"[[scenario]]\nname = \"ping\"\nrequest = { method = \"GET\", path = \"/\" }\nexpect = { status = 200 }\n"
	file := filepath.Join(dir, "suite"+strings.NewReplacer(" ", "", "\"", "", "=", "").Replace(isolation)+".toml")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestCollectMergeExitStatus: one row per condition of the exit status
// table that collect and merge meet before they run anything: bad usage
// and refused inputs are 2, whichever layer finds them.
func TestCollectMergeExitStatus(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "runs")
	good := exitSuite(t, dir, "")
	shard1, shard2 := writeShard(t, "1/2", "a"), writeShard(t, "2/2", "b")
	link := filepath.Join(dir, "link")
	if err := os.Symlink(shard2, link); err != nil {
		t.Fatal(err)
	}
	fifoRun, linkedSuite := writeShard(t, "1/2", "a"), writeShard(t, "1/2", "a")
	os.Remove(filepath.Join(fifoRun, "run.json"))
	if err := syscall.Mkfifo(filepath.Join(fifoRun, "run.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(linkedSuite, "suite.toml"))
	if err := os.Symlink("/etc/passwd", filepath.Join(linkedSuite, "suite.toml")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		code int
		says string
	}{
		{"unknown -only target", []string{"collect", "-suite", good, "-out", out, "-only", "nope"}, 2, `no target "nope"`},
		{"backwards CPU range", []string{"collect", "-suite", exitSuite(t, dir, `server_cpus = "3-1"`), "-out", out}, 2, "server_cpus"},
		{"CPU beyond the kernel's limit", []string{"collect", "-suite", exitSuite(t, dir, `client_cpus = "99999"`), "-out", out}, 2, "client_cpus"},
		{"CPU the machine lacks", []string{"collect", "-suite", exitSuite(t, dir, `server_cpus = "4000"`), "-out", out}, 2, "no CPU 4000"},
		{"verify: unknown -only target", []string{"verify", "-suite", good, "-only", "nope"}, 2, `no target "nope"`},
		{"verify: CPU the machine lacks", []string{"verify", "-suite", exitSuite(t, dir, `server_cpus = "4000"`)}, 2, "no CPU 4000"},
		{"merge: -out is an input", []string{"merge", "-out", shard1, shard1, shard2}, 2, "-out " + shard1},
		{"merge: -out inside an input", []string{"merge", "-out", filepath.Join(shard2, "merged"), shard1, shard2}, 2, "inside " + shard2},
		{"merge: -out inside an input through a link", []string{"merge", "-out", filepath.Join(link, "dumps"), shard1, shard2}, 2, "inside " + shard2},
		{"resume: run.json is a FIFO", []string{"collect", "-resume", fifoRun}, 2, "not a regular file (a FIFO)"},
		{"resume: suite.toml links out", []string{"collect", "-resume", linkedSuite}, 2, "outside the run dir"},
		{"merge: run.json is a FIFO", []string{"merge", "-out", out, fifoRun, shard2}, 2, "not a regular file (a FIFO)"},
		{"unknown shard size", []string{"collect", "-suite", good, "-out", out, "-shard", "1/5"}, 2, "-shard 1/5"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stderr string
			var code int
			done := make(chan bool)
			go func() { _, stderr, code = runCLI(t, c.args...); close(done) }()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				t.Fatalf("fairbench %s: still running after 20s", strings.Join(c.args, " "))
			}
			if code != c.code || !strings.Contains(stderr, c.says) {
				t.Errorf("fairbench %s: exit %d, want %d and %q\n%s", strings.Join(c.args, " "), code, c.code, c.says, stderr)
			}
		})
	}
	if entries, _ := os.ReadDir(out); len(entries) > 0 {
		t.Errorf("a refused collect wrote %d run dirs into %s", len(entries), out)
	}
	for _, shard := range []string{shard1, shard2} {
		if entries, _ := os.ReadDir(shard); len(entries) != 3 { // run.json, suite.toml, dumps
			t.Errorf("a refused merge wrote into its input %s: %d entries", shard, len(entries))
		}
	}
}

// TestResumeAfterKill: a run dir whose collect was killed keeps its .lock
// (with that process's id) and .reserve; -resume goes on, and says whose
// lock it took over.
func TestResumeAfterKill(t *testing.T) {
	st := mustRead(t, exitSuite(t, t.TempDir(), ""))
	s, err := suite.ParseSuite(st, "killed.toml")
	if err != nil {
		t.Fatal(err)
	}
	d, err := rundir.Create(t.TempDir(), runjson.Manifest{
		Schema: runjson.SchemaVersion, ID: "r1", Suite: s.Name, SuiteSHA256: s.SHA256(),
		Status: runjson.StatusRunning, Start: time.Now().UTC(), Facts: hostcheck.AskFacts(),
	}, st)
	if err != nil {
		t.Fatal(err)
	}
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	pid := strconv.Itoa(gone.Process.Pid)
	os.WriteFile(filepath.Join(d.Path, ".lock"), []byte(pid+"\n"), 0o644)
	os.WriteFile(filepath.Join(d.Path, ".reserve"), make([]byte, 4096), 0o644)
	_, stderr, code := runCLI(t, "collect", "-resume", d.Path)
	if code == 2 || !strings.Contains(stderr, "process "+pid+", which no longer runs") {
		t.Errorf("exit %d, want the resume to go on and name process %s\n%s", code, pid, stderr)
	}
	for _, name := range []string{".lock", ".reserve"} {
		if _, err := os.Stat(filepath.Join(d.Path, name)); !os.IsNotExist(err) {
			t.Errorf("%s still there after the resume: %v", name, err)
		}
	}
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
