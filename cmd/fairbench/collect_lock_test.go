package main

import (
	"github.com/fairbench/fairbench/collect/hostcheck"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"

	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/parse/rundir"
)

// TestCollectResumeLocked: a second `collect -resume RUNDIR` while another
// holds the run dir exits 2 and names the holder, touching nothing.
func TestCollectResumeLocked(t *testing.T) {
	st := []byte(`name = "lock"

[load]
tool = "bombardier"
duration = "1s"
repetitions = 1

[[target]]
name = "one"
start = ["/nonexistent/server"]

[[scenario]]
name = "ping"
request = { method = "GET", path = "/" }
expect = { status = 200, body = "Hi" }
`)
	s, err := suite.ParseSuite(st, "lock.toml")
	if err != nil {
		t.Fatal(err)
	}
	d, err := rundir.Create(t.TempDir(), runjson.Manifest{
		Schema: runjson.SchemaVersion, ID: "r1", Suite: s.Name, SuiteSHA256: s.SHA256(),
		Status: runjson.StatusInterrupted, Start: time.Now().UTC(), Facts: hostcheck.AskFacts(),
	}, st)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Lock(); err != nil { // the first collect
		t.Fatal(err)
	}
	defer d.Unlock()
	before, _ := os.ReadFile(d.Path + "/run.json")
	stdout, stderr, code := runCLI(t, "collect", "-resume", d.Path)
	if code != 2 || !strings.Contains(stderr, "process "+strconv.Itoa(os.Getpid())) {
		t.Errorf("exit %d, want 2 and the holder named\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	if after, _ := os.ReadFile(d.Path + "/run.json"); string(after) != string(before) {
		t.Errorf("the refused resume changed run.json:\n%s", after)
	}
}
