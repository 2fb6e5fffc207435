package audit

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
)

// cleanSet is a run no rule fires on: two targets, five interleaved
// repetitions each, steady numbers, no errors.
func cleanSet() *parse.Set {
	return setOf(
		series("r", "a", "ping", 1, 2, 1000, 1001, 999, 1000.5, 999.5),
		series("r", "b", "ping", 2, 2, 1200, 1201, 1199, 1200.5, 1199.5),
	)
}

// cell returns the measurements of target in s, in rep order.
func cellOf(s *parse.Set, target string) []*parse.Measurement {
	var ms []*parse.Measurement
	for _, m := range s.Measurements {
		if m.Target == target && !m.Warmup {
			ms = append(ms, m)
		}
	}
	return ms
}

// withRPS sets a's req/s per repetition (and the requests to match).
func withRPS(s *parse.Set, target string, rps ...float64) *parse.Set {
	for i, m := range cellOf(s, target) {
		*m = *meas(m.Run, m.Target, m.Scenario, m.Rep, rps[i])
		m.Order = 2*i + 1
		if target == "b" {
			m.Order++
		}
	}
	return s
}

// each applies f to every measurement of target.
func each(s *parse.Set, target string, f func(m *parse.Measurement)) *parse.Set {
	for _, m := range cellOf(s, target) {
		f(m)
	}
	return s
}

// withRun adds run r's run.json as parse reads it, with one client and one
// server CPU, listing every measurement.
func withRun(s *parse.Set, f func(r *parse.Run)) *parse.Set {
	r := &parse.Run{Manifest: runjson.Manifest{ID: "r", Status: "complete", Facts: runjson.Facts{Hostname: "h", CPUModel: "cpu", Threads: 2}}}
	r.Isolation.ServerCPUs, r.Isolation.ClientCPUs = "0", "1"
	for _, m := range s.Measurements {
		r.Measurements = append(r.Measurements, runjson.Measurement{Target: m.Target, Scenario: m.Scenario, Rep: m.Rep, Order: m.Order, Tool: m.Tool})
	}
	if f != nil {
		f(r)
	}
	s.Runs = append(s.Runs, r)
	return s
}

func rulesOf(fs []Finding) []string {
	var rules []string
	for _, f := range fs {
		rules = append(rules, f.Rule)
	}
	slices.Sort(rules)
	return slices.Compact(rules)
}

func TestAuditCleanRunIsQuiet(t *testing.T) {
	fs := Audit(withRun(cleanSet(), nil), AuditOptions{Pairs: [][2]string{{"a", "a"}}})
	fs = slices.DeleteFunc(fs, func(f Finding) bool { return f.Rule == RulePower }) // stated for every scenario
	if len(fs) != 0 {
		t.Errorf("findings on a clean run: %v", fs)
	}
}

