package audit

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
	"github.com/fairbench/fairbench/parse/verdict"
)

// withPhases adds to s, for target a on ping, a sweep over 1, 8, 64 and 256
// connections (one repetition each, the 1-connection point far slower) and
// open-model points at 25% to 90% of its capacity: what a run with every
// phase holds besides its throughput cells.
func withPhases(s *parse.Set) *parse.Set {
	order := 100
	for i, conns := range []int{1, 8, 64, 256} {
		m := meas("r", "a", "ping", 1, []float64{90, 600, 1000, 1010}[i])
		m.Phase, m.Connections, m.Order = parse.PhaseSweep, conns, order
		order++
		s.Measurements = append(s.Measurements, m)
	}
	for _, f := range []float64{0.25, 0.5, 0.75, 0.9} {
		for rep := 1; rep <= 2; rep++ {
			m := meas("r", "a", "ping", rep, 1000*f)
			m.Tool, m.Threads, m.Phase, m.Rate, m.Order = parse.ToolVegeta, 0, parse.PhaseLatency, 1000*f, order
			m.Open = parse.OpenModel{Fraction: f, Capacity: 1000, SendRate: 1000 * f}
			m.Settings.Connections = parse.FromUnknown // vegeta has workers, not connections
			m.Latency.Percentiles = []parse.Percentile{{P: 50, Value: time.Millisecond}, {P: 99, Value: 4 * time.Millisecond}}
			order++
			s.Measurements = append(s.Measurements, m)
		}
	}
	return s
}

// TestPhasesLeftOutOfThroughputRules checks that latency and sweep points
// change nothing the closed-loop statistics, verdicts and rules say: a
// sweep point at 1 connection is not a fourth repetition of a/ping.
func TestPhasesLeftOutOfThroughputRules(t *testing.T) {
	plain, phased := withRun(cleanSet(), nil), withRun(withPhases(cleanSet()), nil)
	cells := verdict.Cells(phased, verdict.DefaultThresholds)
	for _, c := range cells {
		if len(c.Reps) != 5 {
			t.Errorf("%s: %d repetitions, want the 5 of the throughput pass", c, len(c.Reps))
		}
	}
	if fs := MixedSettings(phased.Measurements); len(fs) != 0 {
		t.Errorf("mixed-settings on sweep and latency points: %v", fs)
	}
	opts := AuditOptions{Pairs: [][2]string{{"a", "a"}}}
	own := []string{RuleClosedLoop, RuleAchievedBelowOffered, RuleErrorsAtRate, RuleSweepPoints} // rules of the phases, and the note that points to them
	strip := func(fs []Finding) []Finding {
		return slices.DeleteFunc(fs, func(f Finding) bool { return slices.Contains(own, f.Rule) })
	}
	a, b := strip(Audit(plain, opts)), strip(Audit(phased, opts))
	if len(a) != len(b) {
		t.Fatalf("the phases changed the throughput findings:\nwithout: %v\nwith:    %v", a, b)
	}
	for i := range a {
		if a[i].Rule != b[i].Rule || a[i].Message != b[i].Message {
			t.Errorf("finding %d changed: %s\nbecame %s", i, a[i], b[i])
		}
	}
	da := verdict.Decide(plain, verdict.Cells(plain, verdict.DefaultThresholds), verdict.MetricRPS, verdict.DecideOptions{Thresholds: verdict.DefaultThresholds})
	db := verdict.Decide(phased, cells, verdict.MetricRPS, verdict.DecideOptions{Thresholds: verdict.DefaultThresholds})
	flat := func(d *verdict.Verdicts) (out []string) {
		for _, sv := range d.Scenarios {
			for _, v := range sv.Pairs {
				out = append(out, fmt.Sprintf("%s/%s %s-%s %s %.6f", v.Run, v.Scenario, v.A, v.B, v.Verdict, v.Ratio))
			}
		}
		return out
	}
	if va, vb := flat(da), flat(db); !slices.Equal(va, vb) || len(va) == 0 {
		t.Errorf("verdicts with the phases %v, without %v", vb, va)
	}
}

// TestRecordOfPhasePoint checks that a throughput repetition is matched to
// its own run.json record, not to the sweep point of the same number.
func TestRecordOfPhasePoint(t *testing.T) {
	s := withPhases(cleanSet())
	s = withRun(s, func(r *parse.Run) {
		r.Measurements = r.Measurements[:0]
		for _, m := range s.Measurements {
			mr := runjson.Measurement{Target: m.Target, Scenario: m.Scenario, Rep: m.Rep, Phase: m.Phase, ClientCPUList: "1"}
			switch m.Phase {
			case parse.PhaseSweep:
				mr.Connections, mr.ClientCPUList = m.Connections, "0-3"
			case parse.PhaseLatency:
				mr.Rate, mr.ClientCPUList = m.Rate, "0-2"
			}
			r.Measurements = append(r.Measurements, mr)
		}
	})
	ix := verdict.NewRunIndex(s.Runs)
	want := map[string]int{parse.PhaseThroughput: 1, parse.PhaseSweep: 4, parse.PhaseLatency: 3}
	for _, m := range s.Measurements {
		m.Threads = 0
		if c, _ := ix.CPUs(m); c != want[m.Phase] {
			t.Errorf("%s rep %d phase %q: %d client CPUs, want %d", m.Target, m.Rep, m.Phase, c, want[m.Phase])
		}
	}
}

