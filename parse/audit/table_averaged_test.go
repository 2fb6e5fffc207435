package audit

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// averagedRun is a real run dir: gin, chi and echo answering ping, four
// repetitions each, bombardier -l (p50 to p99 in microseconds), cut from a
// run of the go-frameworks suite.
const averagedRun = "testdata/audit-averaged/20261129T201538Z-vm"

// repP99s reads the run and returns each target's p99 per repetition, in
// milliseconds, as the dumps printed them.
func repP99s(t *testing.T) (*parse.Set, map[string][]float64) {
	t.Helper()
	set, errs := parse.ReadAll([]string{averagedRun})
	if len(errs) > 0 {
		t.Fatalf("reading %s: %v", averagedRun, errs)
	}
	p99 := map[string][]float64{}
	for _, m := range set.Measurements {
		for _, p := range m.Latency.Percentiles {
			if p.P == 99 {
				p99[m.Target] = append(p99[m.Target], float64(p.Value)/float64(time.Millisecond))
			}
		}
	}
	if len(p99) != 3 {
		t.Fatalf("p99s %v, want gin, chi and echo", p99)
	}
	return set, p99
}

func testMean(v []float64) float64 {
	var sum float64
	for _, x := range v {
		sum += x
	}
	return sum / float64(len(v))
}