func TestAuditRules(t *testing.T) {
	pct := func(p float64, corrected bool, samples int64) func(m *parse.Measurement) {
		return func(m *parse.Measurement) {
			m.Latency = parse.Latency{Percentiles: []parse.Percentile{{P: 50, Value: time.Millisecond}, {P: p, Value: 9 * time.Millisecond}}, Corrected: corrected, Samples: samples}
		}
	}
	cpu := func(client, server float64) func(m *parse.Measurement) {
		return func(m *parse.Measurement) { m.ClientCPU, m.ServerCPU = client, server }
	}
	hosts := func(server, client string) func(m *parse.Measurement) {
		return func(m *parse.Measurement) { m.ServerHost, m.ClientHost = server, client }
	}
	bad := func(c5xx int64) func(m *parse.Measurement) {
		return func(m *parse.Measurement) { m.Status.C2xx -= c5xx; m.Status.C5xx = c5xx }
	}
	tests := []struct {
		rule        string
		level       Level
		fire, quiet func() *parse.Set
		pairs       [][2]string
	}{
		{RuleTooFewReps, LevelWarning,
			func() *parse.Set { return setOf(series("r", "a", "ping", 1, 1, 1000, 1001)) },
			cleanSet, nil},
		{RuleNoisyCell, LevelWarning, // one noisy target of three: not the host
			func() *parse.Set {
				s := withRPS(cleanSet(), "a", 1000, 1200, 800, 1100, 900)
				return setOf(s.Measurements, series("r", "c", "ping", 11, 1, 500, 501, 502, 503, 499))
			},
			func() *parse.Set { return withRPS(cleanSet(), "a", 1000, 1020, 980, 1010, 990) }, nil},
		{RuleNoisyScenario, LevelWarning, // two noisy targets of three
			func() *parse.Set {
				s := withRPS(withRPS(cleanSet(), "a", 1000, 1200, 800, 1100, 900), "b", 1000, 1200, 800, 1100, 900)
				return setOf(s.Measurements, series("r", "c", "ping", 11, 1, 500, 501, 502, 503, 499))
			},
			func() *parse.Set { // one noisy target of three
				s := withRPS(cleanSet(), "a", 1000, 1200, 800, 1100, 900)
				return setOf(s.Measurements, series("r", "c", "ping", 11, 1, 500, 501, 502, 503, 499))
			}, nil},
		{RuleSlowFirstRep, LevelWarning,
			func() *parse.Set { return withRPS(cleanSet(), "a", 900, 1001, 999, 1000.5, 999.5) },
			func() *parse.Set { return withRPS(cleanSet(), "a", 970, 1001, 999, 1000.5, 999.5) }, nil},
		{RuleSlowFirstRep, LevelWarning, // rep 1 taken again last: the earliest, rep 2, is not the first process
			func() *parse.Set { return withRPS(cleanSet(), "a", 900, 1001, 999, 1000.5, 999.5) },
			func() *parse.Set {
				s := withRPS(cleanSet(), "a", 1000, 900, 999, 1000.5, 999.5)
				cellOf(s, "a")[0].Order = 99
				return s
			}, nil},
		{RuleHostFirstRep, LevelWarning, // repetition 1 slow in every cell: the host
			func() *parse.Set {
				s := withRPS(withRPS(cleanSet(), "a", 900, 1001, 999, 1000.5, 999.5), "b", 1080, 1201, 1199, 1200.5, 1199.5)
				return setOf(s.Measurements, series("r", "c", "ping", 11, 1, 450, 501, 502, 503, 499),
					series("r", "d", "ping", 21, 1, 300, 341, 342, 343, 339))
			},
			cleanSet, nil},
		{RuleOutlierRep, LevelWarning,
			func() *parse.Set { return withRPS(cleanSet(), "a", 1000, 1001, 999, 1000.5, 700) },
			func() *parse.Set { return withRPS(cleanSet(), "a", 1000, 1010, 990, 1005, 995) }, nil},
		{RuleDrift, LevelWarning,
			func() *parse.Set { return withRPS(cleanSet(), "a", 1000, 1010, 1020, 1030, 1040) },
			func() *parse.Set { return withRPS(cleanSet(), "a", 1000, 1001, 1002, 1003, 1004) }, nil},
		{RuleNotInterleaved, LevelWarning,
			func() *parse.Set {
				s := cleanSet()
				for i, m := range s.Measurements {
					m.Order = i + 1 // a's five, then b's five
				}
				return s
			},
			cleanSet, nil},
		{RuleNon2xx, LevelError,
			func() *parse.Set { return each(cleanSet(), "a", bad(100)) },
			cleanSet, nil},
		{RuleNon2xx, LevelWarning,
			func() *parse.Set { return each(cleanSet(), "a", bad(1)) },
			cleanSet, nil},
		{RuleSocketErrors, LevelError,
			func() *parse.Set { return each(cleanSet(), "a", func(m *parse.Measurement) { m.Errors.Read = 500 }) },
			func() *parse.Set { return each(cleanSet(), "a", func(m *parse.Measurement) { m.Errors.Timeout = 500 }) }, nil},
		{RuleTimeouts, LevelError,
			func() *parse.Set { return each(cleanSet(), "a", func(m *parse.Measurement) { m.Errors.Timeout = 500 }) },
			func() *parse.Set { return each(cleanSet(), "a", func(m *parse.Measurement) { m.Errors.Read = 500 }) }, nil},
		{RuleErrorsAsThroughput, LevelError,
			func() *parse.Set { return each(cleanSet(), "a", bad(1000)) }, // 10% of 10,000
			func() *parse.Set { return each(cleanSet(), "a", bad(100)) }, nil},
		{RuleResponseSize, LevelWarning,
			func() *parse.Set {
				return each(cleanSet(), "a", func(m *parse.Measurement) { m.BytesRead += int64(m.Rep) * m.Requests })
			},
			func() *parse.Set { return each(cleanSet(), "a", func(m *parse.Measurement) { m.BytesRead *= 2 }) }, nil},
		{RuleClientSaturated, LevelWarning,
			func() *parse.Set { return withRun(each(cleanSet(), "a", cpu(9.5, 9)), nil) },
			func() *parse.Set { return withRun(each(cleanSet(), "a", cpu(5, 9)), nil) }, nil},
		{RuleServerNotSaturated, LevelInfo,
			func() *parse.Set { return withRun(each(cleanSet(), "a", cpu(5, 2)), nil) },
			func() *parse.Set { return withRun(each(cleanSet(), "a", cpu(5, 9)), nil) }, nil},
		{RuleServerNotSaturated, LevelWarning,
			func() *parse.Set { return withRun(each(cleanSet(), "a", cpu(9.5, 2)), nil) },
			func() *parse.Set { return withRun(each(cleanSet(), "a", cpu(9.5, 9)), nil) }, nil},
		{RuleClosedLoop, LevelInfo,
			func() *parse.Set { return each(cleanSet(), "a", pct(99, false, 0)) },
			func() *parse.Set { return each(cleanSet(), "a", pct(99, true, 0)) }, nil},
		{RuleTailSamples, LevelWarning,
			func() *parse.Set { return each(cleanSet(), "a", pct(99.99, true, 50_000)) },      // 5 beyond
			func() *parse.Set { return each(cleanSet(), "a", pct(99.9, true, 50_000)) }, nil}, // 50 beyond
		{RuleMixedSettings, LevelError,
			func() *parse.Set { return each(cleanSet(), "a", func(m *parse.Measurement) { m.Connections = 128 }) },
			func() *parse.Set {
				return each(cleanSet(), "a", func(m *parse.Measurement) { m.Duration = 9 * time.Second })
			}, nil},
		{RuleMixedHosts, LevelWarning,
			func() *parse.Set {
				s := withRun(cleanSet(), nil)
				s.Runs = append(s.Runs, &parse.Run{Manifest: runjson.Manifest{ID: "r2", Facts: runjson.Facts{Hostname: "other"}}})
				return s
			},
			func() *parse.Set {
				s := withRun(cleanSet(), nil)
				s.Runs = append(s.Runs, &parse.Run{Manifest: runjson.Manifest{ID: "r2", Facts: s.Runs[0].Facts}})
				return s
			}, nil},
		{RuleHostPair, LevelWarning,
			func() *parse.Set { return each(each(cleanSet(), "a", hosts("s1", "c1")), "b", hosts("s2", "c2")) },
			func() *parse.Set { return each(each(cleanSet(), "a", hosts("s1", "c1")), "b", hosts("s1", "c1")) }, nil},
		{RuleToolFailed, LevelError,
			func() *parse.Set {
				return withRun(cleanSet(), func(r *parse.Run) { r.Measurements[0].ExitStatus, r.Measurements[0].Error = 1, "exit status 1" })
			},
			func() *parse.Set { return withRun(cleanSet(), nil) }, nil},
		{RuleRunIncomplete, LevelWarning,
			func() *parse.Set { return withRun(cleanSet(), func(r *parse.Run) { r.Status = "interrupted" }) },
			func() *parse.Set { return withRun(cleanSet(), nil) }, nil},
		{RuleGateFailed, LevelWarning,
			func() *parse.Set {
				s := cleanSet()
				s.Targets = []*parse.Target{{Run: "r", Name: "c", Conformance: "fail", Failed: []string{"json"}}}
				return s
			},
			func() *parse.Set {
				s := cleanSet()
				s.Targets = []*parse.Target{{Run: "r", Name: "c", Conformance: "pass"}}
				return s
			}, nil},
		{RuleReadWarning, LevelWarning,
			func() *parse.Set {
				s := cleanSet()
				s.Measurements[0].Warnings = []string{"x.txt:3: something odd"}
				return s
			},
			cleanSet, nil},
		{RuleAAPair, LevelError,
			func() *parse.Set { return withRPS(cleanSet(), "b", 1100, 1101, 1099, 1100.5, 1099.5) },
			func() *parse.Set { return withRPS(cleanSet(), "b", 1000.2, 1000.8, 999.2, 1001, 999.7) },
			[][2]string{{"a", "b"}}},
		{RuleAAPair, LevelWarning,
			cleanSet, cleanSet, [][2]string{{"a", "zz"}}},
	}
	for _, tt := range tests {
		t.Run(tt.rule+"/"+tt.level.String(), func(t *testing.T) {
			opts := AuditOptions{Pairs: tt.pairs}
			fired := false
			for _, f := range Audit(tt.fire(), opts) {
				if f.Rule == tt.rule && f.Level == tt.level {
					fired = true
					if f.Message == "" {
						t.Errorf("finding without a message: %+v", f)
					}
				}
			}
			if !fired {
				t.Errorf("did not fire; findings: %v", rulesOf(Audit(tt.fire(), opts)))
			}
			if tt.rule == RuleAAPair && tt.level == LevelWarning {
				return // a missing pair is missing from any set
			}
			for _, f := range Audit(tt.quiet(), opts) {
				if f.Rule == tt.rule && f.Level == tt.level {
					t.Errorf("fired on the quiet set: %s", f)
				}
			}
		})
	}
}