// TestClientSaturatedFolds checks that a saturated client is one finding
// for the run where every cell has it, one for a target where all its
// cells have it, and one per cell otherwise, with each cell's share named.
func TestClientSaturatedFolds(t *testing.T) {
	cpu := func(client float64) func(m *parse.Measurement) {
		return func(m *parse.Measurement) { m.ClientCPU, m.ServerCPU = client, 9 }
	}
	two := func() *parse.Set { // a and b on ping and json
		s := cleanSet()
		s.Measurements = append(s.Measurements, series("r", "a", "json", 21, 2, 800, 801, 799, 800.5, 799.5)...)
		s.Measurements = append(s.Measurements, series("r", "b", "json", 22, 2, 900, 901, 899, 900.5, 899.5)...)
		return s
	}
	tests := []struct {
		name  string
		set   *parse.Set
		where []string
	}{
		{"whole run", withRun(each(each(two(), "a", cpu(9.5)), "b", cpu(9.6)), nil), []string{"r"}},
		{"one target", withRun(each(each(two(), "a", cpu(9.5)), "b", cpu(5)), nil), []string{"r/a"}},
		{"most of a target", withRun(func() *parse.Set {
			s := each(each(two(), "a", cpu(9.5)), "b", cpu(5))
			s.Measurements = append(s.Measurements, series("r", "a", "static", 31, 2, 700, 701, 699, 700.5, 699.5)...)
			return each(s, "a", func(m *parse.Measurement) {
				if m.Scenario == "static" {
					cpu(5)(m)
				}
			})
		}(), nil), []string{"r/a"}},
		{"one cell", withRun(each(cleanSet(), "a", cpu(9.5)), nil), []string{"r/a/ping"}},
		{"none", withRun(each(cleanSet(), "a", cpu(5)), nil), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var where []string
			for _, f := range Audit(tt.set, AuditOptions{}) {
				if f.Rule == RuleClientSaturated {
					where = append(where, f.where())
					if tt.where[0] == "r" && !(strings.Contains(f.Message, "in all 4 cells of the run") && strings.Contains(f.Message, "a/json 95%") && strings.Contains(f.Message, "b/ping 96%")) {
						t.Errorf("the run's finding does not name each cell's share: %s", f.Message)
					}
					if tt.name == "most of a target" && !strings.Contains(f.Message, "in 2 of the 3 cells of a (json 95%; ping 95%)") {
						t.Errorf("the target's finding does not say how many of its cells: %s", f.Message)
					}
				}
			}
			if !slices.Equal(where, tt.where) {
				t.Errorf("client-saturated at %v, want %v", where, tt.where)
			}
		})
	}
}

// TestPhaseRunDir audits a real run with every phase (the ping scenario of
// a fairbench collect demo: three targets, three closed-loop repetitions,
// vegeta at 50% and 90% of each target's capacity, a sweep at 1 and 64
// connections): the cells hold their three repetitions only, settings do
// not read as mixed, the sweep is too thin, and, where the vegeta dumps
// are read, every latency point is the client's failure (it sent 662 to
// 2,219 req/s of 7,514 to 15,439 offered).
func TestPhaseRunDir(t *testing.T) {
	set, errs := parse.ReadAll([]string{"testdata/phase-run/20261201T122920Z-vm"})
	for _, err := range errs {
		if !strings.Contains(err.Error(), "/latency-") { // vegeta dumps, where this tree has no vegeta reader yet
			t.Errorf("read: %v", err)
		}
	}
	cells := verdict.Cells(set, verdict.DefaultThresholds)
	if len(cells) != 3 {
		t.Fatalf("%d cells, want chi, gin and stdlib on ping", len(cells))
	}
	for _, c := range cells {
		if len(c.Reps) != 3 {
			t.Errorf("%s: %d repetitions, want 3 (the sweep's are not)", c, len(c.Reps))
		}
	}
	fs := Audit(set, AuditOptions{})
	for _, rule := range []string{RuleMixedSettings, RuleSettingsUnknown, RuleToolFailed} {
		if got := rulesOfKind(fs, rule); len(got) != 0 {
			t.Errorf("%s on a run with phases: %v", rule, got)
		}
	}
	checkPlaces(t, rulesOfKind(fs, RuleSweepPoints), []string{"20261201T122920Z-vm"}, "chi/ping 2 connection counts (1, 64), 1 repetition at the fewest")
	latency := 0
	for _, m := range set.Measurements {
		if m.Phase == parse.PhaseLatency && !m.Warmup {
			latency++
		}
	}
	if latency == 0 {
		t.Logf("no vegeta reader here: the latency rules were not run on this run's points")
		return
	}
	checkPlaces(t, rulesOfKind(fs, RuleAchievedBelowOffered), []string{"20261201T122920Z-vm"}, "gin/ping at 50% (7,514 req/s) the client in 1 of 1 repetitions (sent 662 req/s")
	checkPlaces(t, rulesOfKind(fs, RuleClosedLoop), []string{"20261201T122920Z-vm"}, "see the latency phase (chi/ping: p99")
}

