package collect_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect"
	"github.com/fairbench/fairbench/collect/internal/sshlab"
	"github.com/fairbench/fairbench/parse/runjson"
)

// TestRemoteKilledCollectResumed: a `fairbench collect` killed (SIGKILL:
// nothing of it runs again) in a window leaves its {bin} folder on the
// server host and its server running there. -resume ends the server and,
// once the run is complete, removes that folder: bin/ is empty and nothing
// runs from it.
func TestRemoteKilledCollectResumed(t *testing.T) {
	t.Parallel()
	lab := sshlab.Start(t, "server", "client")
	fairbench := collect.BuiltBinary(t, "fairbench")
	base, out := remoteCase(t, lab, "4s", 1, "server", "client")
	suitePath := base.File
	// one scenario is enough: the first
	text := string(base.Source)
	text = text[:strings.Index(text, "\n[[scenario]]\nname = \"ping-wrk\"")+1]
	if err := os.WriteFile(suitePath, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	bins := filepath.Join(lab.Host("server").Dir, "bin")

	cmd := exec.Command(fairbench, "collect", "-suite", suitePath, "-out", out)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	for deadline := time.Now().Add(90 * time.Second); !strings.Contains(stderr.String(), "ping rep 1/1"); time.Sleep(20 * time.Millisecond) {
		select {
		case err := <-exited:
			t.Fatalf("collect ended (%v) before its window:\n%s", err, stderr)
		default:
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no window in 90 s:\n%s", stderr)
		}
	}
	cmd.Process.Kill()
	<-exited
	left, _ := filepath.Glob(filepath.Join(bins, "*", "hi"))
	if len(left) != 1 {
		t.Fatalf("after the kill, bin/ on the server host holds %v: want the killed collect's {bin}", left)
	}
	t.Logf("left by the killed collect: %s; running: %s", left[0], running(t, lab, "server", bins+"/"))

	runs, _ := filepath.Glob(filepath.Join(out, "*", "run.json"))
	if len(runs) != 1 {
		t.Fatalf("run dirs %v", runs)
	}
	dir := filepath.Dir(runs[0])
	if b, err := exec.Command(fairbench, "collect", "-resume", dir).CombinedOutput(); err != nil {
		t.Fatalf("resume: %v\n%s", err, b)
	}
	if m := readManifest(t, dir); m.Status != runjson.StatusComplete || len(m.Leftovers) != 0 {
		t.Errorf("after resume: status %q, leftovers %+v", m.Status, m.Leftovers)
	}
	if entries, _ := os.ReadDir(bins); len(entries) != 0 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("bin/ on the server host after the resume holds %v", names)
	}
	if p := running(t, lab, "server", bins+"/"); p != "" {
		t.Errorf("still running on the server host: %s", p)
	}
}
