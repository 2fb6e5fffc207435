package collect_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/collect"
	"github.com/fairbench/fairbench/collect/internal/sshlab"
	"github.com/fairbench/fairbench/parse/runjson"
)

// TestRemoteKilledCollectResumedSoak: a `fairbench collect` killed (SIGKILL:
// nothing of it runs again) in a window leaves its {bin} folder on the
// server host and its server running there. -resume ends the server and,
// once the run is complete, removes that folder: bin/ is empty and nothing
// runs from it. The resume says what it ended; it keeps the folder while
// the run goes on (no "removed").
func TestRemoteKilledCollectResumedSoak(t *testing.T) {
	collect.Soak(t, "kills and resumes a collect over SSH, about half a minute")
	t.Parallel()
	lab := sshlab.Start(t, "server", "client")
	fairbench := collect.BuiltBinary(t, "fairbench")
	bins := filepath.Join(lab.Host("server").Dir, "bin")

	killed := startCollect(t, fairbench, oneScenarioSuite(t, lab, "4s"))
	killed.waitFor(t, "ping rep 1/1")
	killed.cmd.Process.Kill()
	<-killed.exited
	left, _ := filepath.Glob(filepath.Join(bins, "*", "hi"))
	if len(left) != 1 {
		t.Fatalf("after the kill, bin/ on the server host holds %v: want the killed collect's {bin}", left)
	}
	t.Logf("left by the killed collect: %s; running: %s", left[0], running(t, lab, "server", bins+"/"))

	runs, _ := filepath.Glob(filepath.Join(killed.out, "*", "run.json"))
	if len(runs) != 1 {
		t.Fatalf("run dirs %v", runs)
	}
	dir := filepath.Dir(runs[0])
	b, err := exec.Command(fairbench, "collect", "-resume", dir).CombinedOutput()
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, b)
	}
	if !strings.Contains(string(b), "ended what an earlier session of this run left running") || strings.Contains(string(b), "removed") {
		t.Errorf("the resume did not say it ended the killed session's server, or removed a folder:\n%s", b)
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