// TestInterferenceNamesPhasePoints checks that foreign load during a
// latency or sweep point is named as that point, not as one more
// repetition 1 of the cell.
func TestInterferenceNamesPhasePoints(t *testing.T) {
	busy := &runjson.Interference{WindowS: 1, Server: load("0", 1, 0.8, 0), Client: load("1", 1, 0, 0)}
	ms := []runjson.Measurement{
		{Target: "gin", Scenario: "ping", Rep: 1, Interference: busy},
		{Target: "gin", Scenario: "ping", Rep: 1, Phase: parse.PhaseLatency, Rate: 8577, RateFraction: 0.5, Interference: busy},
		{Target: "gin", Scenario: "ping", Rep: 1, Phase: parse.PhaseLatency, Rate: 900, Interference: busy},
		{Target: "gin", Scenario: "ping", Rep: 1, Phase: parse.PhaseSweep, Connections: 64, Interference: busy},
	}
	fs := interferenceFindings(&parse.Set{Runs: []*parse.Run{{Manifest: runjson.Manifest{ID: "r", Measurements: ms}}}}, verdict.DefaultThresholds)
	if len(fs) != 1 {
		t.Fatalf("want one finding, got %v", fs)
	}
	for _, want := range []string{"gin/ping (up to 80% of the server's CPU set 0; rep 1)", "gin/ping latency at 50% (up to", "gin/ping latency at 900 req/s (up to", "gin/ping sweep at 64 connections (up to"} {
		if !strings.Contains(fs[0].Message, want) {
			t.Errorf("message lacks %q:\n%s", want, fs[0].Message)
		}
	}
}

// TestAdviceIgnoresPhasePoints checks that a latency point (which reuses
// the repetition's server) does not read as a repetition without a fresh
// server, nor its warm-up as the run's.
func TestAdviceIgnoresPhasePoints(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	r := &parse.Run{Manifest: runjson.Manifest{ID: "r", Measurements: []runjson.Measurement{
		{Target: "a", Scenario: "ping", Rep: 1, StartupS: 0.2, Order: 1},
		{Target: "a", Scenario: "ping", Rep: 1, Warmup: true, Start: t0, End: t0.Add(time.Second), Order: 2},
		{Target: "a", Scenario: "ping", Rep: 3, Phase: parse.PhaseLatency, Rate: 500, Order: 3},
		{Target: "a", Scenario: "ping", Rep: 3, Phase: parse.PhaseLatency, Rate: 500, Warmup: true, Start: t0, End: t0.Add(9 * time.Second), Order: 4},
	}}}
	if a := runAdvice(r); a.sharedSrv || a.warmup != "1.0 s" {
		t.Errorf("advice %+v: want a fresh server for every repetition and the 1.0 s warm-up of the throughput pass", a)
	}
}

// TestFailedPhasePointNotRetaken checks that a latency point that failed is
// not taken for retaken because the throughput repetition of the same
// number succeeded, and that the finding names the point.
func TestFailedPhasePointNotRetaken(t *testing.T) {
	r := &parse.Run{Manifest: runjson.Manifest{ID: "r", Status: "complete", Measurements: []runjson.Measurement{
		{Target: "a", Scenario: "ping", Rep: 1, Tool: parse.ToolWrk},
		{Target: "a", Scenario: "ping", Rep: 1, Tool: parse.ToolVegeta, Phase: parse.PhaseLatency, Rate: 500, RateFraction: 0.5, ExitStatus: 1, Error: "exit status 1"},
	}}}
	fs := rulesOfKind(toolFailedFindings(&parse.Set{Runs: []*parse.Run{r}}), RuleToolFailed)
	if len(fs) != 1 || fs[0].Level != LevelError || !strings.Contains(fs[0].Message, "measurement rep 1 latency at 50%: vegeta exited with status 1") {
		t.Errorf("want one error naming the latency point, got %v", fs)
	}
}
