package collect_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect"
	"github.com/fairbench/fairbench/collect/loadgen"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
)

// phaseSuite measures the stdlib server closed-loop, then at half its
// capacity and at fixed rates with vegeta, then at two connection counts.
const phaseSuite = `
name = "phases"

[load]
tool = "bombardier"
connections = 8
duration = "1s"
warmup = "0s"
repetitions = REPS
timeout = "2s"

[latency]
scenarios = ["ping"]
fractions = [0.5]
rates = [RATES]
duration = "1s"
warmup = "WARMUP"
repetitions = REPS
max_workers = 32

[sweep]
scenarios = ["ping"]
connections = [1, 8]
duration = "1s"
warmup = "0s"
repetitions = 1

[[target]]
name = "stdlib"
runtime = "go"
start = ["BIN"]

[[scenario]]
name = "ping"
request = { method = "GET", path = "/" }
expect = { status = 200, body = "Hi" }

[[scenario]]
name = "query"
request = { method = "GET", path = "/id/1?name=bun" }
expect = { status = 200, body = "1 bun" }
`

// sharedStdlib is the stdlib server of the site's apps, built once for
// every test that needs it.
func sharedStdlib(t *testing.T) string {
	t.Helper()
	return collect.BuiltBinary(t, "stdlib")
}

