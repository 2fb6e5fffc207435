package parse

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/fairbench/fairbench/parse/rundir"
)

// benchDumps writes 10,000 dumps of mixed dialects into dir: copies of the
// fixtures, one in ten a 50 KB bun-http-framework-benchmark dump whose
// progress bars are long CR-separated lines. It returns their paths and
// total size.
func benchDumps(b *testing.B, dir string) ([]string, int64) {
	b.Helper()
	small, _ := filepath.Glob("testdata/*_*")
	big, _ := filepath.Glob("testdata/bun/ba1520c/results/*/*.txt")
	sort.Strings(small)
	if len(small) == 0 || len(big) == 0 {
		b.Fatal("no fixtures under testdata: run the benchmark in the parse folder (go test ./parse -bench ...)")
	}
	var bodies, bigBodies [][]byte
	for _, n := range small {
		if body, err := os.ReadFile(n); err == nil && len(body) > 0 {
			bodies = append(bodies, body)
		}
	}
	for _, n := range big {
		body, err := os.ReadFile(n)
		if err != nil {
			b.Fatal(err)
		}
		bigBodies = append(bigBodies, body)
	}
	var names []string
	var total int64
	for i := 0; i < 10000; i++ {
		body := bodies[i%len(bodies)]
		if i%10 == 0 {
			body = bigBodies[(i/10)%len(bigBodies)]
		}
		name := filepath.Join(dir, fmt.Sprintf("d%05d.txt", i))
		if err := os.WriteFile(name, body, 0o644); err != nil {
			b.Fatal(err)
		}
		names = append(names, name)
		total += int64(len(body))
	}
	return names, total
}

// BenchmarkParse parses 10,000 dumps from disk and reports MB/s and the
// time that takes ÷ the time merely reading the same files takes
// (parse/read; 1 would mean parsing costs nothing). Each iteration times a read pass and a parse pass
// back to back, so that a busy machine slows both alike; parse/read-cpu is
// the same ratio in CPU time, which other processes disturb less:
//
//	go test ./parse -run '^$' -bench 'BenchmarkParse$' -benchtime 5x -count 3
func BenchmarkParse(b *testing.B) {
	names, total := benchDumps(b, b.TempDir())
	parseAll := func() (records int) {
		eachFile(b, names, func(f *os.File) {
			r := NewReader(f, f.Name())
			for r.Scan() {
				records++
			}
		})
		return records
	}
	readAll(b, names) // warm the page cache
	b.SetBytes(total)
	b.ResetTimer()
	var read, parse, readCPU, parseCPU time.Duration
	records := 0
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		start, cpu := time.Now(), cpuTime()
		readAll(b, names)
		read += time.Since(start)
		readCPU += cpuTime() - cpu
		b.StartTimer()
		start, cpu = time.Now(), cpuTime()
		records += parseAll()
		parse += time.Since(start)
		parseCPU += cpuTime() - cpu
	}
	b.StopTimer()
	mb := float64(total) / 1e6 * float64(b.N)
	b.ReportMetric(mb/read.Seconds(), "read-MB/s")
	b.ReportMetric(parse.Seconds()/read.Seconds(), "parse/read")
	if readCPU > 0 {
		b.ReportMetric(parseCPU.Seconds()/readCPU.Seconds(), "parse/read-cpu")
	}
	b.ReportMetric(float64(records)/float64(b.N), "records")
}

// BenchmarkParseRatio walks 1,040 real dumps as `fairbench parse` does:
// bun-http-framework-benchmark's results/ (testdata/bun/ba1520c, 26 dumps
// of long progress-bar lines) copied 40 times, 54 MB. Each iteration reads
// every file (open, copy to io.Discard, close), then walks the folder;
// parse/read is the median walk time ÷ the median read time over the
// iterations, and parse/read-cpu the same in CPU time. It should stay ≤ 2:
//
//	go test ./parse -run '^$' -bench 'ParseRatio' -benchtime 9x -count 3
func BenchmarkParseRatio(b *testing.B) {
	dir := b.TempDir()
	names, total := bunDumps(b, dir, 40)
	readAll(b, names) // warm the page cache
	var read, hash, parse, readCPU, hashCPU, parseCPU []time.Duration
	records := 0
	b.SetBytes(total)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start, cpu := time.Now(), cpuTime()
		readAll(b, names)
		read = append(read, time.Since(start))
		readCPU = append(readCPU, cpuTime()-cpu)
		start, cpu = time.Now(), cpuTime()
		hashAll(b, names)
		hash = append(hash, time.Since(start))
		hashCPU = append(hashCPU, cpuTime()-cpu)
		start, cpu = time.Now(), cpuTime()
		errs := Walk([]string{dir}, func(Record) error { records++; return nil })
		parse = append(parse, time.Since(start))
		parseCPU = append(parseCPU, cpuTime()-cpu)
		if len(errs) > 0 {
			b.Fatalf("%d errors, the first %v", len(errs), errs[0])
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(median(parse))/float64(median(read)), "parse/read")
	if r := median(readCPU); r > 0 {
		b.ReportMetric(float64(median(parseCPU))/float64(r), "parse/read-cpu")
		b.ReportMetric(float64(median(hashCPU))/float64(r), "hash/read-cpu")
	}
	b.ReportMetric(float64(median(hash))/float64(median(read)), "hash/read")
	b.ReportMetric(float64(median(read))/1e6, "read-ms")
	b.ReportMetric(float64(median(parse))/1e6, "parse-ms")
	b.ReportMetric(float64(records)/float64(b.N), "records")
	b.ReportMetric(float64(len(names)), "files")
}

// bunDumps copies the dumps of testdata/bun/ba1520c/results copies times
// into dir, each copy in its own folder, and returns their paths and total
// size.
func bunDumps(b *testing.B, dir string, copies int) ([]string, int64) {
	b.Helper()
	src, _ := filepath.Glob("testdata/bun/ba1520c/results/*/*.txt")
	if len(src) == 0 {
		b.Fatal("no fixtures under testdata: run the benchmark in the parse folder (go test ./parse -bench ...)")
	}
	var names []string
	var total int64
	for _, s := range src {
		body, err := os.ReadFile(s)
		if err != nil {
			b.Fatal(err)
		}
		rel, _ := filepath.Rel("testdata/bun/ba1520c/results", s)
		for c := 0; c < copies; c++ {
			name := filepath.Join(dir, fmt.Sprintf("c%02d", c), rel)
			if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(name, body, 0o644); err != nil {
				b.Fatal(err)
			}
			names = append(names, name)
			total += int64(len(body))
		}
	}
	sort.Strings(names)
	return names, total
}

// readAll reads every file named, keeping nothing: the cost parsing is
// measured against.
func readAll(b *testing.B, names []string) {
	eachFile(b, names, func(f *os.File) { io.Copy(io.Discard, f) })
}

// hashAll reads and hashes every file named, as the parse of a dump must
// at least: what is left of parse/read above hash/read is parsing.
func hashAll(b *testing.B, names []string) {
	eachFile(b, names, func(f *os.File) {
		if _, err := rundir.ReaderSHA256(f); err != nil {
			b.Fatal(err)
		}
	})
}

// eachFile opens each file named in turn and calls fn with it.
func eachFile(b *testing.B, names []string, fn func(*os.File)) {
	for _, n := range names {
		f, err := os.Open(n)
		if err != nil {
			b.Fatal(err)
		}
		fn(f)
		f.Close()
	}
}

// median is the middle of ds (the upper middle for an even count).
func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
