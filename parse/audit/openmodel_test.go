package audit

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/parse"
)

// wrk2Point reads a real wrk2 -R dump as a latency point of run r. wrk2
// does not print its -R; rate is the one its .cmd beside the fixture says
// (/work/shared/fixtures/tools), as run.json would.
func wrk2Point(t *testing.T, name, target string, rate float64) *parse.Measurement {
	t.Helper()
	set, errs := parse.ReadAll([]string{"../testdata/wrk2-4.0.0-giltene-44a94c1__" + name + ".txt"})
	if len(errs) > 0 || len(set.Measurements) != 1 {
		t.Fatalf("%s: %v, %d measurements", name, errs, len(set.Measurements))
	}
	m := set.Measurements[0]
	m.Run, m.Target, m.Scenario, m.Rep, m.Phase, m.Rate = "r", target, "ping", 1, parse.PhaseLatency, rate
	return m
}

// vegetaPoint is a vegeta point of run r at fraction f of a 10,000 req/s
// capacity over 4 s, every request sent on time and answered 2xx, p99 4 ms.
func vegetaPoint(target string, rep int, f float64) *parse.Measurement {
	rate := 10_000 * f
	n := int64(math.Round(rate * 4))
	return &parse.Measurement{Tool: parse.ToolVegeta, Run: "r", Target: target, Scenario: "ping", Rep: rep,
		Phase: parse.PhaseLatency, Rate: rate, Window: 4 * time.Second, Duration: 4 * time.Second, Requests: n,
		Status:  parse.StatusCounts{Known: true, C2xx: n},
		Open:    parse.OpenModel{Fraction: f, Capacity: 10_000, SendRate: rate * 1.0001, Wait: time.Millisecond, Success: 1, SuccessKnown: true},
		Latency: parse.Latency{Percentiles: []parse.Percentile{{P: 50, Value: time.Millisecond}, {P: 99, Value: 4 * time.Millisecond}}},
		Source:  parse.Source{File: dumpName("r", target, "ping", rep) + ".latency." + formatShare(f)},
	}
}

// phaseOf is the vegeta points of targets at 25%, 50%, 75% and 90% of
// capacity, two repetitions each; change alters each point.
func phaseOf(change func(m *parse.Measurement), targets ...string) *parse.Set {
	s := &parse.Set{}
	for _, tg := range targets {
		for _, f := range []float64{0.25, 0.5, 0.75, 0.9} {
			for rep := 1; rep <= 2; rep++ {
				m := vegetaPoint(tg, rep, f)
				if change != nil {
					change(m)
				}
				s.Measurements = append(s.Measurements, m)
			}
		}
	}
	return s
}

// checkPlaces fails t unless fs are at where (run/target/scenario, in
// order) and the first one's message holds want ("" for anything).
func checkPlaces(t *testing.T, fs []Finding, where []string, want string) {
	t.Helper()
	var got []string
	for _, f := range fs {
		got = append(got, f.where())
	}
	if strings.Join(got, " ") != strings.Join(where, " ") {
		t.Fatalf("findings at %v, want %v: %v", got, where, fs)
	}
	if want != "" && !strings.Contains(fs[0].Message, want) {
		t.Errorf("message lacks %q:\n%s", want, fs[0].Message)
	}
}

func TestAchievedBelowOfferedRealDumps(t *testing.T) {
	kept := wrk2Point(t, "basic_R1000", "a", 1000)           // 2,995 answers in 3.00 s at -R1000
	lost := wrk2Point(t, "server_closes_latency", "b", 1000) // 9 answers in 4.02 s, 17 timeouts
	fs := rulesOfKind(Audit(&parse.Set{Measurements: []*parse.Measurement{kept, lost}}, AuditOptions{}), RuleAchievedBelowOffered)
	if len(fs) != 1 || fs[0].Target != "b" || fs[0].Scenario != "ping" {
		t.Fatalf("want one finding on b/ping, got %v", fs)
	}
	for _, want := range []string{"at 1,000 req/s the target or the client", "answered 2.24 req/s", "wrk2 does not say"} {
		if !strings.Contains(fs[0].Message, want) {
			t.Errorf("message lacks %q: %s", want, fs[0].Message)
		}
	}
}

