package render

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestRSSSite writes the site BenchmarkRenderPeakRSS renders and keeps it,
// for profiling one render again and again: FAIRBENCH_RSS_KEEP=dir:dumps.
//
//	FAIRBENCH_RSS_KEEP=/tmp/rss100k:100000 go test ./render -run '^TestRSSSite$'
//	go test -c -o /tmp/render.test ./render
//	FAIRBENCH_RSS_SITE=/tmp/rss100k FAIRBENCH_RSS_MODE=stream FAIRBENCH_RSS_PROFILE=/tmp/prof \
//		/tmp/render.test -test.run '^TestRenderPeakRSSChild$'
func TestRSSSite(t *testing.T) {
	env := os.Getenv("FAIRBENCH_RSS_KEEP")
	if env == "" {
		t.Skip("FAIRBENCH_RSS_KEEP=dir:dumps keeps an RSS site")
	}
	dir, count, _ := strings.Cut(env, ":")
	n, err := strconv.Atoi(count)
	if err != nil || n < 1 {
		t.Fatalf("FAIRBENCH_RSS_KEEP=%q: want dir:dumps", env)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	rssSite(t, dir, n)
}

// rssProbe is the progress writer of a profiled child: at each stage's
// progress line it writes a heap profile, <n>-<stage>.pprof, into its
// folder, and a line to log.txt with the stage's peak resident set (VmHWM
// since the stage before), sampled every 10 ms, and the Go heap.
type rssProbe struct {
	dir  string
	log  *os.File
	mu   sync.Mutex
	n    int
	peak int64 // kB, resident set since the last stage
	stop chan struct{}
	done chan struct{}
}

func newRSSProbe(tb testing.TB, dir string) *rssProbe {
	tb.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "log.txt"))
	if err != nil {
		tb.Fatal(err)
	}
	p := &rssProbe{dir: dir, log: f, stop: make(chan struct{}), done: make(chan struct{})}
	go p.sample()
	return p
}

// residentKB is this process's resident set in kB, from /proc.
func residentKB() int64 {
	b, _ := os.ReadFile("/proc/self/status")
	for _, line := range bytes.Split(b, []byte("\n")) {
		if f := strings.Fields(string(line)); len(f) >= 2 && f[0] == "VmRSS:" {
			n, _ := strconv.ParseInt(f[1], 10, 64)
			return n
		}
	}
	return 0
}

func (p *rssProbe) sample() {
	defer close(p.done)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-tick.C:
			rss := residentKB()
			p.mu.Lock()
			p.peak = max(p.peak, rss)
			p.mu.Unlock()
		}
	}
}

// Write takes one progress line.
func (p *rssProbe) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stage(strings.TrimSpace(strings.TrimPrefix(string(b), "render: ")))
	return len(b), nil
}

func (p *rssProbe) stage(what string) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	mb := func(v uint64) float64 { return float64(v) / (1 << 20) }
	fmt.Fprintf(p.log, "peak RSS %5.1f MB, heap in use %5.1f MB of %5.1f MB, %4d GCs: %s\n",
		float64(max(p.peak, residentKB()))/1024, mb(ms.HeapInuse), mb(ms.HeapSys), ms.NumGC, what)
	p.peak = 0
	p.n++
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, what)
	f, err := os.Create(filepath.Join(p.dir, fmt.Sprintf("%02d-%.24s.pprof", p.n, name)))
	if err != nil {
		return
	}
	defer f.Close()
	pprof.WriteHeapProfile(f)
}

func (p *rssProbe) close() {
	close(p.stop)
	<-p.done
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stage("end")
	p.log.Close()
}
