package collect_test

import (
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/collect"
	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/audit"
)

// TestInterferenceMeasured runs busy loops pinned to the server's CPU
// during a real collect (hiserver on CPU 0, bombardier on CPU 1, one 1 s
// window): run.json records a large share of CPU 0's window as foreign
// load, and the run's audit reports cpu-interference for the cell. Other
// tests may run beside it, so nothing is said of the quiet case.
func TestInterferenceMeasured(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("needs 2 CPUs: one for the server, one for the load tool")
	}
	hi := collect.BuiltBinary(t, "hiserver")
	fc := newFaultCase(t, hi, "", "0s", 1, "")
	fc.suite.Isolation.ServerCPUs, fc.suite.Isolation.ClientCPUs = "0", "1"
	// Two loops: the scheduler gives them about two thirds of CPU 0 against
	// the server's one thread (GOMAXPROCS follows its one-CPU affinity).
	for range 2 {
		loop := exec.Command("taskset", "-c", "0", "sh", "-c", "while :; do :; done")
		if err := loop.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() {
			loop.Process.Kill()
			loop.Wait()
		}()
	}
	dir, err := runBounded(t, fc.suite, collect.Options{Out: fc.out, ForcePinning: true})
	if err != nil {
		t.Fatal(err)
	}
	m := checkRunDir(t, dir.Path)
	if len(m.Measurements) != 1 {
		t.Fatalf("%d measurements, want 1", len(m.Measurements))
	}
	mr := m.Measurements[0]
	in := mr.Interference
	if in == nil || in.Server == nil || in.Client == nil {
		t.Fatalf("run.json: interference %+v", in)
	}
	s := in.Server
	t.Logf("window %.3f s; server CPUs %q: capacity %.2f s, busy %.2f, ours %.2f (target %.2f), foreign %.2f, irq %.2f, softirq %.2f, steal %.2f; client CPUs %q: busy %.2f, ours %.2f, foreign %.2f",
		in.WindowS, s.CPUs, s.CapacityS, s.BusyS, s.OursS, mr.ServerCPUSeconds, s.ForeignS, s.IRQS, s.SoftIRQS, s.StealS, in.Client.CPUs, in.Client.BusyS, in.Client.OursS, in.Client.ForeignS)
	if s.CPUs != "0" || in.Client.CPUs != "1" || in.WindowS < 1 {
		t.Errorf("sets %q and %q over %.3f s, want 0 and 1 over at least the 1 s window", s.CPUs, in.Client.CPUs, in.WindowS)
	}
	// The loops share CPU 0 with the server: most of it is theirs.
	if share := s.ForeignS / s.CapacityS; share < 0.3 || s.OursS < mr.ServerCPUSeconds-0.001 { // OursS is rounded to the millisecond
		t.Errorf("foreign load on CPU 0 is %.0f%% of the window (ours %.2f s, the target's %.2f s), want at least 30%% with two busy loops there", share*100, s.OursS, mr.ServerCPUSeconds)
	}
	set, errs := parse.ReadAll([]string{dir.Path})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var found bool
	for _, f := range audit.Audit(set, audit.AuditOptions{}) {
		if f.Rule == audit.RuleCPUInterference && strings.Contains(f.Message, "one/ping (up to") && strings.Contains(f.Message, "of the server's CPU set 0; rep 1)") {
			found = true
			t.Logf("audit: %s", f)
		}
	}
	if !found {
		t.Errorf("the audit does not report cpu-interference on the server's CPU 0 for one/ping")
	}
}
