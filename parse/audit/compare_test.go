package audit

import (
	"math"
	"testing"

	"golang.org/x/perf/benchmath"
)

func TestUNullCounts(t *testing.T) {
	// The number of ways to order 5 + 5 values with U = 0, 1, 2, …:
	// partitions fitting a 5×5 box (Mann & Whitney 1947, table I).
	want := []float64{1, 1, 2, 3, 5, 7, 9, 11}
	got := uNullCounts(5, 5)
	total := 0.0
	for _, c := range got {
		total += c
	}
	if total != 252 { // C(10, 5)
		t.Errorf("total %v, want 252", total)
	}
	for i, w := range want {
		if got[i] != w {
			t.Fatalf("counts %v, want prefix %v", got[:len(want)], want)
		}
	}
	if got := uNullCounts(3, 3); len(got) != 10 || got[0] != 1 || got[4] != 3 || got[9] != 1 {
		t.Errorf("3+3 counts %v, want [1 1 2 3 3 3 3 2 1 1]", got)
	}
}

func TestRatioInterval(t *testing.T) {
	base := []float64{100, 101, 102, 103, 104}
	other := []float64{110, 111, 112, 113, 114}
	tests := []struct {
		name         string
		base, other  []float64
		lo, hi, conf float64
	}{
		// 5+5 at 95%: P(U ≤ 2) = 4/252 ≤ 0.025 < P(U ≤ 3) = 7/252, so three
		// of the 25 pairwise ratios are cut from each end: 110/103, 114/101.
		{"5+5", base, other, 110.0 / 103, 114.0 / 101, 1 - 8.0/252},
		// 3+3 cannot reach 95% (P(U = 0) = 1/20): the extreme ratios at 90%.
		{"3+3", base[:3], other[:3], 110.0 / 102, 112.0 / 100, 0.9},
		{"1+1", base[:1], other[:1], 0, math.Inf(1), 1},
	}
	for _, tt := range tests {
		lo, hi, conf := ratioInterval(tt.base, tt.other, 0.95)
		if !closeTo(lo, tt.lo) || !closeTo(hi, tt.hi) || !closeTo(conf, tt.conf) {
			t.Errorf("%s: [%v, %v] at %v, want [%v, %v] at %v", tt.name, lo, hi, conf, tt.lo, tt.hi, tt.conf)
		}
	}
}

func TestCompareStats(t *testing.T) {
	th := DefaultThresholds
	stat := func(v ...float64) Stat { return NewStat(v, th) }
	tests := []struct {
		name        string
		base, other Stat
		method      string
		delta       string
	}{
		{"u test, apart", stat(100, 101, 102, 103, 104), stat(110, 111, 112, 113, 114), MethodUTest, "+9.80%"},
		{"u test, within noise", stat(100, 100.1, 100.2, 100.3, 100.4), stat(101, 101.1, 101.2, 101.3, 101.4), MethodUTest, "~"},
		{"u test, interleaved", stat(100, 102, 104, 106, 108), stat(101, 103, 105, 107, 109), MethodUTest, "~"},
		{"n=3, ranges apart beyond noise", stat(100, 101, 102), stat(105, 106, 107), MethodRanges, "+4.95%"},
		{"n=3, slower", stat(105, 106, 107), stat(100, 101, 102), MethodRanges, "-4.72%"},
		{"n=3, apart within noise", stat(100, 101, 102), stat(103, 104, 105), MethodRanges, "~"},
		{"n=3, overlapping", stat(100, 102, 104), stat(101, 103, 105), MethodRanges, "~"},
		{"n=3 against n=5", stat(100, 101, 102), stat(110, 111, 112, 113, 114), MethodRanges, "+10.89%"},
		{"n=2", stat(100, 101), stat(200, 201), MethodNone, "?"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := CompareStats(tt.base, tt.other, th)
			if c.Method != tt.method || c.Delta() != tt.delta {
				t.Errorf("method %s, delta %s (%s), want %s, %s", c.Method, c.Delta(), c.Reason, tt.method, tt.delta)
			}
			if !closeTo(c.Ratio, tt.other.Median/tt.base.Median) {
				t.Errorf("ratio %v", c.Ratio)
			}
			if c.Method != MethodUTest {
				if !math.IsNaN(c.P) {
					t.Errorf("p = %v without a U test", c.P)
				}
				return
			}
			bt := &benchmath.Thresholds{CompareAlpha: th.Alpha}
			want := benchmath.AssumeNothing.Compare(
				benchmath.NewSample(append([]float64(nil), tt.base.Values...), bt),
				benchmath.NewSample(append([]float64(nil), tt.other.Values...), bt))
			if c.P != want.P || c.PAdjusted != want.P {
				t.Errorf("p %v (adjusted %v), benchmath says %v", c.P, c.PAdjusted, want.P)
			}
		})
	}
}

func TestHolmBonferroni(t *testing.T) {
	// Hand-computed: p = .01, .04, .03 with m = 3 → .01×3 = .03;
	// .03×2 = .06; max(.06, .04×1) = .06.
	cs := []Comparison{
		{Method: MethodUTest, P: 0.01, Ratio: 1.5},
		{Method: MethodUTest, P: 0.04, Ratio: 1.5},
		{Method: MethodUTest, P: 0.03, Ratio: 1.5},
		{Method: MethodRanges, P: math.NaN(), PAdjusted: math.NaN(), Ratio: 1.5, Differs: true},
	}
	HolmBonferroni(cs, DefaultThresholds)
	want := []float64{0.03, 0.06, 0.06}
	for i, w := range want {
		if !closeTo(cs[i].PAdjusted, w) {
			t.Errorf("adjusted p[%d] = %v, want %v", i, cs[i].PAdjusted, w)
		}
	}
	if !cs[0].Differs || cs[1].Differs || cs[2].Differs {
		t.Errorf("differs = %v %v %v, want true false false", cs[0].Differs, cs[1].Differs, cs[2].Differs)
	}
	if !cs[3].Differs || !math.IsNaN(cs[3].PAdjusted) {
		t.Errorf("a ranges comparison was adjusted: %+v", cs[3])
	}
}

func TestCompareBaselineAdjusts(t *testing.T) {
	// Seven targets 10% above the baseline: each alone has p = 0.0079 and
	// differs, but Holm over seven comparisons lifts every p to
	// 7 × 0.0079 = 0.056, and none is claimed.
	th := DefaultThresholds
	base := &Cell{Name: "base", RPS: NewStat([]float64{100, 101, 102, 103, 104}, th)}
	var others []*Cell
	for i := 0; i < 7; i++ {
		others = append(others, &Cell{Name: "o", RPS: NewStat([]float64{110, 111, 112, 113, 114}, th)})
	}
	cs := CompareBaseline(base, others, MetricRPS, th)
	single := CompareStats(base.RPS, others[0].RPS, th)
	if !single.Differs {
		t.Fatalf("one comparison alone should differ: %s", single.Reason)
	}
	for _, c := range cs {
		if c.Differs || !closeTo(c.PAdjusted, math.Min(1, 7*single.P)) {
			t.Errorf("adjusted p %v, differs %v; want %v, false", c.PAdjusted, c.Differs, 7*single.P)
		}
	}
}
