package collect_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect"
	"github.com/fairbench/fairbench/collect/internal/sshlab"
)

// TestRemoteKilledCollectReapedByNextSoak: a collect killed (SIGKILL) in its
// window and never resumed leaves its {bin} folder and its server on the
// server host. The next collect to that host (not a -resume) finds them:
// the dead run's folder is removed and its server ended, and it says so;
// a live collect's folder and server beside them are left alone, and that
// collect ends as it would have. A verify finds a dead collect's too.
func TestRemoteKilledCollectReapedByNextSoak(t *testing.T) {
	collect.Soak(t, "kills a collect over SSH and runs the next, about a minute")
	t.Parallel()
	lab := sshlab.Start(t, "server", "client")
	fairbench := collect.BuiltBinary(t, "fairbench")
	bins := filepath.Join(lab.Host("server").Dir, "bin")

	// The live collect starts first: it must not be the one to find the
	// dead collect's leftovers.
	live := startCollect(t, fairbench, oneScenarioSuite(t, lab, "120s"))
	live.waitFor(t, "ping rep 1/1")
	liveBin := onlyBinFolder(t, bins, "")
	if p := running(t, lab, "server", liveBin+"/"); p == "" {
		t.Fatalf("the live collect runs no server from %s", liveBin)
	}

	dead := startCollect(t, fairbench, oneScenarioSuite(t, lab, "4s"))
	dead.waitFor(t, "ping rep 1/1")
	dead.cmd.Process.Kill()
	<-dead.exited
	deadBin := onlyBinFolder(t, bins, liveBin)
	if p := running(t, lab, "server", deadBin+"/"); p == "" {
		t.Fatalf("the killed collect left no server running from %s: nothing to test", deadBin)
	}

	out := t.TempDir()
	next := exec.Command(fairbench, "collect", "-suite", oneScenarioSuite(t, lab, "1s"), "-out", out)
	said, err := next.CombinedOutput()
	if err != nil {
		var why []string
		if runs, _ := filepath.Glob(filepath.Join(out, "*", "run.json")); len(runs) == 1 {
			m := readManifest(t, filepath.Dir(runs[0]))
			why = m.Errors
			for _, mr := range m.Measurements {
				if mr.Error != "" {
					why = append(why, mr.Dump+": "+mr.Error)
				}
			}
		}
		t.Fatalf("next collect: %v\n%s\nrun.json errors: %q", err, said, why)
	}
	t.Logf("the next collect said:\n%s", said)
	if _, err := os.Stat(deadBin); !os.IsNotExist(err) {
		t.Errorf("the dead collect's %s is still there (%v)", deadBin, err)
	}
	if p := running(t, lab, "server", deadBin+"/"); p != "" {
		t.Errorf("the dead collect's server still runs: %s", p)
	}
	if !strings.Contains(string(said), filepath.Base(deadBin)) {
		t.Errorf("the next collect did not say it removed %s", filepath.Base(deadBin))
	}
	if _, err := os.Stat(filepath.Join(liveBin, "hi")); err != nil {
		t.Errorf("the live collect's {bin}: %v", err)
	}
	if p := running(t, lab, "server", liveBin+"/"); p == "" {
		t.Errorf("the live collect's server was ended")
	}
	if strings.Contains(string(said), filepath.Base(liveBin)) {
		t.Errorf("the next collect speaks of the live collect's folder %s", filepath.Base(liveBin))
	}

	live.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-live.exited:
	case <-time.After(60 * time.Second):
		live.cmd.Process.Kill()
		t.Fatalf("the live collect did not end on SIGINT:\n%s", live.stderr)
	}
	if !strings.Contains(live.stderr.String(), "interrupted") {
		t.Errorf("the live collect did not end interrupted:\n%s", live.stderr)
	}
	if entries, _ := os.ReadDir(bins); len(entries) != 0 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("bin/ on the server host at the end holds %v", names)
	}

	// A verify finds them too.
	again := startCollect(t, fairbench, oneScenarioSuite(t, lab, "4s"))
	again.waitFor(t, "ping rep 1/1")
	again.cmd.Process.Kill()
	<-again.exited
	deadBin = onlyBinFolder(t, bins, "")
	said, err = exec.Command(fairbench, "verify", "-suite", oneScenarioSuite(t, lab, "1s")).CombinedOutput()
	if err != nil {
		t.Fatalf("verify: %v\n%s", err, said)
	}
	if _, err := os.Stat(deadBin); !os.IsNotExist(err) || !strings.Contains(string(said), filepath.Base(deadBin)) {
		t.Errorf("after a verify, the dead collect's %s: %v; verify said:\n%s", deadBin, err, said)
	}
	if p := running(t, lab, "server", deadBin+"/"); p != "" {
		t.Errorf("the dead collect's server still runs after a verify: %s", p)
	}
	if entries, _ := os.ReadDir(bins); len(entries) != 0 {
		t.Errorf("bin/ on the server host after the verify holds %d entries", len(entries))
	}
}

// oneScenarioSuite writes remoteCase's suite for lab with its first
// scenario only, windows of window, and returns its path.
func oneScenarioSuite(t *testing.T, lab *sshlab.Lab, window string) string {
	t.Helper()
	base, _ := remoteCase(t, lab, window, 1, "server", "client")
	text := string(base.Source)
	text = text[:strings.Index(text, "\n[[scenario]]\nname = \"ping-wrk\"")+1]
	if err := os.WriteFile(base.File, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return base.File
}

// collectProc is a `fairbench collect` running in the background.
type collectProc struct {
	out    string // its -out
	cmd    *exec.Cmd
	stderr *syncBuffer
	exited chan error
}

// startCollect starts `fairbench collect -suite suitePath` into a folder
// of its own; the test kills it if it is still running at the end.
func startCollect(t *testing.T, fairbench, suitePath string) *collectProc {
	t.Helper()
	p := &collectProc{out: t.TempDir(), stderr: &syncBuffer{}, exited: make(chan error, 1)}
	p.cmd = exec.Command(fairbench, "collect", "-suite", suitePath, "-out", p.out)
	p.cmd.Stderr = p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.exited <- p.cmd.Wait() }()
	t.Cleanup(func() { p.cmd.Process.Kill() })
	return p
}

// waitFor waits until the collect's progress says text.
func (p *collectProc) waitFor(t *testing.T, text string) {
	t.Helper()
	for deadline := time.Now().Add(120 * time.Second); !strings.Contains(p.stderr.String(), text); time.Sleep(20 * time.Millisecond) {
		select {
		case err := <-p.exited:
			t.Fatalf("collect ended (%v) before saying %q:\n%s", err, text, p.stderr)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("collect did not say %q in 120 s:\n%s", text, p.stderr)
		}
	}
}

// onlyBinFolder is the one folder in bins other than but: its path.
func onlyBinFolder(t *testing.T, bins, but string) string {
	t.Helper()
	var found []string
	entries, _ := os.ReadDir(bins)
	for _, e := range entries {
		if p := filepath.Join(bins, e.Name()); e.IsDir() && p != but {
			found = append(found, p)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%s holds folders %v besides %q: want one", bins, found, but)
	}
	return found[0]
}