func testMedian(v []float64) float64 {
	s := slices.Clone(v)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// latencyTable writes a results table with one p99 column, each row's
// number computed by summary from that target's p99s.
func latencyTable(header string, p99 map[string][]float64, summary func([]float64) float64, unit string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Latency\n\n| Framework | %s |\n|---|---:|\n", header)
	for _, target := range []string{"chi", "echo", "gin"} {
		fmt.Fprintf(&b, "| %s | %.2f%s |\n", target, summary(p99[target]), unit)
	}
	return b.String()
}

func TestAuditTableAveragedPercentileRealDumps(t *testing.T) {
	set, p99 := repP99s(t)
	for target, v := range p99 {
		if len(v) != 4 {
			t.Fatalf("%s: %d repetitions, want 4", target, len(v))
		}
		if fmt.Sprintf("%.2f", testMean(v)) == fmt.Sprintf("%.2f", testMedian(v)) {
			t.Fatalf("%s: mean and median of %v print alike; the test needs them apart", target, v)
		}
	}
	for _, tt := range []struct{ header, unit string }{{"p99 (ms)", ""}, {"Latency p99", " ms"}, {"ping p99", "ms"}} {
		t.Run(tt.header, func(t *testing.T) {
			mean := latencyTable(tt.header, p99, testMean, tt.unit)
			fs, err := AuditTable(strings.NewReader(mean), "latency.md", set)
			if err != nil {
				t.Fatal(err)
			}
			if len(fs) != 3 {
				t.Fatalf("table of means:\n%s\nfindings:\n%v\nwant one %s per target", mean, fs, RuleTableAveragedPercentile)
			}
			for i, target := range []string{"chi", "echo", "gin"} {
				f, v := fs[i], p99[target]
				want := []string{
					fmt.Sprintf("latency.md:%d: %s %s says %.2f", 5+i, target, tt.header, testMean(v)),
					fmt.Sprintf("mean %.2f ms", testMean(v)),
					fmt.Sprintf("publish the median of the repetitions' p99s, %.2f ms (range ", testMedian(v)),
					"merged latency histogram",
				}
				if f.Rule != RuleTableAveragedPercentile || f.Level != LevelWarning || f.Target != target || f.Scenario != "ping" || len(f.Dumps) != 4 {
					t.Errorf("finding %d: %s %v, want a %s warning on %s/ping with its 4 dumps", i, f, f.Dumps, RuleTableAveragedPercentile, target)
				}
				for _, w := range want {
					if !strings.Contains(f.Message, w) {
						t.Errorf("finding %d message\n%s\nlacks %q", i, f.Message, w)
					}
				}
			}

			median := latencyTable(tt.header, p99, testMedian, tt.unit)
			if fs, err := AuditTable(strings.NewReader(median), "latency.md", set); err != nil || len(fs) != 0 {
				t.Errorf("table of medians:\n%s\nfindings: %v, %v; want none", median, fs, err)
			}
		})
	}
}

// TestAuditTableMeanRPS: a req/s column of means is still a mismatch, and
// the message says the number is the mean.
func TestAuditTableMeanRPS(t *testing.T) {
	set, _ := repP99s(t)
	rps := map[string][]float64{}
	for _, m := range set.Measurements {
		rps[m.Target] = append(rps[m.Target], verdict.ReqPerSec(m))
	}
	table := "| Framework | ping |\n|---|---|\n"
	for _, target := range []string{"chi", "echo", "gin"} {
		table += fmt.Sprintf("| %s | %.2f |\n", target, testMean(rps[target]))
	}
	fs, err := AuditTable(strings.NewReader(table), "rps.md", set)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 3 {
		t.Fatalf("findings %v, want three mismatches", fs)
	}
	for i, f := range fs {
		if f.Rule != RuleTableMismatch || !strings.Contains(f.Message, fmt.Sprintf("%.2f is their mean", testMean(rps[f.Target]))) {
			t.Errorf("finding %d: %s, want a mismatch saying the number is the mean", i, f)
		}
	}
}

func TestReadPercentileColumn(t *testing.T) {
	scenarios := map[string]string{"ping": "ping", "json": "JSON"}
	tests := []struct {
		header string
		want   percentileColumn
		ok     bool
	}{
		{"p99", percentileColumn{p: 99}, true},
		{"P99 (ms)", percentileColumn{p: 99, unit: "ms"}, true},
		{"Latency p99.9 [µs]", percentileColumn{p: 99.9, unit: "µs"}, true},
		{"json p50 latency, ms", percentileColumn{p: 50, scenario: "json", unit: "ms"}, true},
		{"99th percentile", percentileColumn{p: 99}, true},
		{"99% latency (ms)", percentileColumn{p: 99, unit: "ms"}, true},
		{"p100", percentileColumn{p: 100}, true},
		{"99%", percentileColumn{}, false},       // a share, not a percentile
		{"p99 req/s", percentileColumn{}, false}, // a rate percentile
		{"99% CI", percentileColumn{}, false},
		{"p101", percentileColumn{}, false},
		{"Latency", percentileColumn{}, false},
		{"Notes", percentileColumn{}, false},
	}
	for _, tt := range tests {
		got, ok := readPercentileColumn(tt.header, scenarios)
		if got != tt.want || ok != tt.ok {
			t.Errorf("readPercentileColumn(%q) = %+v, %v; want %+v, %v", tt.header, got, ok, tt.want, tt.ok)
		}
	}
}

// TestAuditTablePercentileRules covers where a percentile's scenario comes
// from and what each kind of number gets, on typed numbers.
func TestAuditTablePercentileRules(t *testing.T) {
	set := &parse.Set{}
	add := func(target, scenario string, p99ms ...float64) {
		for i, v := range p99ms {
			set.Measurements = append(set.Measurements, &parse.Measurement{Target: target, Scenario: scenario, Rep: i + 1, RPS: 1000,
				Latency: parse.Latency{Percentiles: []parse.Percentile{{P: 50, Value: time.Millisecond}, {P: 99, Value: time.Duration(v * float64(time.Millisecond))}}},
				Source:  parse.Source{File: fmt.Sprintf("%s-%s-%d.txt", target, scenario, i+1)}})
		}
	}
	add("a", "ping", 1, 2, 6)   // median 2, mean 3
	add("a", "json", 4, 5, 9)   // median 5, mean 6
	add("b", "ping", 2, 2.5, 3) // median = mean = 2.5
	add("b", "json", 1)         // one repetition
	tests := []struct {
		name, table string
		want        []string // rule target scenario, sorted as AuditTable sorts
	}{
		{"header scenario", "| Name | ping p99 (ms) | json p99 (ms) |\n|---|---|---|\n| a | 3 | 5 |\n| b | 2.5 | 1.0 |\n",
			[]string{RuleTableAveragedPercentile + " a ping"}},
		{"row scenario", "| Name | Scenario | p99 |\n|---|---|---|\n| a | ping | 2 ms |\n| a | json | 6.0ms |\n| b | ping | 2500 us |\n| b | query | 1 ms |\n",
			[]string{RuleTableNumberWithoutDump + " b query", RuleTableAveragedPercentile + " a json"}},
		{"out of range", "| Name | ping p99 (ms) |\n|---|---|\n| a | 6.2 |\n| b | 1.9 |\n",
			[]string{RuleTableMismatch + " a ping", RuleTableMismatch + " b ping"}},
		{"in range, neither", "| Name | ping p99 (ms) |\n|---|---|\n| a | 5.9 |\n| b | 2.9 |\n",
			[]string{RuleTableUnchecked + "  "}},
		{"printed precision", "| Name | ping p99 (ms) |\n|---|---|\n| a | 6 |\n| b | 2 |\n", // 6 is in range, 2 is b's median 2.5 rounded
			nil},
		{"no scenario", "| Name | p99 (ms) |\n|---|---|\n| a | 3 |\n| b | 2.5 |\n",
			[]string{RuleTableUnchecked + "  "}},
		{"no unit", "| Name | ping p99 |\n|---|---|\n| a | 3 |\n| b | 2.5 |\n",
			[]string{RuleTableUnchecked + "  "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs, err := AuditTable(strings.NewReader(tt.table), "t.md", set)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range fs {
				got = append(got, f.Rule+" "+f.Target+" "+f.Scenario)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("findings:\n%s\nwant:\n%s\n(full: %v)", strings.Join(got, "\n"), strings.Join(tt.want, "\n"), fs)
			}
		})
	}
}

// TestLatencyFormatMedian: the interval where the repetitions allow one.
func TestLatencyFormatMedian(t *testing.T) {
	f := latencyFormat{unit: "ms", scale: 1e6, decimals: 1}
	few := verdict.NewStat([]float64{1e6, 2e6, 3e6}, verdict.DefaultThresholds)
	if got, want := f.median(few), "2.0 ms (range 1.0–3.0 ms; 3 repetitions are too few for a 95% interval, run more)"; got != want {
		t.Errorf("median of 3 = %q, want %q", got, want)
	}
	var ten []float64
	for i := 1; i <= 10; i++ {
		ten = append(ten, float64(i)*1e6)
	}
	st := verdict.NewStat(ten, verdict.DefaultThresholds)
	want := fmt.Sprintf("5.5 ms (%s%% interval %s–%s ms)", strconv.FormatFloat(st.Confidence*100, 'f', 0, 64),
		strconv.FormatFloat(st.Lo/1e6, 'f', 1, 64), strconv.FormatFloat(st.Hi/1e6, 'f', 1, 64))
	if got := f.median(st); got != want {
		t.Errorf("median of 10 = %q, want %q", got, want)
	}
}
