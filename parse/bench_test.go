package parse

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"
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
// ratio of that to merely reading the same files (parse/read; 1 would mean
// parsing costs nothing). Each iteration times a read pass and a parse pass
// back to back, so that a busy machine slows both alike; parse/read-cpu is
// the same ratio in CPU time, which other processes disturb less:
//
//	go test ./parse -run '^$' -bench 'BenchmarkParse$' -benchtime 5x -count 3
func BenchmarkParse(b *testing.B) {
	names, total := benchDumps(b, b.TempDir())
	readAll := func() {
		for _, n := range names {
			f, err := os.Open(n)
			if err != nil {
				b.Fatal(err)
			}
			io.Copy(io.Discard, f)
			f.Close()
		}
	}
	parseAll := func() (records int) {
		for _, n := range names {
			f, err := os.Open(n)
			if err != nil {
				b.Fatal(err)
			}
			r := NewReader(f, n)
			for r.Scan() {
				records++
			}
			f.Close()
		}
		return records
	}
	readAll() // warm the page cache
	b.SetBytes(total)
	b.ResetTimer()
	var read, parse, readCPU, parseCPU time.Duration
	records := 0
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		start, cpu := time.Now(), cpuTime()
		readAll()
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
	b.ReportMetric(read.Seconds()/parse.Seconds(), "parse/read")
	if parseCPU > 0 {
		b.ReportMetric(readCPU.Seconds()/parseCPU.Seconds(), "parse/read-cpu")
	}
	b.ReportMetric(float64(records)/float64(b.N), "records")
}
