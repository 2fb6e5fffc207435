package collect_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

// faultSuite is one target, hiserver, whose faults come from the file named
// by $FAULT; tests replace BIN, FAULT, WARMUP, REPS and EXTRA.
const faultSuite = `
name = "fault"

[load]
tool = "bombardier"
connections = 4
duration = "1s"
warmup = "@WARMUP@"
repetitions = @REPS@
timeout = "1s"
# capped: these tests check plumbing, not speed; uncapped, every window
# takes both cores from the tests running beside it
rate = 1000

[[target]]
name = "one"
start = ["@BIN@"]
env = { BODY = "Hi", FAULT = "@FAULT@" }
ready_timeout = "10s"
@EXTRA@

[[scenario]]
name = "ping"
request = { method = "GET", path = "/" }
expect = { status = 200, body = "Hi" }
`

// faultCase is a suite and a fault file for one test.
type faultCase struct {
	suite *suite.Suite
	fault string // the fault file; remove it to heal the target
	out   string
}

// newFaultCase writes fault (when not "") to the fault file and parses the
// suite with the given warm-up, repetitions and extra target keys.
func newFaultCase(t *testing.T, hi, fault, warmup string, reps int, extra string) faultCase {
	t.Helper()
	work := t.TempDir()
	fc := faultCase{fault: filepath.Join(work, "fault"), out: filepath.Join(work, "runs")}
	if fault != "" {
		if err := os.WriteFile(fc.fault, []byte(fault), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src := strings.NewReplacer("@BIN@", hi, "@FAULT@", fc.fault, "@WARMUP@", warmup, "@REPS@", itoa(reps), "@EXTRA@", extra).Replace(faultSuite)
	s, err := suite.ParseSuite([]byte(src), filepath.Join(work, "suite.toml"))
	if err != nil {
		t.Fatal(err)
	}
	fc.suite = s
	return fc
}

func itoa(n int) string { return strconv.Itoa(n) }

// testParallel is how many parallel tests run at once unless -parallel
// says otherwise. The parallel tests here measure nothing: they wait on
// windows, ssh and sshd far more than they compute, so they overlap
// well past GOMAXPROCS (2 on the machine CI has), the default.
const testParallel = 6

// TestMain lets more parallel tests run at once, and removes the binaries
// the tests shared.
func TestMain(m *testing.M) {
	// The fairbench binaries these tests start run many collects side by
	// side on purpose: no host lock for them (host_lock_test.go tests it
	// with a lock file of its own).
	os.Setenv("FAIRBENCH_HOST_LOCK", "off")
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", strconv.Itoa(max(testParallel, runtime.GOMAXPROCS(0))))
	}
	code := m.Run()
	collect.RemoveBuiltBinaries()
	os.Exit(code)
}

// sharedBinaries are hiserver and fairbench, built once for every test
// that needs them.
func sharedBinaries(t *testing.T) (hi, fairbench string) {
	t.Helper()
	return collect.BuiltBinary(t, "hiserver"), collect.BuiltBinary(t, "fairbench")
}

// heal removes the fault file.
func (fc faultCase) heal(t *testing.T) {
	t.Helper()
	if err := os.Remove(fc.fault); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
}

// groupWatch notes the process groups this test process starts: every
// child that leads its own group (servers, load tools, builds, services).
type groupWatch struct {
	stop   chan struct{}
	done   chan struct{}
	mu     sync.Mutex
	groups map[int]bool
	before map[int]bool // children when watching began, not the run's
}

func watchGroups() *groupWatch {
	w := &groupWatch{stop: make(chan struct{}), done: make(chan struct{}), groups: map[int]bool{}}
	self := os.Getpid()
	before := map[int]bool{} // children from before the run (a test's own servers)
	for _, pid := range childrenOf(self) {
		before[pid] = true
	}
	w.before = before
	go func() {
		defer close(w.done)
		for {
			for _, pid := range childrenOf(self) {
				if pgidOf(pid) == pid && !before[pid] {
					w.mu.Lock()
					w.groups[pid] = true
					w.mu.Unlock()
				}
			}
			select {
			case <-w.stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	return w
}

// check stops watching and fails the test when any group seen still has a
// live member, or when this process still has a child.
func (w *groupWatch) check(t *testing.T) {
	t.Helper()
	close(w.stop)
	<-w.done
	for pgid := range w.groups {
		if left := groupMembers(pgid); len(left) > 0 {
			t.Errorf("process group %d still has %v: orphans (%s)", pgid, left, cmdline(pgid))
		}
	}
	var live []int
	for _, pid := range childrenOf(os.Getpid()) {
		if f := procStat(pid); len(f) > 0 && f[0] != "Z" && !w.before[pid] {
			live = append(live, pid)
		}
	}
	for _, pid := range live {
		t.Errorf("child %d still running: %s", pid, cmdline(pid))
	}
	if len(w.groups) == 0 {
		t.Logf("no process group was seen (the fault struck before any process started)")
	}
}

// runFault runs a suite in-process with a bound, watching the process
// groups it starts, and returns the run dir and error.
func runFault(t *testing.T, s *suite.Suite, opt collect.Options) (*collect.RunDir, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	w := watchGroups()
	dir, err := collect.Run(ctx, s, opt)
	w.check(t)
	return dir, err
}

// runBounded runs a suite in-process with runFault's bound, without
// watching process groups.
func runBounded(t *testing.T, s *suite.Suite, opt collect.Options) (*collect.RunDir, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	return collect.Run(ctx, s, opt)
}

// checkRunDir checks that run.json is valid JSON, that every dump it lists
// has its sha256, and that every file under dumps/ is listed (as a dump, a
// stderr or an orphan). It returns the manifest.
func checkRunDir(t *testing.T, dir string) runjson.Manifest {
	t.Helper()
	m := readManifest(t, dir)
	known := map[string]bool{}
	for _, mr := range m.Measurements {
		known[mr.Dump] = true
		if mr.Stderr != "" {
			known[mr.Stderr] = true
		}
		if got := hashFile(t, filepath.Join(dir, mr.Dump)); got != mr.SHA256 {
			t.Errorf("%s: sha256 %s, run.json says %s", mr.Dump, got, mr.SHA256)
		}
	}
	for _, o := range m.Orphans {
		known[o.Dump] = true
	}
	for name := range hashDumps(t, dir) {
		if !known[filepath.ToSlash(name)] {
			t.Errorf("%s is on disk but run.json does not list it", name)
		}
	}
	return m
}

// resumeToEnd finishes a run dir and checks that it is complete, that every
// dump of the first session is byte-identical, and that every measurement
// is now taken without an error.
func resumeToEnd(t *testing.T, s *suite.Suite, dir string) runjson.Manifest {
	t.Helper()
	return resumeWith(t, s, dir, runFault)
}

// resumeToEndUnlessShort is resumeToEnd, left out under -short: a whole
// second collect per fault. TestTargetCrashesMidMeasurement (a failed
// measurement taken again) keeps -resume of a failed run covered there;
// the full run resumes after every fault.
func resumeToEndUnlessShort(t *testing.T, s *suite.Suite, dir string) {
	t.Helper()
	if testing.Short() {
		t.Log("-short: the -resume of this run is left to the full run")
		return
	}
	resumeToEnd(t, s, dir)
}

// resumeWith is resumeToEnd with run doing the collect: runFault, or for a
// test that runs in parallel with others (whose processes runFault would
// take for orphans), runBounded.
func resumeWith(t *testing.T, s *suite.Suite, dir string, run func(*testing.T, *suite.Suite, collect.Options) (*collect.RunDir, error)) runjson.Manifest {
	t.Helper()
	before := hashDumps(t, dir)
	if _, err := run(t, s, collect.Options{Resume: dir}); err != nil {
		t.Fatalf("resume: %v", err)
	}
	m := checkRunDir(t, dir)
	if m.Status != runjson.StatusComplete {
		t.Errorf("status %q after resume, want %q", m.Status, runjson.StatusComplete)
	}
	sameDumps(t, dir, before)
	good := map[string]int{}
	for _, mr := range m.Measurements {
		if !mr.Warmup && mr.Error == "" {
			good[mr.Target+"/"+mr.Scenario+"/"+itoa(mr.Rep)]++
		}
	}
	for _, tr := range m.Targets {
		for _, sc := range s.Scenarios {
			for rep := 1; rep <= s.LoadFor(sc).Repetitions; rep++ {
				if k := tr.Name + "/" + sc.Name + "/" + itoa(rep); good[k] != 1 {
					t.Errorf("%s has %d good measurements after resume, want 1", k, good[k])
				}
			}
		}
	}
	return m
}

// errorsSay fails unless one of run.json's errors or err contains want.
func errorsSay(t *testing.T, m runjson.Manifest, err error, want string) {
	t.Helper()
	all := strings.Join(m.Errors, "\n")
	if err != nil {
		all += "\n" + err.Error()
	}
	if !strings.Contains(all, want) {
		t.Errorf("no error says %q; errors:\n%s", want, all)
	}
}

// sameDumps fails the test when a dump hashed before a resume changed.
func sameDumps(t *testing.T, dir string, before map[string]string) {
	t.Helper()
	for name, sum := range before {
		if got := hashFile(t, filepath.Join(dir, name)); got != sum {
			t.Errorf("%s changed on resume", name)
		}
	}
}

// cmdline is a process's command line, for messages.
func cmdline(pid int) string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	return strings.ReplaceAll(strings.TrimRight(string(b), "\x00"), "\x00", " ")
}
