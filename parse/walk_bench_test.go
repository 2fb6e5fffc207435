package parse

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkWalkMany walks N small dumps through Walk with a callback that
// keeps nothing, and reports the memory the walk held at its peak: it must
// not grow with N (issue 8). The dumps sit 100 to a folder, as a run dir's
// do; see BenchmarkWalkFlat for one folder of N. N = 100,000 (a minute of
// writing files) runs only when the -bench pattern names it:
//
//	go test ./parse -run '^$' -bench 'WalkMany' -benchtime 1x
//	go test ./parse -run '^$' -bench 'WalkMany/100000' -benchtime 1x
//
// peak-heap-MB is the most heap the walk had in use, garbage included, as
// the collector paces itself; retained-MB the most heap still reachable at
// ten points of the walk, each after a forced collection; peak-RSS-MB the
// process's resident set at its highest during the walk (Linux only).
func BenchmarkWalkMany(b *testing.B) { benchWalk(b, 100) }

// BenchmarkWalkFlat is BenchmarkWalkMany with all N dumps in one folder.
// Walk visits a folder in lexical order, so it holds the folder's entries
// while it walks it: that part of memory does grow with N.
func BenchmarkWalkFlat(b *testing.B) { benchWalk(b, 0) }

func benchWalk(b *testing.B, perFolder int) {
	bodies := smallDumps(b)
	for _, n := range []int{1_000, 10_000, 100_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			if n > 10_000 && !strings.Contains(benchPattern(), strconv.Itoa(n)) {
				b.Skipf("%d dumps only when -bench names them", n)
			}
			dir := b.TempDir()
			writeDumps(b, dir, bodies, n, perFolder)
			runtime.GC()
			peak := newPeakMemory()
			b.ResetTimer()
			records := 0
			for i := 0; i < b.N; i++ {
				errs := Walk([]string{dir}, func(r Record) error {
					records++
					if records%32 == 0 {
						peak.sample()
					}
					if records%(n/10) == 0 {
						peak.retained()
					}
					return nil
				})
				if len(errs) > 0 {
					b.Fatalf("%d errors, the first %v", len(errs), errs[0])
				}
			}
			b.StopTimer()
			peak.sample()
			peak.report(b)
			b.ReportMetric(float64(records)/float64(b.N), "records")
		})
	}
}

// benchPattern is the -bench flag's value.
func benchPattern() string {
	if f := flag.Lookup("test.bench"); f != nil {
		return f.Value.String()
	}
	return ""
}

// smallDumps returns the fixtures that hold runs and read without an error,
// each a few kilobytes.
func smallDumps(b *testing.B) [][]byte {
	b.Helper()
	names, _ := filepath.Glob("testdata/*_*")
	sort.Strings(names)
	var bodies [][]byte
	for _, name := range names {
		body := readFixture(b, name)
		ms, _, errs := readFrom(NewReader(bytes.NewReader(body), name))
		if len(ms) > 0 && len(errs) == 0 && len(body) < 8<<10 {
			bodies = append(bodies, body)
		}
	}
	if len(bodies) < 20 {
		b.Fatalf("only %d small dumps in testdata", len(bodies))
	}
	return bodies
}

// writeDumps writes n dumps into dir, perFolder to a subfolder (0: all in
// dir itself).
func writeDumps(b *testing.B, dir string, bodies [][]byte, n, perFolder int) {
	b.Helper()
	for i := 0; i < n; i++ {
		folder := dir
		if perFolder > 0 {
			folder = filepath.Join(dir, fmt.Sprintf("t%04d", i/perFolder))
			if i%perFolder == 0 {
				if err := os.Mkdir(folder, 0o755); err != nil {
					b.Fatal(err)
				}
			}
		}
		name := filepath.Join(folder, fmt.Sprintf("d%06d.txt", i))
		if err := os.WriteFile(name, bodies[i%len(bodies)], 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// peakMemory samples the heap without stopping the world.
type peakMemory struct {
	samples    []metrics.Sample
	heap, kept uint64
	rssReset   bool
}

func newPeakMemory() *peakMemory {
	p := &peakMemory{samples: []metrics.Sample{
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/gc/heap/live:bytes"},
	}}
	// Writing 5 to clear_refs resets the peak resident set (VmHWM) to now.
	p.rssReset = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
	return p
}

func (p *peakMemory) sample() {
	metrics.Read(p.samples)
	p.heap = max(p.heap, p.samples[0].Value.Uint64())
}

// retained collects garbage and notes what is still reachable.
func (p *peakMemory) retained() {
	p.sample()
	runtime.GC()
	metrics.Read(p.samples)
	p.kept = max(p.kept, p.samples[1].Value.Uint64())
}

func (p *peakMemory) report(b *testing.B) {
	const mb = 1 << 20
	b.ReportMetric(float64(p.heap)/mb, "peak-heap-MB")
	b.ReportMetric(float64(p.kept)/mb, "retained-MB")
	if kb, ok := peakRSS(); ok && p.rssReset {
		b.ReportMetric(float64(kb)/1024, "peak-RSS-MB")
	}
}

// peakRSS reads the process's peak resident set (VmHWM) in KB.
func peakRSS() (int64, bool) {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for _, l := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb, err == nil
		}
	}
	return 0, false
}
