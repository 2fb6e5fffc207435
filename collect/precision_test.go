package collect_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
	"github.com/fairbench/fairbench/parse/verdict"
)

// precisionSuite is two names of one server (an A/A pair) and a scenario,
// at a capped rate, so that its noise is small; tests replace BIN and KEYS.
// The tests of it run beside others: they check the stopping rule's
// bookkeeping (rounds, budget, waits, records), and each aim is one that
// any host reaches (100%) or none does (0.5%), whatever runs beside it.
const precisionSuite = `
name = "precision"
aa_pair = ["one", "two"]

[load]
tool = "bombardier"
connections = 4
duration = "1s"
warmup = "0s"
repetitions = 3
timeout = "1s"
rate = 1000
@KEYS@

[[target]]
name = "one"
start = ["@BIN@"]
env = { BODY = "Hi" }

[[target]]
name = "two"
start = ["@BIN@"]
env = { BODY = "Hi" }

[[scenario]]
name = "ping"
request = { method = "GET", path = "/" }
expect = { status = 200, body = "Hi" }
`

// collectPrecision collects precisionSuite with keys added to [load],
// without waiting for a quiet host.
func collectPrecision(t *testing.T, keys string) runjson.Manifest {
	t.Helper()
	return collectPrecisionWith(t, keys, collect.Options{QuietWait: -1})
}

// collectPrecisionWith is collectPrecision with opt.
func collectPrecisionWith(t *testing.T, keys string, opt collect.Options) runjson.Manifest {
	t.Helper()
	return collectPrecisionFrom(t, precisionSuite, keys, opt)
}

// collectPrecisionFrom is collectPrecisionWith of suite src (precisionSuite
// changed).
func collectPrecisionFrom(t *testing.T, src, keys string, opt collect.Options) runjson.Manifest {
	t.Helper()
	hi, _ := sharedBinaries(t)
	work := t.TempDir()
	src = strings.NewReplacer("@BIN@", hi, "@KEYS@", keys).Replace(src)
	s, err := suite.ParseSuite([]byte(src), filepath.Join(work, "suite.toml"))
	if err != nil {
		t.Fatal(err)
	}
	opt.Out = work
	dir, err := runBounded(t, s, opt)
	if err != nil {
		t.Fatal(err)
	}
	m := checkRunDir(t, dir.Path)
	set, errs := parse.ReadAll([]string{dir.Path})
	for _, err := range errs {
		t.Errorf("reading the run: %v", err)
	}
	rounds := max(3, m.Precision.RoundsOf("ping"))
	for _, c := range verdict.Cells(set, verdict.DefaultThresholds) {
		if c.RPS.N != rounds {
			t.Errorf("%s: %d repetitions read, run.json plans %d rounds (a pilot window counted, or a round lost)", c.Name, c.RPS.N, rounds)
		}
	}
	return m
}

// TestCollectToBudget: a resolve no run can reach (below the 2% noise
// floor) takes rounds until the budget holds no more (another round as
// long as the rounds' mean would end past it), says so, and keeps the
// pilot's windows as dumps beside the rounds'. How many rounds that is
// depends on what runs beside the test.
func TestCollectToBudget(t *testing.T) {
	t.Parallel()
	m := collectPrecision(t, `resolve = "0.5%"`+"\n"+`budget = "30s"`)
	p := m.Precision
	if p == nil {
		t.Fatal("run.json has no precision record")
	}
	rounds := p.RoundsOf("ping")
	t.Logf("precision: %+v", *p)
	if next := p.MeasuredS / float64(max(rounds, 1)); p.Stop != runjson.StopBudget || rounds < 3 || p.MeasuredS > 30+8 || p.MeasuredS+next <= 30 {
		t.Errorf("stop %q after %d rounds in %.1f s, want %q after at least the 3 repetitions, within about the 30 s budget and once it held no other round", p.Stop, rounds, p.MeasuredS, runjson.StopBudget)
	}
	if len(p.Pilots) != 1 || p.Pilots[0].Quiet || len(p.Pilots[0].RPS) != 12 || p.Pilots[0].Targets[0] != "one" || p.Pilots[0].Targets[1] != "two" {
		t.Errorf("pilots %+v, want one on the twins, of 12 windows, not quiet (0.5%% cannot be resolved)", p.Pilots)
	}
	pilot := 0
	for _, mr := range m.Measurements {
		if mr.Phase == collect.PhasePilot && !mr.Warmup {
			pilot++
		}
	}
	if pilot != 12 {
		t.Errorf("%d pilot windows in run.json, want 12", pilot)
	}
	if !strings.Contains(strings.Join(m.Errors, "\n"), "measuring anyway") {
		t.Errorf("run.json's errors do not say the run measured on a host too noisy for its aim: %q", m.Errors)
	}
}

