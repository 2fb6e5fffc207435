package verdict

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"
)

// The simulation tests check the decision layer against known truth.
//
// Under the null (every target the same program), a page is a false claim
// when any of its pairs is claimed; the family-wise false-claim rate must
// stay at or under α. With pages independent the count of false pages is
// binomial: the test fails when it exceeds α·N + 3·sqrt(α(1−α)N), three
// standard deviations above what a test at exactly α would give, so a
// calibrated test fails this bound about once in 700 runs, and a test at
// twice α (the uncorrected one) fails it every time at N = 400.
//
// The null pages are decided with the noise floor at 0, so that the test
// and its correction are what is checked, not the floor; the floor only
// removes claims. Seeds are fixed: the results are the same on every run.
// FAIRBENCH_SOAK=1 multiplies the pages by 10.

// simPages is how many pages each null scenario simulates.
func simPages() int {
	if os.Getenv("FAIRBENCH_SOAK") == "1" {
		return 4000
	}
	return 400
}

// simCell makes a cell of scenario "s" in run "sim" from values.
func simCell(name string, values []float64, th Thresholds) *Cell {
	c := &Cell{Run: "sim", Target: name, Name: name, Scenario: "s"}
	st := Stat{N: len(values), Values: values, GeoMean: math.NaN(), Min: math.Inf(1)}
	for _, v := range values {
		st.Min = math.Min(st.Min, v)
	}
	if st.Min > 0 {
		mean, _ := LogMeanVar(values)
		st.GeoMean = math.Exp(mean)
	}
	c.RPS, c.GoodRPS = st, st
	return c
}

// page decides one simulated scenario; logs[i] are target i's log
// throughputs.
func page(logs [][]float64, th Thresholds) *ScenarioVerdicts {
	cells := make([]*Cell, len(logs))
	for i, l := range logs {
		v := make([]float64, len(l))
		for j, x := range l {
			v[j] = 100000 * math.Exp(x)
		}
		cells[i] = simCell(fmt.Sprintf("t%02d", i), v, th)
	}
	f := defaultFloor(th)
	return decideScenario(cells, MetricRPS, th, f, nil)
}

// noise draws one repetition's log deviation.
type noise func(r *rand.Rand, target, rep int) float64

// nullRate is the share of pages with any claim among k identical targets.
func nullRate(seed uint64, pages, k, n int, th Thresholds, draw noise, spoil func(r *rand.Rand, logs [][]float64)) (int, int) {
	r := rand.New(rand.NewPCG(seed, 1))
	bad := 0
	for p := 0; p < pages; p++ {
		logs := make([][]float64, k)
		for i := range logs {
			logs[i] = make([]float64, n)
			for j := range logs[i] {
				logs[i][j] = draw(r, i, j)
			}
		}
		if spoil != nil {
			spoil(r, logs)
		}
		sv := page(logs, th)
		if sv.Family != k*(k-1)/2 {
			panic(fmt.Sprintf("page %d: %d of %d pairs tested", p, sv.Family, k*(k-1)/2))
		}
		for _, v := range sv.Pairs {
			if v.Claimed() {
				bad++
				break
			}
		}
	}
	return bad, pages
}

// binomialBound is α·N + 3·sqrt(α(1−α)N).
func binomialBound(alpha float64, n int) float64 {
	return alpha*float64(n) + 3*math.Sqrt(alpha*(1-alpha)*float64(n))
}