func phaseSuiteFor(t *testing.T, bin, reps, rates, warmup string) *suite.Suite {
	t.Helper()
	src := strings.NewReplacer("BIN", bin, "REPS", reps, "RATES", rates, "WARMUP", warmup).Replace(phaseSuite)
	s, err := suite.ParseSuite([]byte(src), "phases.toml")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestLatencyAndSweepPhases runs real vegeta and bombardier against the
// stdlib server: the latency points carry their offered rate, the capacity
// it came from (the median closed-loop req/s parse reads in this run's
// dumps), how sending kept its schedule, and a dump that is vegeta's JSON
// report then its histogram; a fixed rate above what the client sustained
// is not offered; the sweep points carry their connections.
func TestLatencyAndSweepPhases(t *testing.T) {
	if testing.Short() {
		t.Skip("drives real load generators")
	}
	bin := sharedStdlib(t)
	dir, lines := runComplete(t, phaseSuiteFor(t, bin, "1", "100, 9000000", "0s"))
	m := dir.Manifest()
	if v := m.Tools["vegeta"]; v.Version != loadgen.VegetaVersion || !slices.Contains(v.Asked, "-m") {
		t.Errorf("vegeta recorded as %+v, want %s asked with go version -m", v, loadgen.VegetaVersion)
	}
	closed := map[string][]float64{}
	var latency, sweep, ceiling []runjson.Measurement
	for _, mr := range m.Measurements {
		switch mr.Phase {
		case "":
			closed[mr.Scenario] = append(closed[mr.Scenario], rpsOf(t, filepath.Join(dir.Path, mr.Dump)))
		case collect.PhaseLatency:
			latency = append(latency, mr)
		case collect.PhaseSweep:
			sweep = append(sweep, mr)
		case collect.PhaseCeiling:
			ceiling = append(ceiling, mr)
		}
	}
	limit := checkCeiling(t, dir.Path, ceiling, 32)
	// Every latency point is taken or listed as not offered, never both:
	// 100 req/s is taken, 9000000 req/s is not, and 50% of capacity is
	// taken exactly when it is within the client's limit.
	capacity := closed["ping"][0]
	half := math.Round(0.5 * capacity)
	want := []float64{100}
	if half <= limit {
		want = append(want, half)
	}
	var got []float64
	for _, mr := range latency {
		got = append(got, mr.Rate)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("latency points at %v req/s, want %v (the client's limit is %v req/s)\n%s", got, want, limit, lines.String())
	}
	wantNot := []float64{9000000}
	if half > limit {
		wantNot = append(wantNot, half)
	}
	var not []float64
	for _, no := range m.NotOffered {
		not = append(not, no.Rate)
		if no.Limit != limit || no.Calibration != ceiling[len(ceiling)-1].Dump || no.Target != "stdlib" || no.Scenario != "ping" {
			t.Errorf("not offered %+v: want limit %v from %s", no, limit, ceiling[len(ceiling)-1].Dump)
		}
	}
	slices.Sort(not)
	slices.Sort(wantNot)
	if !slices.Equal(not, wantNot) {
		t.Errorf("run.json says %v req/s were not offered, want %v", not, wantNot)
	}
	for _, mr := range latency {
		if mr.Tool != "vegeta" || mr.ToolVersion != loadgen.VegetaVersion || !slices.Contains(mr.Argv, "-max-body=0") || !slices.Contains(mr.Argv, "-max-workers=32") || mr.Connections != 32 {
			t.Errorf("%s: tool %s %s connections %d argv %q", mr.Dump, mr.Tool, mr.ToolVersion, mr.Connections, mr.Argv)
		}
		if mr.Scenario != "ping" || mr.Error != "" {
			t.Errorf("%s: scenario %q error %q", mr.Dump, mr.Scenario, mr.Error)
		}
		want := 100.0
		if mr.RateFraction != 0 {
			want = half
			if mr.RateFraction != 0.5 || mr.Capacity != capacity {
				t.Errorf("%s: fraction %v of capacity %v, want 0.5 of %v (the closed-loop dump's req/s)", mr.Dump, mr.RateFraction, mr.Capacity, capacity)
			}
		} else if mr.Capacity != 0 {
			t.Errorf("%s: a fixed rate with capacity %v", mr.Dump, mr.Capacity)
		}
		if mr.Rate != want {
			t.Errorf("%s: rate %v, want %v", mr.Dump, mr.Rate, want)
		}
		// The client keeps 100 req/s on a busy machine; half the
		// server's capacity it may not (behind_s then says so).
		strict := mr.RateFraction == 0
		if mr.SendRate <= 0 || mr.BehindS < 0 || strict && (mr.SendRate < 0.8*want || mr.SendRate > 1.2*want || mr.BehindS > 0.5) {
			t.Errorf("%s: sent %v req/s at most %v s behind, offered %v", mr.Dump, mr.SendRate, mr.BehindS, want)
		}
		if f := mr.FromSchedule; f == nil || !(f.P99S > 0) || f.MaxS < f.P99S {
			t.Errorf("%s: latency from the schedule %+v, want a p99 and a max", mr.Dump, f)
		}
		if l := mr.Late; l == nil || l.Workers != mr.Connections && mr.Connections > 0 || l.Held > l.Requests || l.HeldWaitS > l.WaitS {
			t.Errorf("%s: late requests %+v, want them counted against the point's workers", mr.Dump, l)
		}
		checkVegetaDump(t, filepath.Join(dir.Path, mr.Dump), mr.Rate, strict)
		if len(mr.Reports) != 2 || mr.Reports[0][1] != "report" || mr.Reports[1][2] != "-type="+loadgen.VegetaHist {
			t.Errorf("%s: reports recorded as %q", mr.Dump, mr.Reports)
		}
	}
	var conns []int
	for _, mr := range sweep {
		if mr.Tool != "bombardier" || mr.Error != "" || !slices.Contains(mr.Argv, "-c") {
			t.Errorf("sweep %s: tool %s error %q", mr.Dump, mr.Tool, mr.Error)
		}
		if i := slices.Index(mr.Argv, "-c"); mr.Argv[i+1] != itoa(mr.Connections) {
			t.Errorf("sweep %s: argv %q for %d connections", mr.Dump, mr.Argv, mr.Connections)
		}
		conns = append(conns, mr.Connections)
	}
	if !slices.Equal(conns, []int{1, 8}) {
		t.Errorf("sweep connections %v, want [1 8]", conns)
	}
	// parse reads the fields back through run.json.
	run, err := parse.ReadRun(dir.Path)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, mr := range run.Measurements {
		if mr.Phase == collect.PhaseLatency && mr.SendRate > 0 {
			n++
		}
	}
	if n != len(latency) {
		t.Errorf("parse read %d latency points with a send rate, want %d", n, len(latency))
	}
	t.Log(lines.String())
	if !strings.Contains(lines.String(), "9000000 req/s not offered") || !strings.Contains(lines.String(), "behind schedule") || !strings.Contains(lines.String(), "sweep-c8") {
		t.Errorf("progress does not show each point:\n%s", lines.String())
	}
}

// runComplete collects suite in a fresh run dir, within two minutes, and
// fails the test unless the run completes; lines are its progress.
func runComplete(t *testing.T, st *suite.Suite) (*collect.RunDir, *bytes.Buffer) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var lines bytes.Buffer
	dir, err := collect.Run(ctx, st, collect.Options{Out: t.TempDir(), Progress: collect.NewLineProgress(&lines)})
	if err != nil {
		t.Fatalf("%v\n%s", err, lines.String())
	}
	if m := dir.Manifest(); m.Status != runjson.StatusComplete {
		t.Fatalf("status %q: %v", m.Status, m.Errors)
	}
	return dir, &lines
}

