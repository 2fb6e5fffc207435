package verdict

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/fairbench/fairbench/parse"

	"golang.org/x/perf/benchmath"
)

// closeTo reports whether got is within a relative 1e-9 of want.
func closeTo(got, want float64) bool {
	if math.IsInf(want, 0) || math.IsNaN(want) {
		return got == want || math.IsNaN(got) && math.IsNaN(want)
	}
	return math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want))
}

func TestNewStatKnownAnswers(t *testing.T) {
	tests := []struct {
		name             string
		values           []float64
		median, min, max float64
		lo, hi, conf     float64
		cv               float64
	}{
		// Deviations from 100 are 2,2,1,1,0: MAD 1, CV 1.4826%. Five values
		// are too few for a finite 95% interval of the median (benchmath
		// needs 6): one side is open, at 1 - 1/32.
		{"five", []float64{102, 98, 100, 101, 99}, 100, 98, 102, math.Inf(-1), 102, 0.96875, 0.014826},
		// 1..10: binomial(10, ½) puts 11/1024 below the 2nd order statistic,
		// so [x(2), x(9)] holds the median with 1 - 22/1024 = 0.978515625.
		// Deviations from 5.5: 0.5,0.5,1.5,1.5,…,4.5,4.5: MAD 2.5.
		{"ten", []float64{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, 5.5, 1, 10, 2, 9, 0.978515625, 1.4826 * 2.5 / 5.5},
		{"one", []float64{42}, 42, 42, 42, math.Inf(-1), math.Inf(1), 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := append([]float64(nil), tt.values...)
			s := NewStat(in, DefaultThresholds)
			got := []float64{s.Median, s.Min, s.Max, s.Lo, s.Hi, s.Confidence, s.CV}
			want := []float64{tt.median, tt.min, tt.max, tt.lo, tt.hi, tt.conf, tt.cv}
			for i := range got {
				if !closeTo(got[i], want[i]) {
					t.Errorf("median, min, max, lo, hi, confidence, cv = %v, want %v", got, want)
					break
				}
			}
			if s.N != len(tt.values) {
				t.Errorf("N = %d, want %d", s.N, len(tt.values))
			}
			for i := range in {
				if in[i] != tt.values[i] || s.Values[i] != tt.values[i] {
					t.Fatalf("values reordered: input %v, Values %v, want %v", in, s.Values, tt.values)
				}
			}
		})
	}
}

// TestNewStatMatchesBenchmath checks the interval against benchmath itself
// for sizes on both sides of its 6-value limit.
func TestNewStatMatchesBenchmath(t *testing.T) {
	for n := 1; n <= 12; n++ {
		values := make([]float64, n)
		for i := range values {
			values[i] = 1000 + float64((i*7)%n)*3.5
		}
		s := NewStat(values, DefaultThresholds)
		sum := benchmath.AssumeNothing.Summary(benchmath.NewSample(append([]float64(nil), values...), &benchmath.DefaultThresholds), 0.95)
		if s.Median != sum.Center || s.Lo != sum.Lo || s.Hi != sum.Hi || s.Confidence != sum.Confidence {
			t.Errorf("n=%d: got %v [%v, %v] at %v, benchmath %v [%v, %v] at %v", n, s.Median, s.Lo, s.Hi, s.Confidence, sum.Center, sum.Lo, sum.Hi, sum.Confidence)
		}
		if (n < 6) != (len(s.Warnings) > 0) {
			t.Errorf("n=%d: warnings %q", n, s.Warnings)
		}
	}
}

func TestNewStatEmpty(t *testing.T) {
	s := NewStat(nil, DefaultThresholds)
	if s.N != 0 || s.Valid() || !math.IsNaN(s.Median) {
		t.Errorf("empty stat = %+v, want N 0, invalid, NaN median", s)
	}
}

// meas is a synthetic measurement: 10 s, every response 2xx.
func meas(run, target, scenario string, rep int, rps float64) *parse.Measurement {
	n := int64(math.Round(rps * 10))
	return &parse.Measurement{
		Tool: parse.ToolWrk, Run: run, Target: target, Scenario: scenario, Rep: rep,
		Connections: 64, Threads: 1, Window: 10 * time.Second, Duration: 10 * time.Second,
		Requests: n, RPS: rps, BytesRead: n * 100,
		Status: parse.StatusCounts{Known: true, C2xx: n},
		Source: parse.Source{File: dumpName(run, target, scenario, rep)},
	}
}