func TestVerdictsNullFamilyWise(t *testing.T) {
	th := DefaultThresholds
	th.Noise = 0 // check the test and the correction, not the floor
	gauss := func(cv float64) noise {
		return func(r *rand.Rand, _, _ int) float64 { return cv * r.NormFloat64() }
	}
	// Student's t with 2 degrees of freedom: infinite variance.
	heavy := func(r *rand.Rand, _, _ int) float64 {
		z, a, b := r.NormFloat64(), r.NormFloat64(), r.NormFloat64()
		return 0.02 * z / math.Sqrt((a*a+b*b)/2)
	}
	unequal := func(r *rand.Rand, target, _ int) float64 {
		return (0.01 + 0.01*float64(target%8)) * r.NormFloat64()
	}
	outlier := func(r *rand.Rand, logs [][]float64) {
		i, j := r.IntN(len(logs)), r.IntN(len(logs[0]))
		logs[i][j] += math.Log(0.7) // one repetition 30% slow
	}
	res := aaResiduals(t)
	resampled := func(r *rand.Rand, _, _ int) float64 { return res[r.IntN(len(res))] }
	for _, c := range []struct {
		name  string
		k, n  int
		draw  noise
		spoil func(*rand.Rand, [][]float64)
	}{
		{"gaussian k=10 n=6", 10, 6, gauss(0.03), nil},
		{"gaussian k=15 n=4", 15, 4, gauss(0.03), nil},
		{"gaussian k=2 n=4", 2, 4, gauss(0.03), nil},
		{"heavy tails k=10 n=6", 10, 6, heavy, nil},
		{"one outlier k=10 n=6", 10, 6, gauss(0.02), outlier},
		{"unequal variances k=8 n=5", 8, 5, unequal, nil},
		{"A/A residuals k=10 n=4", 10, 4, resampled, nil},
		{"A/A residuals k=10 n=8", 10, 8, resampled, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			bad, pages := nullRate(7, simPages(), c.k, c.n, th, c.draw, c.spoil)
			if float64(bad) > binomialBound(th.Alpha, pages) {
				t.Errorf("%d of %d pages of identical targets claim a difference (%.1f%%), above α=%.0f%% with its binomial tolerance (%.0f pages)",
					bad, pages, 100*float64(bad)/float64(pages), th.Alpha*100, binomialBound(th.Alpha, pages))
			}
			t.Logf("%d of %d pages with a false claim", bad, pages)
		})
	}
}

// TestVerdictsShowRealDifferences checks power: differences that exist are
// claimed, through the default 2% floor.
func TestVerdictsShowRealDifferences(t *testing.T) {
	th := DefaultThresholds
	r := rand.New(rand.NewPCG(11, 2))
	draw := func(k, n int, cv float64, mean func(i int) float64) [][]float64 {
		logs := make([][]float64, k)
		for i := range logs {
			logs[i] = make([]float64, n)
			for j := range logs[i] {
				logs[i][j] = mean(i) + cv*r.NormFloat64()
			}
		}
		return logs
	}
	const pages = 100
	t.Run("large at n=4 among 15", func(t *testing.T) {
		shown := 0
		for p := 0; p < pages; p++ {
			// t00 is twice as fast as the 14 others.
			sv := page(draw(15, 4, 0.03, func(i int) float64 {
				if i == 0 {
					return math.Log(2)
				}
				return 0
			}), th)
			if rk := sv.Rank(sv.Cells[0]); sv.Cells[0].Name == "t00" && rk.Lo == 1 && rk.Hi == 1 {
				shown++
			}
		}
		if shown < pages*95/100 {
			t.Errorf("a 2× faster target was ranked alone first in %d of %d pages at n=4", shown, pages)
		}
	})
	t.Run("20% at n=6 among 10", func(t *testing.T) {
		shown := 0
		for p := 0; p < pages; p++ {
			sv := page(draw(10, 6, 0.03, func(i int) float64 {
				if i == 0 {
					return math.Log(1.2)
				}
				return 0
			}), th)
			claimed := 0
			for _, v := range sv.Pairs {
				if v.A == "t00" && v.Verdict == VerdictA {
					claimed++
				}
			}
			if claimed == 9 {
				shown++
			}
		}
		if shown < pages*90/100 {
			t.Errorf("a 20%% faster target was judged faster than all 9 others in %d of %d pages at n=6", shown, pages)
		}
	})
	t.Run("ladder of 12 at n=8", func(t *testing.T) {
		exact := 0
		for p := 0; p < pages; p++ {
			// t00 fastest, each next 10% slower.
			sv := page(draw(12, 8, 0.02, func(i int) float64 { return -float64(i) * math.Log(1.1) }), th)
			ok := true
			for i, c := range sv.Cells {
				rk := sv.Rank(c)
				ok = ok && c.Name == fmt.Sprintf("t%02d", i) && rk.Lo == i+1 && rk.Hi == i+1
			}
			if ok {
				exact++
			}
		}
		if exact < pages*90/100 {
			t.Errorf("a ladder of 12 targets 10%% apart was ranked exactly in %d of %d pages at n=8", exact, pages)
		}
	})
}

// newRand is a seeded generator for the simulation tests.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 3)) }