func TestAchievedBelowOffered(t *testing.T) {
	atNinety := func(f func(m *parse.Measurement)) func(m *parse.Measurement) {
		return func(m *parse.Measurement) {
			if m.Open.Fraction == 0.9 {
				f(m)
			}
		}
	}
	tests := []struct {
		name  string
		set   *parse.Set
		where []string // of the findings
		want  string   // in the first finding's message
	}{
		{"kept", phaseOf(nil, "a", "b"), nil, ""},
		{"sent late", phaseOf(atNinety(func(m *parse.Measurement) { m.Open.Behind = 40 * time.Millisecond }), "a"),
			[]string{"r/a/ping"}, "at 90% (9,000 req/s) the client in 2 of 2 repetitions (a request went out 40 ms behind the schedule, beyond the point's 4 ms bound)"},
		{"late by less than p99", phaseOf(atNinety(func(m *parse.Measurement) { m.Open.Behind = 3 * time.Millisecond }), "a"), nil, ""},
		// where the results stream was read, the tail timed from the
		// schedule decides: one request 57 ms late does not move a p99 of
		// 4 ms, and is not the client failing
		{"one late request, tail unmoved", phaseOf(atNinety(func(m *parse.Measurement) {
			m.Open.Behind = 57 * time.Millisecond
			m.Open.FromSchedule = fromSchedule(m, 4*time.Millisecond+300*time.Microsecond)
		}), "a"), nil, ""},
		{"late enough to move the tail", phaseOf(atNinety(func(m *parse.Measurement) {
			m.Open.Behind = 57 * time.Millisecond
			m.Open.FromSchedule = fromSchedule(m, 31*time.Millisecond)
		}), "a"),
			[]string{"r/a/ping"}, "at 90% (9,000 req/s) the client in 2 of 2 repetitions (requests went out up to 57 ms late: timed from when each was due, the p99 is 31 ms, not the 4 ms printed)"},
		// the count of late requests held by answers says whose stall it
		// was: the target's when most were due with every worker waiting
		{"late, workers held by the target", phaseOf(atNinety(lateBy(parse.LateSending{Late: 120, Held: 117, Workers: 64, Wait: 3 * time.Second, HeldWait: 2900 * time.Millisecond})), "a"),
			[]string{"r/a/ping"}, "at 90% (9,000 req/s) the target in 2 of 2 repetitions (117 of the 120 requests that went out late, 2.9 s of their 3 s wait, were due while all 64 workers waited for answers: the target held them; requests went out up to 57 ms late"},
		{"late, workers free", phaseOf(atNinety(lateBy(parse.LateSending{Late: 120, Held: 60, Workers: 64, Wait: 3 * time.Second, HeldWait: 200 * time.Millisecond})), "a"),
			[]string{"r/a/ping"}, "at 90% (9,000 req/s) the client in 2 of 2 repetitions (requests went out up to 57 ms late"},
		{"short of the rate, workers held", phaseOf(atNinety(func(m *parse.Measurement) {
			m.Open.SendRate = 8000
			m.Open.Late = parse.LateSending{Late: 4000, Held: 4000, Workers: 64, Wait: 40 * time.Second, HeldWait: 40 * time.Second}
		}), "a"),
			[]string{"r/a/ping"}, "at 90% (9,000 req/s) the target in 2 of 2 repetitions (4,000 of the 4,000 requests"},
		{"on time, count made", phaseOf(atNinety(func(m *parse.Measurement) {
			m.Open.Late = parse.LateSending{Late: 2, Held: 2, Workers: 64, Wait: 3 * time.Millisecond, HeldWait: 3 * time.Millisecond}
		}), "a"), nil, ""},
		{"sent too slowly", phaseOf(atNinety(func(m *parse.Measurement) { m.Open.SendRate = 8000 }), "a", "b"),
			[]string{"r"}, "a/ping at 90% (9,000 req/s) the client in 2 of 2 repetitions (sent 8,000 req/s)"},
		{"answered too few", phaseOf(atNinety(func(m *parse.Measurement) { m.Open.Wait = 2 * time.Second }), "a"),
			[]string{"r/a/ping"}, "at 90% (9,000 req/s) the target in 2 of 2 repetitions (answered 6,000 req/s of 9,001 sent)"},
		{"either in one rate", phaseOf(atNinety(func(m *parse.Measurement) {
			if m.Rep == 1 {
				m.Open.SendRate = 8000
			} else {
				m.Open.Wait = 2 * time.Second
			}
		}), "a"),
			[]string{"r/a/ping"}, "at 90% (9,000 req/s) the client in 1 of 2 repetitions (sent 8,000 req/s), at 90% (9,000 req/s) the target in 1 of 2 repetitions (answered 6,000 req/s of 9,001 sent)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkPlaces(t, rulesOfKind(Audit(tt.set, AuditOptions{}), RuleAchievedBelowOffered), tt.where, tt.want)
		})
	}
}

// lateBy makes a point late enough to move its tail (57 ms behind, p99
// from the schedule 31 ms against 4 ms printed), its late requests as l.
func lateBy(l parse.LateSending) func(m *parse.Measurement) {
	return func(m *parse.Measurement) {
		m.Open.Behind = 57 * time.Millisecond
		m.Open.FromSchedule = fromSchedule(m, 31*time.Millisecond)
		m.Open.Late = l
	}
}