func TestAuditSortedAndStable(t *testing.T) {
	s := each(withRPS(cleanSet(), "a", 1000, 1200, 800, 1100, 900), "b", func(m *parse.Measurement) { m.Errors.Read = 5000 })
	a, b := Audit(s, AuditOptions{}), Audit(s, AuditOptions{})
	if len(a) < 2 {
		t.Fatalf("want several findings, got %v", a)
	}
	for i := range a {
		if a[i].String() != b[i].String() {
			t.Fatalf("order differs between calls: %v vs %v", a, b)
		}
		if i > 0 && a[i-1].Level < a[i].Level {
			t.Errorf("not errors first: %v before %v", a[i-1], a[i])
		}
	}
	if !HasErrors(a) {
		t.Errorf("HasErrors false with a socket-error finding")
	}
}

func TestWriteFindings(t *testing.T) {
	fs := []Finding{
		{Rule: RuleTimeouts, Level: LevelError, Run: "r", Target: "a", Scenario: "ping", Message: "m1", Dumps: []string{"a/1.txt"}},
		{Rule: RuleTooFewReps, Level: LevelWarning, Run: "r", Target: "a", Scenario: "ping", Message: "same", Dumps: []string{"a/1.txt"}},
		{Rule: RuleTooFewReps, Level: LevelWarning, Run: "r", Target: "b", Scenario: "ping", Message: "same", Dumps: []string{"b/1.txt"}},
	}
	var text bytes.Buffer
	if err := WriteFindingsText(&text, fs); err != nil {
		t.Fatal(err)
	}
	want := `1 error, 2 warnings, 0 infos

ERROR timeouts at r/a/ping
  m1
  dumps: a/1.txt

WARNING too-few-reps at 2 places: r/a/ping, r/b/ping
  same
  dumps: a/1.txt b/1.txt
`
	if text.String() != want {
		t.Errorf("text:\n%s\nwant:\n%s", text.String(), want)
	}
	var js bytes.Buffer
	if err := WriteFindingsJSON(&js, fs); err != nil {
		t.Fatal(err)
	}
	var back FindingsReport
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back.Errors != 1 || back.Warnings != 2 || len(back.Findings) != 3 || back.Findings[0].Level != LevelError {
		t.Errorf("JSON round trip: %+v", back)
	}
	if !strings.Contains(js.String(), `"level": "warning"`) {
		t.Errorf("level not written by name:\n%s", js.String())
	}
}
