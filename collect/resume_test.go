package collect_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/rundir"
	"github.com/fairbench/fairbench/parse/runjson"
)

// buildHi returns hiserver, which answers GET / with $BODY, built once.
func buildHi(t *testing.T) string {
	t.Helper()
	hi := collect.BuiltBinary(t, "hiserver")
	return hi
}

const resumeSuite = `
name = "resume"

[load]
tool = "bombardier"
connections = 4
duration = "1s"
warmup = "1s"
repetitions = 2
# capped: these tests check plumbing, not speed; uncapped, every window
# takes both cores from the tests running beside it
rate = 1000

[[target]]
name = "one"
start = ["BIN"]
env = { BODY = "Hi" }

[[target]]
name = "two"
start = ["BIN"]
env = { BODY = "Hi" }

[[scenario]]
name = "ping"
request = { method = "GET", path = "/" }
expect = { status = 200, body = "Hi" }
`

// TestInterruptAndResume sends SIGINT to a real `fairbench collect` in the
// middle of its run, checks that it stopped every process it started and
// marked the run interrupted, then finishes the run with -resume and checks
// that the dumps of the first session are byte-identical and not redone.
func TestInterruptAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fairbench and loads servers")
	}
	t.Parallel() // watches only the processes of the fairbench it starts
	hi, fairbench := sharedBinaries(t)
	work := t.TempDir()
	suitePath := filepath.Join(work, "suite.toml")
	if err := os.WriteFile(suitePath, []byte(strings.ReplaceAll(resumeSuite, "BIN", hi)), 0o644); err != nil {
		t.Fatal(err)
	}
	runDir := interruptAt(t, fairbench, suitePath, filepath.Join(work, "runs"), syscall.SIGINT, func(_, dir string) bool {
		return dir != "" && countMeasured(t, dir) >= 1
	})
	first := readManifest(t, runDir)
	if first.Status != runjson.StatusInterrupted {
		t.Errorf("status %q after SIGINT, want %q", first.Status, runjson.StatusInterrupted)
	}
	before := hashDumps(t, runDir)
	t.Logf("interrupted with %d measurements recorded, dumps kept: %d", countMeasured(t, runDir), len(before))
	if len(before) == 0 {
		t.Fatal("no dump kept from the first session")
	}

	// Finish it; -suite defaults to the run's own suite.
	resume := exec.Command(fairbench, "collect", "-resume", runDir)
	if b, err := resume.CombinedOutput(); err != nil {
		t.Fatalf("resume: %v\n%s", err, b)
	}
	done := readManifest(t, runDir)
	if done.Status != runjson.StatusComplete || len(done.Resumed) != 1 {
		t.Errorf("after resume: status %q, resumed %v; want complete, once", done.Status, done.Resumed)
	}
	// The interruption stays in the history, no longer as a thing to do.
	if !slices.ContainsFunc(first.Errors, func(e string) bool { return strings.HasPrefix(e, "interrupted: finish with -resume ") }) {
		t.Errorf("errors when interrupted %q, want the advice to resume", first.Errors)
	}
	if first.End == nil || slices.ContainsFunc(done.Errors, func(e string) bool { return strings.Contains(e, "-resume") }) ||
		!slices.Contains(done.Errors, "interrupted at "+first.End.Format(time.RFC3339)+"; resumed at "+done.Resumed[0].Format(time.RFC3339)) {
		t.Errorf("errors of the completed run %q, want the interruption said as resumed", done.Errors)
	}
	sameDumps(t, runDir, before)
	if first.Schedule == nil || len(first.Schedule.Rounds) != 2 || !reflect.DeepEqual(done.Schedule, first.Schedule) {
		t.Errorf("schedule %+v when interrupted, %+v when resumed: want two rounds, kept as they were", first.Schedule, done.Schedule)
	}
	if out := collect.TurnsOutOfRound(done); len(out) > 0 {
		t.Errorf("after resume, turns out of their round's order: %v", out)
	}
	measured := map[string]int{}
	for _, mr := range done.Measurements {
		if got := hashFile(t, filepath.Join(runDir, mr.Dump)); got != mr.SHA256 {
			t.Errorf("%s: sha256 differs from run.json", mr.Dump)
		}
		if !mr.Warmup {
			measured[mr.Target+"/"+strconv.Itoa(mr.Rep)]++
		}
	}
	for _, k := range []string{"one/1", "one/2", "two/1", "two/2"} {
		if measured[k] != 1 {
			t.Errorf("%s measured %d times, want once: %v", k, measured[k], measured)
		}
	}
	for _, mr := range first.Measurements {
		if !mr.Warmup && !containsRecord(done.Measurements, mr) {
			t.Errorf("first session's %s is not kept as it was", mr.Dump)
		}
	}
}