func dumpName(run, target, scenario string, rep int) string {
	return fmt.Sprintf("%s/dumps/%s/%s/%02d.txt", run, target, scenario, rep)
}

// series is one cell's measurements with the given req/s, reps from 1 and
// Order from order0 in steps of step.
func series(run, target, scenario string, order0, step int, rps ...float64) []*parse.Measurement {
	ms := make([]*parse.Measurement, len(rps))
	for i, v := range rps {
		ms[i] = meas(run, target, scenario, i+1, v)
		if step > 0 {
			ms[i].Order = order0 + i*step
		}
	}
	return ms
}

func setOf(groups ...[]*parse.Measurement) *parse.Set {
	s := &parse.Set{}
	for _, g := range groups {
		s.Measurements = append(s.Measurements, g...)
	}
	return s
}

func TestCells(t *testing.T) {
	warm := meas("r", "gin", "ping", 1, 1)
	warm.Warmup = true
	s := setOf(
		[]*parse.Measurement{warm},
		series("r", "gin", "ping", 1, 2, 300, 100, 200),
		series("r", "gin", "json", 10, 1, 50),
	)
	hono1 := meas("r", "hono", "ping", 1, 10)
	hono1.Runtime = "bun"
	hono2 := meas("r", "hono", "ping", 1, 20)
	hono2.Runtime = "node"
	s.Measurements = append(s.Measurements, hono1, hono2)

	cells := Cells(s, DefaultThresholds)
	var got []string
	for _, c := range cells {
		got = append(got, c.String())
	}
	want := []string{"r/gin/json", "r/gin/ping", "r/hono (bun)/ping", "r/hono (node)/ping"}
	if len(got) != len(want) {
		t.Fatalf("cells %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("cells %q, want %q", got, want)
		}
	}
	ping := cells[1]
	if ping.RPS.N != 3 || ping.RPS.Median != 200 || ping.Tool != parse.ToolWrk {
		t.Errorf("gin/ping = n %d median %v tool %q, want 3, 200, wrk (warm-up excluded)", ping.RPS.N, ping.RPS.Median, ping.Tool)
	}
	if v := ping.RPS.Values; v[0] != 300 || v[1] != 100 || v[2] != 200 {
		t.Errorf("values %v not in run order", v)
	}
	if d := ping.Dumps(); len(d) != 3 || d[0] != "r/dumps/gin/ping/01.txt" {
		t.Errorf("dumps %q", d)
	}
}

func TestGoodRPS(t *testing.T) {
	m := meas("r", "a", "s", 1, 1000) // 10,000 requests in 10 s
	m.Status = parse.StatusCounts{Known: true, C2xx: 9000, C5xx: 1000}
	if got := m.GoodRPS(); got != 900 {
		t.Errorf("with duration: good req/s %v, want 900", got)
	}
	m.Duration = 0
	m.RPS = 1010 // the tool's own figure: scaled by the good share
	if got := m.GoodRPS(); !closeTo(got, 909) {
		t.Errorf("without duration: good req/s %v, want 909", got)
	}
	m.Requests = 0
	if got := m.GoodRPS(); got != 1010 {
		t.Errorf("without a request count: good req/s %v, want the tool's 1010", got)
	}
}

// TestMedianOf checks the one median of unsorted values: the middle one
// for an odd count, the mean of the middle two for an even one, NaN for
// none, and the caller's slice left in its order.
func TestMedianOf(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{7}, 7},
	} {
		in := append([]float64(nil), c.in...)
		if got := MedianOf(in); got != c.want {
			t.Errorf("MedianOf(%v) = %v, want %v", c.in, got, c.want)
		}
		if fmt.Sprint(in) != fmt.Sprint(c.in) {
			t.Errorf("MedianOf reordered its argument: %v, was %v", in, c.in)
		}
	}
	if got := MedianOf(nil); !math.IsNaN(got) {
		t.Errorf("MedianOf(nil) = %v, want NaN", got)
	}
}