// fromSchedule is m's latency with its p99 timed from the schedule at p99.
func fromSchedule(m *parse.Measurement, p99 time.Duration) parse.Latency {
	l := parse.Latency{Max: max(p99, m.Latency.Max), Corrected: true}
	for _, p := range m.Latency.Percentiles {
		if p.P == 99 {
			p.Value = p99
		}
		l.Percentiles = append(l.Percentiles, p)
	}
	return l
}

// TestAchievedBelowOfferedSimulated checks the rule by simulation (fixed
// seed): a server that keeps up, answered by a client that keeps its
// schedule up to timer lateness and sends as vegeta does, is called behind
// in at most α of its points; a client that can send only 95% of the rate
// is caught in at least 1 − α of them.
func TestAchievedBelowOfferedSimulated(t *testing.T) {
	const points, alpha = 20_000, 0.05
	rng := rand.New(rand.NewPCG(1, 16))
	point := func(capacity float64) *parse.Measurement {
		m := vegetaPoint("a", 1, 0.25+0.65*rng.Float64())
		window := m.Duration.Seconds()
		sendable := math.Min(m.Rate, capacity*(1+0.005*rng.NormFloat64())) // the client's own limit, 0.5% noise
		n := math.Floor(sendable * window)
		// vegeta's rate: requests ÷ (last − first sent), the last sent one
		// interval before the window ends, give or take timer lateness.
		late := time.Duration(rng.ExpFloat64() * float64(200*time.Microsecond))
		if rng.Float64() < 0.1 { // a collector pause of the load tool now and then
			late += time.Duration(rng.ExpFloat64() * float64(2*time.Millisecond))
		}
		m.Requests, m.Status.C2xx = int64(n), int64(n)
		m.Open.SendRate = n / (window - 1/sendable + late.Seconds())
		m.Open.Behind = late
		if sendable < m.Rate {
			m.Open.Behind = time.Duration((1 - sendable/m.Rate) * window * float64(time.Second)) // falls behind steadily
		}
		// latency lognormal, median 1 ms and p99 about 10 ms; the wait is
		// the latency of the last requests in flight.
		lat := func() time.Duration { return time.Duration(math.Exp(rng.NormFloat64()) * float64(time.Millisecond)) }
		m.Open.Wait = lat()
		m.Latency.Percentiles[1].Value = 10 * time.Millisecond
		return m
	}
	calls := func(capacity float64) float64 {
		hit := 0
		for range points {
			if who, _ := whoFellBehind(point(capacity)); who != behindNone {
				hit++
			}
		}
		return float64(hit) / points
	}
	rate := calls(math.Inf(1))
	t.Logf("schedule kept: called behind in %.3f%% of %d points", rate*100, points)
	if rate > alpha {
		t.Errorf("a schedule kept is called behind in %.2f%% of points, want at most %.0f%%", rate*100, alpha*100)
	}
	// a client limited to 95% of the lowest rate: every rate falls behind.
	rate = calls(0.95 * 2500)
	t.Logf("client at 95%% of the lowest rate: caught in %.3f%% of points", rate*100)
	if rate < 1-alpha {
		t.Errorf("a client short of the rate is caught in %.2f%% of points, want at least %.0f%%", rate*100, (1-alpha)*100)
	}
}

func TestErrorsAtRate(t *testing.T) {
	fail := func(from float64) func(m *parse.Measurement) {
		return func(m *parse.Measurement) {
			if m.Open.Fraction >= from {
				m.Status.C2xx -= 30
				m.Status.C5xx = 30
			}
		}
	}
	fs := rulesOfKind(Audit(phaseOf(fail(0.75), "a", "b"), AuditOptions{}), RuleErrorsAtRate)
	if len(fs) != 2 {
		t.Fatalf("want one finding per cell, got %v", fs)
	}
	for _, want := range []string{"120 of 192,000 requests", "from 75% (7,500 req/s) on, at 2 of the 4 offered rates"} {
		if !strings.Contains(fs[0].Message, want) {
			t.Errorf("message lacks %q: %s", want, fs[0].Message)
		}
	}
	if fs[0].Level != LevelWarning {
		t.Errorf("0.06%% failed is level %s, want warning", fs[0].Level)
	}
	if fs := rulesOfKind(Audit(phaseOf(nil, "a"), AuditOptions{}), RuleErrorsAtRate); len(fs) != 0 {
		t.Errorf("fired without errors: %v", fs)
	}
	// a real wrk2 -R dump whose every answer was a 500
	m := wrk2Point(t, "non2xx_500", "a", 1000)
	fs = rulesOfKind(Audit(&parse.Set{Measurements: []*parse.Measurement{m}}, AuditOptions{}), RuleErrorsAtRate)
	if len(fs) != 1 || fs[0].Level != LevelError || !strings.Contains(fs[0].Message, "2,994 of 2,994 requests") {
		t.Errorf("non2xx_500: %v", fs)
	}
}

