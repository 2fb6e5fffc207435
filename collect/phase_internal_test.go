package collect

import (
	"bytes"
	"context"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect/loadgen"
	"github.com/fairbench/fairbench/collect/suite"
)

// TestReadSchedule checks the send rate and how far sending fell behind on
// results in vegeta's CSV encoding, out of order as vegeta writes them.
func TestReadSchedule(t *testing.T) {
	t.Parallel()
	// 10 req/s: seq 0 due at 0, 1 at 100 ms, 2 at 200 ms (sent at 250 ms:
	// 50 ms late), 3 at 300 ms.
	csv := "" +
		"1000000000,200,5000,0,0,,,,0,GET,http://x/,\n" +
		"1250000000,200,5000,0,0,,,,2,GET,http://x/,\n" +
		"1100000000,500,5000,0,0,\"a, b\",,,1,GET,http://x/,\n" +
		"1300000000,200,5000,0,0,,,,3,GET,http://x/,\n"
	s, err := readSchedule(strings.NewReader(csv), "r.csv", 10, 4)
	if err != nil {
		t.Fatal(err)
	}
	if s.Sent != 4 || math.Abs(s.SendRate-10) > 1e-9 || math.Abs(s.Behind-0.05) > 1e-9 {
		t.Errorf("schedule %+v, want 4 sent at 10 req/s, 0.05 s behind", s)
	}
	// each took 5 µs; the one sent 50 ms late, 50.005 ms from its due time
	if f := s.FromSchedule; f == nil || math.Abs(f.MaxS-0.050005) > 1e-9 || math.Abs(f.P50S-5e-6) > 1e-12 {
		t.Errorf("from schedule %+v, want p50 5 µs and max 50.005 ms", f)
	}
	if _, err := readSchedule(strings.NewReader("1,200\n"), "r.csv", 10, 4); err == nil || !strings.Contains(err.Error(), "r.csv:1:") {
		t.Errorf("a short line: err %v, want one naming r.csv line 1", err)
	}
}

// TestPhasePointsAndLoads checks the defaults of an empty [latency] and a
// [sweep] on a wrk suite: the points in order with their dump labels, and
// the load each runs with (wrk's threads capped at the connections).
func TestPhasePointsAndLoads(t *testing.T) {
	t.Parallel()
	s, err := suite.ParseSuite([]byte(`name = "p"
[load]
tool = "wrk"
threads = 2
connections = 16
timeout = "3s"

[latency]
rates = [500]
repetitions = 1

[sweep]
scenarios = ["b"]
connections = [1, 64]
repetitions = 1

[[target]]
name = "t"
start = ["x"]

[[scenario]]
name = "a"
request = { path = "/" }
expect = { status = 200 }

[[scenario]]
name = "b"
request = { path = "/b" }
expect = { status = 200 }
`), "p.toml")
	if err != nil {
		t.Fatal(err)
	}
	c := newCollector(s, Options{})
	var labels []string
	for _, p := range c.phasePoints() {
		labels = append(labels, p.Scenario.Name+"/"+p.label())
	}
	if got := strings.Join(labels, " "); got != "a/latency-500rps b/sweep-c1 b/sweep-c64" {
		t.Errorf("points %s; want a/latency-500rps (rates given, so no default fractions) then the sweep of b", got)
	}
	points := c.phasePoints()
	if l := c.phaseLoad(points[0], 500); l.Tool != "vegeta" || l.Rate != 500 || l.Connections != 16 || l.Timeout.Std() != 3*time.Second || l.Duration != suite.DefaultLatency.Duration {
		t.Errorf("latency load %+v, want vegeta at 500 req/s with the scenario's 16 connections as its workers", l)
	}
	if l := c.phaseLoad(points[1], 0); l.Tool != "wrk" || l.Connections != 1 || l.Threads != 1 || l.Duration != suite.DefaultSweep.Duration {
		t.Errorf("sweep load at 1 connection %+v, want wrk with 1 thread", l)
	}
	if l := c.phaseLoad(points[2], 0); l.Connections != 64 || l.Threads != 2 {
		t.Errorf("sweep load at 64 connections %+v, want the suite's 2 threads", l)
	}
}

// TestVegetaReportsKeptAndResultsRemoved runs a real vegeta attack and
// checks that the dump is its JSON report then its histogram, byte for
// byte as vegeta prints each, that the schedule is read from its results,
// and that the results stream is removed.
func TestVegetaReportsKeptAndResultsRemoved(t *testing.T) {
	t.Parallel() // 50 req/s: light, and nothing here is a measurement
	if testing.Short() {
		t.Skip("runs vegeta")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	v, err := loadgen.Vegeta{}.Resolve(ctx)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "Hi") }))
	defer srv.Close()
	dir := t.TempDir()
	scratch := filepath.Join(dir, "scratch")
	if err := os.Mkdir(scratch, 0o755); err != nil {
		t.Fatal(err)
	}
	argv, err := loadgen.Vegeta{}.Argv(v.Path, srv.URL+"/", suite.Request{Method: "GET", Path: "/"}, suite.Load{Rate: 50, Connections: 4, Timeout: suite.Duration(time.Second)}, time.Second, scratch)
	if err != nil {
		t.Fatal(err)
	}
	c := newCollector(&suite.Suite{}, Options{})
	tr := c.client.RunTool(ctx, argv, scratch, scratch, 30*time.Second)
	if tr.Err != nil {
		t.Fatalf("%q: %v\n%s", argv, tr.Err, tr.Stderr)
	}
	results := loadgen.VegetaResults(scratch)
	kept, err := os.ReadFile(results)
	if err != nil {
		t.Fatal(err)
	}
	copied := filepath.Join(dir, "copy.bin")
	if err := os.WriteFile(copied, kept, 0o644); err != nil {
		t.Fatal(err)
	}
	got, s := c.vegetaReports(ctx, v.Path, results, scratch, 50, 4, 30*time.Second, tr)
	if got.Err != nil {
		t.Fatal(got.Err)
	}
	var want []byte
	for _, a := range loadgen.VegetaReportArgvs(v.Path, copied) {
		out, err := exec.Command(a[0], a[1:]...).Output()
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, out...)
	}
	if !bytes.Equal(got.Stdout, want) {
		t.Errorf("dump differs from vegeta's two reports:\n%s\nwant:\n%s", got.Stdout, want)
	}
	if _, err := os.Stat(results); !os.IsNotExist(err) {
		t.Errorf("results stream %s still there (err %v)", results, err)
	}
	// 50 are due in the second; a busy machine (tests run in parallel)
	// may make vegeta's pacer send a few fewer before the window ends.
	if s.Sent < 40 || s.Sent > 50 || s.SendRate < 40 || s.SendRate > 60 || s.Behind < 0 || s.Behind > 0.5 {
		t.Errorf("schedule %+v, want 40 to 50 sent at about 50 req/s", s)
	}
}