// TestBudgetBindsRepetitions: a budget the suite sets is the most wall
// time the rounds take even where that is fewer than its repetitions: the
// rounds stop where it holds no more, at 3 rounds at least, and run.json
// says so.
func TestBudgetBindsRepetitions(t *testing.T) {
	t.Parallel()
	const budget = 10 // s; a round of the two targets takes 2 s of windows and their starts
	src := strings.Replace(precisionSuite, "repetitions = 3", "repetitions = 12", 1)
	m := collectPrecisionFrom(t, src, `resolve = "0.5%"`+"\n"+`budget = "10s"`, collect.Options{QuietWait: -1})
	p := m.Precision
	if p == nil {
		t.Fatal("run.json has no precision record")
	}
	t.Logf("precision: %+v", *p)
	rounds := p.RoundsOf("ping")
	if p.Stop != runjson.StopBudget || rounds < 3 || rounds >= 12 || p.MinRounds != 12 {
		t.Errorf("stop %q after %d rounds (min_rounds %d), want %q after 3 or more but fewer than the suite's 12", p.Stop, rounds, p.MinRounds, runjson.StopBudget)
	}
	// Past the floor of 3 rounds, no round starts once the budget is
	// spent (a busy machine may make the 3 rounds themselves outlast it).
	if before := p.MeasuredS * float64(rounds-1) / float64(rounds); rounds > 3 && before > budget {
		t.Errorf("%d rounds in %.1f s: a round started about %.1f s in, past the %d s budget", rounds, p.MeasuredS, before, budget)
	}
}

// TestPilotQuietAtRepetitions: where the noise asks for no more rounds
// than the suite's repetitions, the pilot is quiet even when the budget
// holds fewer of them: no wait for quiet mends a budget smaller than the
// repetitions, so none is taken, and the budget binds the rounds.
func TestPilotQuietAtRepetitions(t *testing.T) {
	t.Parallel()
	src := strings.Replace(precisionSuite, "repetitions = 3", "repetitions = 12", 1)
	m := collectPrecisionFrom(t, src, `resolve = "100%"`+"\n"+`budget = "10s"`, collect.Options{QuietWait: 30 * time.Second})
	p := m.Precision
	if p == nil {
		t.Fatal("run.json has no precision record")
	}
	t.Logf("precision: %+v", *p)
	if len(p.Pilots) != 1 || !p.Pilots[0].Quiet || p.Pilots[0].Rounds != 12 || p.WaitedS != 0 {
		t.Errorf("pilots %+v, waited %.1f s: want one quiet pilot planning the suite's 12 rounds, and no wait", p.Pilots, p.WaitedS)
	}
	if rounds := p.RoundsOf("ping"); p.Stop != runjson.StopBudget || rounds >= 12 {
		t.Errorf("stop %q after %d rounds, want %q before the suite's 12", p.Stop, rounds, runjson.StopBudget)
	}
}

// TestCollectResolvedAtMinimum: a resolve any host reaches stops at the
// rounds the pilot planned, the suite's repetitions where the pilot read a
// steady host, and says it resolved. (A pilot window slowed by a neighbour
// may plan a round more; that plan is then the one kept.)
func TestCollectResolvedAtMinimum(t *testing.T) {
	t.Parallel()
	m := collectPrecision(t, `resolve = "100%"`)
	p := m.Precision
	if p == nil {
		t.Fatal("run.json has no precision record")
	}
	if len(p.Pilots) != 1 || !p.Pilots[0].Quiet {
		t.Fatalf("precision %+v: want one quiet pilot", *p)
	}
	planned := p.Pilots[0].Rounds
	if got := p.RoundsOf("ping"); p.Stop != runjson.StopResolved || planned < 3 || got != planned {
		t.Errorf("precision %+v: want the %d rounds planned (3 at least), stop %q", *p, planned, runjson.StopResolved)
	}
	if planned > 3 {
		t.Logf("the pilot read %.1f%% per window and planned %d rounds, not the suite's 3", 100*p.Pilots[0].Sigma, planned)
	}
	if p.BudgetS <= 0 || p.Scenarios[0].Resolves <= 0 || p.Scenarios[0].Resolves > 1 {
		t.Errorf("precision %+v: want the default budget measured and what the rounds resolve recorded", *p)
	}
}

// TestCollectOffTakesItsCount: resolve = "off" is a run of exactly its
// repetitions, with no pilot and no precision record.
func TestCollectOffTakesItsCount(t *testing.T) {
	t.Parallel()
	m := collectPrecision(t, `resolve = "off"`)
	if m.Precision != nil {
		t.Errorf("precision %+v, want none", *m.Precision)
	}
}

// TestCollectWaitsForQuiet: a pilot too noisy for the budget is taken
// again after a wait, until the wait is spent; the pilots' windows number
// on, so that run.json reads back, and the wait is recorded in wall time,
// the pilots taken while waiting included (a pilot here takes 12 windows
// of 1 s), ending within its bound: no further pilot starts once another
// would end past it.
func TestCollectWaitsForQuiet(t *testing.T) {
	t.Parallel()
	const wait = 20 * time.Second
	var progress bytes.Buffer
	opt := collect.WithPilotEvery(collect.Options{QuietWait: wait, Progress: collect.NewLineProgress(&progress)}, time.Second)
	m := collectPrecisionWith(t, `resolve = "0.5%"`+"\n"+`budget = "12s"`, opt)
	// The pilots and sleeps of a wait are planned before they run: the
	// count never passes its total.
	for _, line := range strings.Split(progress.String(), "\n") {
		var done, total int
		if _, err := fmt.Sscanf(line, "[%d/%d]", &done, &total); err == nil && done > total {
			t.Errorf("progress %q: past its total", line)
		}
	}
	p := m.Precision
	if p == nil || len(p.Pilots) < 2 || p.WaitedS < 1 {
		t.Fatalf("precision %+v: want two pilots or more, and the time waited between them", p)
	}
	// A pilot that takes longer than the one before it may end past the
	// bound by the difference: a few seconds of slack.
	if slack := 5.0; p.WaitedS > wait.Seconds()+slack {
		t.Errorf("waited %.1f s for quiet, past the %v bound", p.WaitedS, wait)
	}
}