// TestLatencyPhaseClientCPU checks the latency phase's points through the
// client-saturated rule's own measure: a vegeta point that kept its one
// client CPU 95% busy is named, one at 50% is not.
func TestLatencyPhaseClientCPU(t *testing.T) {
	s := phaseOf(func(m *parse.Measurement) {
		m.ClientCPU = 4 * 0.5
		if m.Open.Fraction == 0.9 {
			m.ClientCPU = 4 * 0.95
		}
	}, "a")
	s = withRun(s, func(r *parse.Run) {
		for i, m := range s.Measurements {
			r.Measurements[i].Phase, r.Measurements[i].Rate = m.Phase, m.Rate
		}
	})
	fs := rulesOfKind(Audit(s, AuditOptions{}), RuleClientSaturated)
	if len(fs) != 1 || fs[0].where() != "r/a/ping" || !strings.Contains(fs[0].Message, "95% at 90% (9,000 req/s) rep 1, 95% at 90% (9,000 req/s) rep 2") {
		t.Fatalf("want one finding on a/ping naming the 90%% points, got %v", fs)
	}
	if strings.Contains(fs[0].Message, "50%") {
		t.Errorf("names a point below the bound: %s", fs[0].Message)
	}
}

// vegetaDump reads a real vegeta dump of testdata/vegeta as a latency
// point offered at rate (its -rate; see the README there), or skips where
// this tree has no vegeta reader yet.
func vegetaDump(t *testing.T, name, target string, rate float64) *parse.Measurement {
	t.Helper()
	set, errs := parse.ReadAll([]string{"testdata/vegeta/" + name})
	if len(set.Measurements) != 1 {
		t.Skipf("%s not read as one vegeta measurement here (%v): no vegeta reader in this tree", name, errs)
	}
	m := set.Measurements[0]
	m.Run, m.Target, m.Scenario, m.Rep, m.Phase, m.Rate = "r", target, "ping", 1, parse.PhaseLatency, rate
	return m
}

func TestOpenModelRulesRealVegeta(t *testing.T) {
	kept := vegetaDump(t, "kept_R1000.txt", "a", 1000)
	refused := vegetaDump(t, "refused_R200.txt", "b", 200)
	if who, how := whoFellBehind(kept); who != behindNone {
		t.Errorf("a kept schedule (sent 1,000.6 req/s, answered 1,000.4) is called behind: %s, %s", who, how)
	}
	fs := Audit(&parse.Set{Measurements: []*parse.Measurement{kept, refused}}, AuditOptions{})
	checkPlaces(t, rulesOfKind(fs, RuleAchievedBelowOffered), []string{"r/b/ping"}, "at 200 req/s the target in 1 of 1 repetitions (answered 150 req/s of 201 sent)")
	checkPlaces(t, rulesOfKind(fs, RuleErrorsAtRate), []string{"r/b/ping"}, "152 of 600 requests")
	// read alone, nothing records the offered rate: the answers are still
	// judged against what was sent
	refused.Rate = 0
	fs = Audit(&parse.Set{Measurements: []*parse.Measurement{refused}}, AuditOptions{})
	checkPlaces(t, rulesOfKind(fs, RuleAchievedBelowOffered), []string{"r/b/ping"}, "at an offered rate not recorded the target in 1 of 1 repetitions (answered 150 req/s of 201 sent)")
}

// TestLatencyPhaseTailSamples checks that a latency point's p99.9 resting
// on fewer than MinTailSamples samples is said, as a cell's is.
func TestLatencyPhaseTailSamples(t *testing.T) {
	thin := phaseOf(func(m *parse.Measurement) {
		m.Latency.Percentiles = append(m.Latency.Percentiles, parse.Percentile{P: 99.9, Value: 9 * time.Millisecond})
	}, "a") // 10,000 samples at 25%: 10 beyond p99.9, enough
	if fs := rulesOfKind(Audit(thin, AuditOptions{}), RuleTailSamples); len(fs) != 0 {
		t.Errorf("fired with enough samples: %v", fs)
	}
	thin = phaseOf(func(m *parse.Measurement) {
		m.Latency.Percentiles = append(m.Latency.Percentiles, parse.Percentile{P: 99.99, Value: 9 * time.Millisecond})
	}, "a")
	checkPlaces(t, rulesOfKind(Audit(thin, AuditOptions{}), RuleTailSamples), []string{"r/a/ping"}, "in the latency phase, p99.99 of 10,000 samples")
}