// rpsOf is the req/s parse reads in a closed-loop dump.
func rpsOf(t *testing.T, file string) float64 {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := parse.NewReader(f, file)
	for r.Scan() {
		if m, ok := r.Result().(*parse.Measurement); ok {
			return m.RPS
		}
	}
	t.Fatalf("%s: no measurement: %v", file, r.Err())
	return 0
}

// checkVegetaDump checks a latency dump is vegeta's JSON report (one line)
// then its histogram, and, when strict, that the report counts the
// requests offered, every one answered 200.
func checkVegetaDump(t *testing.T, file string, rate float64, strict bool) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	first, rest, _ := bytes.Cut(b, []byte("\n"))
	var report struct {
		Requests   int            `json:"requests"`
		Rate       float64        `json:"rate"`
		StatusCode map[string]int `json:"status_codes"`
	}
	if err := json.Unmarshal(first, &report); err != nil {
		t.Fatalf("%s: the first line is not vegeta's JSON report: %v\n%s", file, err, b)
	}
	if report.Requests == 0 || strict && (float64(report.Requests) < 0.8*rate || report.StatusCode["200"] != report.Requests) {
		t.Errorf("%s: %d requests (%v 200s) in 1 s at %v req/s", file, report.Requests, report.StatusCode, rate)
	}
	if !bytes.HasPrefix(rest, []byte("Bucket")) || !bytes.Contains(rest, []byte("[5s,")) {
		t.Errorf("%s: the histogram does not follow the JSON report:\n%s", file, rest)
	}
}

// cancelAt is a Progress that cancels a run when a step containing what
// starts for the n-th time: here the second latency point's warm-up.
type cancelAt struct {
	collect.Progress
	what   string
	n      int
	cancel context.CancelFunc
	mu     sync.Mutex
}

func (p *cancelAt) Step(what string, window time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if strings.Contains(what, p.what) {
		if p.n--; p.n == 0 {
			p.cancel()
		}
	}
	p.Progress.Step(what, window)
}

