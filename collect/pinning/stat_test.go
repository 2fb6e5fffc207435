package pinning

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func readStatFile(t *testing.T, name string) Stat {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseStat(b, name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestDeltaRecorded reads /proc/stat recorded on this VM around one second
// of a busy loop pinned to CPU 1 (testdata/record-stat.sh), while other
// work kept both CPUs busy: idle did not move.
func TestDeltaRecorded(t *testing.T) {
	dir := filepath.Join("testdata", "stat-busy-cpu1")
	a, b := readStatFile(t, filepath.Join(dir, "before")), readStatFile(t, filepath.Join(dir, "after"))
	for _, tc := range []struct {
		cpus                                   []int
		busy, irq, softirq, steal, idle, total float64
		missing                                []int
	}{
		{[]int{1}, 1.06, 0, 0.04, 0, 0, 1.10, nil},
		{[]int{0}, 1.09, 0, 0.01, 0, 0, 1.10, nil},
		{[]int{0, 1, 1}, 2.15, 0, 0.05, 0, 0, 2.20, nil},
		{nil, 2.15, 0, 0.04, 0, 0, 2.19, nil}, // the machine's own line, rounded apart
		{[]int{1, 5}, 1.06, 0, 0.04, 0, 0, 1.10, []int{5}},
	} {
		u := Delta(a, b, tc.cpus)
		if !near(u.Busy, tc.busy) || !near(u.IRQ, tc.irq) || !near(u.SoftIRQ, tc.softirq) || !near(u.Steal, tc.steal) || !near(u.Idle, tc.idle) || !near(u.Total, tc.total) || !slices.Equal(u.Missing, tc.missing) {
			t.Errorf("CPUs %v: %+v, want busy %v irq %v softirq %v steal %v idle %v total %v missing %v", tc.cpus, u, tc.busy, tc.irq, tc.softirq, tc.steal, tc.idle, tc.total, tc.missing)
		}
	}
}

func TestParseStat(t *testing.T) {
	// A 2.6.0 kernel's four numbers, steal on a VM, a counter that went
	// backwards.
	a, err := ParseStat([]byte("cpu 10 0 10 100\ncpu0 10 0 10 100\nintr 5 1\n"), "a")
	if err != nil {
		t.Fatal(err)
	}
	b, err := ParseStat([]byte("cpu 60 0 20 90 0 1 2 30\ncpu0 60 0 20 90 0 1 2 30\n"), "b")
	if err != nil {
		t.Fatal(err)
	}
	if u := Delta(a, b, []int{0}); !near(u.Busy, 0.6) || !near(u.Idle, 0) || !near(u.IRQ, 0.01) || !near(u.SoftIRQ, 0.02) || !near(u.Steal, 0.3) {
		t.Errorf("delta %+v", u)
	}
	for _, tc := range []struct{ text, want string }{
		{"cpu 1 2 3 4\ncpu0 1 2 x 4\n", `f:2: cpu0: "x" is not a count of clock ticks`},
		{"cpu 1 2 3\n", "f:1: cpu: 3 numbers, want at least 4 (user nice system idle)"},
		{"cpu 1 2 3 4\ncpuX 1 2 3 4\n", `f:2: "cpuX" is not a CPU`},
		{"intr 1 2\n", "f: no cpu line: not /proc/stat"},
	} {
		if _, err := ParseStat([]byte(tc.text), "f"); err == nil || err.Error() != tc.want {
			t.Errorf("%q: error %v, want %q", tc.text, err, tc.want)
		}
	}
}

// TestDeltaBusyLoop runs a busy loop pinned to CPU 0 and checks that CPU
// 0's busy time over the window holds at least the loop's own CPU time:
// the loop is interference on a server pinned there, and it is seen.
func TestDeltaBusyLoop(t *testing.T) {
	if _, err := exec.LookPath("taskset"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("taskset not found: apt-get install util-linux (.ci/run does)")
		}
		t.Skip("taskset not found: apt-get install util-linux")
	}
	a, err := ReadStat(DefaultRoots)
	if err != nil {
		t.Skip("no /proc/stat here:", err)
	}
	loop := exec.Command("taskset", "-c", "0", "sh", "-c", "while :; do :; done")
	if err := loop.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { loop.Process.Kill(); loop.Wait() }()
	time.Sleep(time.Second)
	spent := processSeconds(t, loop.Process.Pid)
	b, err := ReadStat(DefaultRoots)
	if err != nil {
		t.Fatal(err)
	}
	u := Delta(a, b, []int{0})
	if spent < 0.05 {
		t.Skipf("the loop got %.2f s of CPU 0 in 1 s: the machine is too busy to tell", spent)
	}
	if u.Busy+0.02 < spent {
		t.Errorf("CPU 0 busy %.2f s over the window, less than the loop pinned there spent (%.2f s)", u.Busy, spent)
	}
	if u.Total < 0.9 {
		t.Errorf("CPU 0 accounted for %.2f s of a window over 1 s", u.Total)
	}
}

// processSeconds is the user + system CPU time of a process so far
// (/proc/PID/stat fields 14 and 15).
func processSeconds(t *testing.T, pid int) float64 {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		t.Fatal(err)
	}
	// The command name, in parentheses, may hold spaces: count after it.
	fields := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	ut, _ := strconv.ParseFloat(fields[11], 64)
	st, _ := strconv.ParseFloat(fields[12], 64)
	return (ut + st) / userHZ
}

// FuzzParseStat: any text either fails with an error naming the file, or
// reads to a snapshot whose delta to itself is zero.
func FuzzParseStat(f *testing.F) {
	for _, name := range []string{"testdata/vm/proc/stat", "testdata/stat-busy-cpu1/before", "testdata/stat-busy-cpu1/after"} {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("cpu 1 2 3 4\ncpu0 1 2 3 4\n"))
	f.Fuzz(func(t *testing.T, text []byte) {
		s, err := ParseStat(text, "f")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f") {
				t.Fatalf("error without the file's name: %v", err)
			}
			return
		}
		if u := Delta(s, s, nil); u.Total != 0 {
			t.Fatalf("delta to itself %+v", u)
		}
	})
}