// TestResumeKeepsUnrecordedDump simulates a crash between storing a dump
// and recording it in run.json: resume keeps the file as an orphan and
// measures again under a new name.
func TestResumeKeepsUnrecordedDump(t *testing.T) {
	if testing.Short() {
		t.Skip("runs whole collects against real servers")
	}
	t.Parallel()
	hi := buildHi(t)
	src := strings.ReplaceAll(resumeSuite, "BIN", hi)
	src = strings.Replace(src, "repetitions = 2", "repetitions = 1", 1)
	src = strings.Replace(src, `warmup = "1s"`, `warmup = "0s"`, 1)
	st, err := suite.ParseSuite([]byte(src), "resume.toml")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir, err := collect.Run(ctx, st, collect.Options{Out: t.TempDir(), Only: []string{"one"}})
	if err != nil {
		t.Fatal(err)
	}
	m := dir.Manifest()
	lost := m.Measurements[len(m.Measurements)-1]
	m.Measurements = m.Measurements[:len(m.Measurements)-1]
	m.Status = runjson.StatusInterrupted
	b, _ := json.MarshalIndent(m, "", "  ")
	if err := rundir.WriteFileAtomic(filepath.Join(dir.Path, "run.json"), b); err != nil {
		t.Fatal(err)
	}

	if _, err := collect.Run(ctx, st, collect.Options{Resume: dir.Path, Only: []string{"one"}}); err != nil {
		t.Fatal(err)
	}
	done := readManifest(t, dir.Path)
	if len(done.Orphans) != 1 || done.Orphans[0].Dump != lost.Dump || done.Orphans[0].SHA256 != lost.SHA256 {
		t.Errorf("orphans %+v, want %s with sha256 %s", done.Orphans, lost.Dump, lost.SHA256)
	}
	if got := hashFile(t, filepath.Join(dir.Path, lost.Dump)); got != lost.SHA256 {
		t.Errorf("the unrecorded dump changed")
	}
	again := done.Measurements[len(done.Measurements)-1]
	if again.Dump != "dumps/one/ping/1-2.txt" || again.Rep != 1 {
		t.Errorf("re-measured as %s rep %d, want dumps/one/ping/1-2.txt rep 1", again.Dump, again.Rep)
	}
}

func readManifest(t *testing.T, dir string) runjson.Manifest {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m runjson.Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s/run.json is not valid JSON: %v", dir, err)
	}
	return m
}

// countMeasured counts the measurements (not warm-ups) run.json lists; a
// run.json caught mid-rename reads as none.
func countMeasured(t *testing.T, dir string) int {
	b, err := os.ReadFile(filepath.Join(dir, "run.json"))
	if err != nil {
		return 0
	}
	var m runjson.Manifest
	if json.Unmarshal(b, &m) != nil {
		return 0
	}
	n := 0
	for _, mr := range m.Measurements {
		if !mr.Warmup {
			n++
		}
	}
	return n
}

func containsRecord(list []runjson.Measurement, want runjson.Measurement) bool {
	for _, mr := range list {
		if mr.Dump == want.Dump && mr.SHA256 == want.SHA256 && mr.Order == want.Order && mr.Start.Equal(want.Start) {
			return true
		}
	}
	return false
}

func hashFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// hashDumps maps every file under dumps/ to its sha256.
func hashDumps(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(filepath.Join(dir, "dumps"), func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			out[rel] = hashFile(t, p)
		}
		return nil
	})
	return out
}

// procStat returns the fields of /proc/<pid>/stat after the command name.
func procStat(pid int) []string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(string(b[i+1:]))
}

// allPids lists the live processes.
func allPids() []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// childrenOf lists the direct children of pid.
func childrenOf(pid int) []int {
	var out []int
	for _, p := range allPids() {
		if f := procStat(p); len(f) > 2 && f[1] == strconv.Itoa(pid) {
			out = append(out, p)
		}
	}
	return out
}

// pgidOf is a process's group.
func pgidOf(pid int) int {
	f := procStat(pid)
	if len(f) < 3 {
		return -1
	}
	g, _ := strconv.Atoi(f[2])
	return g
}

// groupMembers lists the live processes of a process group (zombies aside).
func groupMembers(pgid int) []int {
	if pgid <= 0 {
		return nil
	}
	var out []int
	for _, p := range allPids() {
		if f := procStat(p); len(f) > 2 && f[2] == strconv.Itoa(pgid) && f[0] != "Z" {
			out = append(out, p)
		}
	}
	return out
}