// TestLatencyPhaseResumes interrupts a run in its latency phase and
// finishes it with Resume: the points taken stay as they were, the rest
// are taken once, at rates from the same capacity, and neither the
// closed-loop pass nor the client's ceiling is measured again.
func TestLatencyPhaseResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("drives real load generators")
	}
	bin := sharedStdlib(t)
	st := phaseSuiteFor(t, bin, "1", "50", "1s")
	st.Sweep = nil
	st.Latency.Fractions = []float64{0.05} // well under the client's ceiling on a busy machine
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var lines bytes.Buffer
	// the third warm-up: the ceiling's, the 5% point's, then the 50 req/s one's
	stop := &cancelAt{Progress: collect.NewLineProgress(&lines), what: "warm-up", n: 3, cancel: cancel}
	dir, err := collect.Run(ctx, st, collect.Options{Out: t.TempDir(), Progress: stop})
	if err == nil {
		t.Fatalf("the run was not interrupted:\n%s", lines.String())
	}
	first := dir.Manifest()
	if first.Status != runjson.StatusInterrupted {
		t.Fatalf("status %q, want interrupted", first.Status)
	}
	var before []runjson.Measurement
	var ceilingBefore runjson.Measurement
	closedBefore := 0
	for _, mr := range first.Measurements {
		if mr.Phase == "" {
			closedBefore++
		} else if mr.Phase == collect.PhaseCeiling && !mr.Warmup {
			ceilingBefore = mr
		} else if !mr.Warmup {
			before = append(before, mr)
		}
	}
	if len(before) != 1 || before[0].RateFraction != 0.05 {
		t.Fatalf("latency points before the interruption: %+v; want the 5%% one\n%s", before, lines.String())
	}
	ctx2, cancel2 := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel2()
	dir, err = collect.Run(ctx2, st, collect.Options{Resume: dir.Path, Progress: collect.NewLineProgress(&lines)})
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, lines.String())
	}
	done := dir.Manifest()
	if done.Status != runjson.StatusComplete {
		t.Fatalf("status %q after resume: %v", done.Status, done.Errors)
	}
	var closed int
	seen := map[string]int{}
	for _, mr := range done.Measurements {
		if mr.Phase == "" {
			closed++
			continue
		}
		if mr.Phase == collect.PhaseCeiling {
			if !mr.Warmup && (mr.Dump != ceilingBefore.Dump || mr.SendRate != ceilingBefore.SendRate) {
				t.Errorf("the ceiling was measured again on resume: %s at %v req/s, was %s at %v", mr.Dump, mr.SendRate, ceilingBefore.Dump, ceilingBefore.SendRate)
			}
			continue
		}
		if mr.Warmup {
			continue
		}
		seen[filepath.Base(filepath.Dir(mr.Dump))]++
		if mr.RateFraction == 0.05 && (mr.Dump != before[0].Dump || mr.Capacity != before[0].Capacity || mr.Rate != before[0].Rate) {
			t.Errorf("the 5%% point changed on resume: %+v, was %+v", mr, before[0])
		}
	}
	if closed != closedBefore {
		t.Errorf("%d closed-loop measurements after resume, %d before: the closed-loop pass ran again", closed, closedBefore)
	}
	if seen["latency-5pct"] != 1 || seen["latency-50rps"] != 1 {
		t.Errorf("latency points after resume: %v, want each once", seen)
	}
}

// TestPhaseKeysRefused checks that bad [latency] and [sweep] keys are
// refused with the file, line and key.
func TestPhaseKeysRefused(t *testing.T) {
	t.Parallel()
	src := `name = "bad"

[latency]
scenarios = ["ping", "nope"]
fractions = [0.5, 1.5]
rates = [0]
max_worker = 3
duration = "10ms"

[sweep]
connections = [1, 1, 0]
repetitions = 0

[[target]]
name = "t"
start = ["x"]

[[scenario]]
name = "ping"
request = { path = "/" }
expect = { status = 200 }
`
	_, err := suite.ParseSuite([]byte(src), "bad.toml")
	if err == nil {
		t.Fatal("a suite with bad phase keys was accepted")
	}
	for _, want := range []string{"bad.toml:7:", "max_worker"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not name %q:\n%v", want, err)
		}
	}
	src = strings.Replace(src, "max_worker = 3\n", "", 1)
	src = strings.Replace(src, "[[target]]", "[load]\ntool = \"vegeta\"\n\n[[target]]", 1)
	_, err = suite.ParseSuite([]byte(src), "bad.toml")
	for _, want := range []string{
		`bad.toml:4: scenarios: "nope" is not a scenario`,
		"bad.toml:5: fractions: 1.5 is not a share of capacity",
		"bad.toml:6: rates: 0: give req/s of at least 1",
		"bad.toml:7: duration: 10ms",
		"bad.toml:10: connections: 1 is listed twice",
		"bad.toml:10: connections: 0: give 1 to",
		"bad.toml:11: repetitions: 0",
		"bad.toml:14: tool: vegeta is the open-model tool of the [latency] table",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error does not say %q:\n%v", want, err)
		}
	}
}
