package verdict

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fairbench/fairbench/parse"
)

// roundCell is simCell measured in rounds: repetition j ran in round j+1,
// in a known order, as a collected run's cells are.
func roundCell(name string, values []float64, th Thresholds) *Cell {
	c := simCell(name, values, th)
	for j := range values {
		c.Reps = append(c.Reps, &parse.Measurement{Run: "sim", Target: name, Scenario: "s", Rep: j + 1, Order: j + 1})
	}
	return c
}

// blockedPage decides one simulated scenario measured in rounds; logs[i][j]
// is target i's log throughput in round j.
func blockedPage(logs [][]float64, th Thresholds) *ScenarioVerdicts {
	return decideScenario(roundCells(logs, th), MetricRPS, th, defaultFloor(th), nil)
}

// roundCells are the cells of logs[i][j], target i's log throughput in
// round j.
func roundCells(logs [][]float64, th Thresholds) []*Cell {
	cells := make([]*Cell, len(logs))
	for i, l := range logs {
		v := make([]float64, len(l))
		for j, x := range l {
			v[j] = 100000 * math.Exp(x)
		}
		cells[i] = roundCell(fmt.Sprintf("t%02d", i), v, th)
	}
	return cells
}

// roundNoise is log throughput of target i in round j: the round's shared
// effect plus the target's own noise.
type roundNoise func(r *rand.Rand, rounds []float64, target, rep int) float64

// drawRounds fills k × n log values: each round shares a normal effect of
// sd roundSD, then draw adds each value's own.
func drawRounds(r *rand.Rand, k, n int, roundSD float64, draw roundNoise) [][]float64 {
	rounds := make([]float64, n)
	for j := range rounds {
		rounds[j] = roundSD * r.NormFloat64()
	}
	logs := make([][]float64, k)
	for i := range logs {
		logs[i] = make([]float64, n)
		for j := range logs[i] {
			logs[i][j] = rounds[j] + draw(r, rounds, i, j)
		}
	}
	return logs
}

// TestBlockedNullFamilyWise: identical targets measured in rounds that
// share a large host effect, under equal and unequal noise, heavy tails
// and slow rounds: pages with any claim stay within α, for families from
// two targets (paired differences) to twelve (Shukla's variances).
func TestBlockedNullFamilyWise(t *testing.T) {
	th := DefaultThresholds
	th.Noise = 0 // check the test and the correction, not the floor
	gauss := func(sd float64) roundNoise {
		return func(r *rand.Rand, _ []float64, _, _ int) float64 { return sd * r.NormFloat64() }
	}
	unequal := func(r *rand.Rand, _ []float64, target, _ int) float64 {
		return (0.01 + 0.01*float64(target%8)) * r.NormFloat64()
	}
	heavy := func(r *rand.Rand, _ []float64, _, _ int) float64 {
		z, a, b := r.NormFloat64(), r.NormFloat64(), r.NormFloat64()
		return 0.03 * z / math.Sqrt((a*a+b*b)/2)
	}
	slowTurns := func(r *rand.Rand, _ []float64, _, _ int) float64 {
		x := 0.04 * r.NormFloat64()
		if r.Float64() < 0.15 {
			x += math.Log(0.6) // a turn of one target at 0.6× (the committed runs' slow turns)
		}
		return x
	}
	for _, c := range []struct {
		name    string
		k, n    int
		roundSD float64
		draw    roundNoise
	}{
		{"two targets paired n=8", 2, 8, 0.1, gauss(0.03)},
		{"three targets n=8", 3, 8, 0.1, gauss(0.03)},
		{"seven targets n=8", 7, 8, 0.1, gauss(0.03)},
		{"twelve targets n=5", 12, 5, 0.1, gauss(0.03)},
		{"unequal variances k=8 n=8", 8, 8, 0.1, unequal},
		{"unequal variances k=3 n=8", 3, 8, 0.1, unequal},
		{"heavy tails k=6 n=8", 6, 8, 0.05, heavy},
		{"slow turns k=6 n=8", 6, 8, 0.05, slowTurns},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(17, uint64(c.k)))
			bad, pages := 0, simPages()
			for range pages {
				sv := blockedPage(drawRounds(r, c.k, c.n, c.roundSD, c.draw), th)
				if sv.Pairs[0].Method != MethodBlockedLog {
					t.Fatalf("method %q, want %q", sv.Pairs[0].Method, MethodBlockedLog)
				}
				for _, v := range sv.Pairs {
					if v.Claimed() {
						bad++
						break
					}
				}
			}
			t.Logf("%d of %d pages with a false claim", bad, pages)
			if float64(bad) > binomialBound(th.Alpha, pages) {
				t.Errorf("%d of %d pages of identical targets claim a difference, over α with its tolerance (%.0f)", bad, pages, binomialBound(th.Alpha, pages))
			}
		})
	}
}

// TestBlockedRemovesRoundEffect: six targets over eight rounds whose host
// state moves by 10% (sd) from round to round, each value's own noise 2%,
// one target 10% faster. Blocked by round, its five pairs are claimed in
// at least 80% of pages; Welch on the same values (the cells without
// their rounds) averages the host's moves into the noise and claims far
// fewer. The blocking, not the averaging, removes the shared effect.
func TestBlockedRemovesRoundEffect(t *testing.T) {
	th := DefaultThresholds
	r := rand.New(rand.NewPCG(23, 5))
	faster := func(r *rand.Rand, _ []float64, target, _ int) float64 {
		x := 0.02 * r.NormFloat64()
		if target == 0 {
			x += math.Log(1.1)
		}
		return x
	}
	const pages = 200
	shown, welchShown, wrong, total := 0, 0, 0, 0
	for range pages {
		logs := drawRounds(r, 6, 8, 0.1, faster)
		blocked := blockedPage(logs, th)
		welch := page(logs, th)
		for _, pair := range []struct {
			sv    *ScenarioVerdicts
			count *int
		}{{blocked, &shown}, {welch, &welchShown}} {
			for _, v := range pair.sv.Pairs {
				if v.A != "t00" {
					continue
				}
				switch v.Verdict {
				case VerdictA:
					*pair.count++
				case VerdictB:
					wrong++
				}
			}
		}
		total += 5
	}
	t.Logf("10%% faster shown in %d of %d pairs blocked, %d by Welch", shown, total, welchShown)
	if wrong > 0 {
		t.Errorf("%d pairs claimed the faster target slower", wrong)
	}
	if shown < total*80/100 {
		t.Errorf("blocked by round, a 10%% faster target was shown in %d of %d pairs, want ≥ 80%%", shown, total)
	}
	if welchShown*2 > shown {
		t.Errorf("Welch showed %d of %d pairs, blocked %d: the round effect is not what blocking removed", welchShown, total, shown)
	}
}

// TestBlockedOnlyWithRounds: a family is blocked only when every testable
// cell measured the same rounds, each once, in one run with known order.
func TestBlockedOnlyWithRounds(t *testing.T) {
	th := DefaultThresholds
	values := []float64{100, 110, 105, 98, 101, 103}
	fresh := func() []*Cell {
		var cells []*Cell
		for i := range 3 {
			vs := make([]float64, len(values))
			for j, v := range values {
				vs[j] = v * (1 + 0.01*float64(i))
			}
			cells = append(cells, roundCell(fmt.Sprintf("t%d", i), vs, th))
		}
		return cells
	}
	for _, c := range []struct {
		name  string
		spoil func([]*Cell)
		want  string
	}{
		{"complete rounds", func([]*Cell) {}, MethodBlockedLog},
		{"a round missing in one cell", func(cs []*Cell) { cs[1].Reps[2].Rep = 9 }, MethodWelchLog},
		{"a round twice", func(cs []*Cell) { cs[1].Reps[2].Rep = 2 }, MethodWelchLog},
		{"order unknown", func(cs []*Cell) { cs[0].Reps[0].Order = 0 }, MethodWelchLog},
		{"two runs", func(cs []*Cell) { cs[2].Run = "other" }, MethodWelchLog},
	} {
		t.Run(c.name, func(t *testing.T) {
			cells := fresh()
			c.spoil(cells)
			if got := newFamilyTest(cells, MetricRPS, th).method(); got != c.want {
				t.Errorf("method %q, want %q", got, c.want)
			}
		})
	}
}

// TestBlockedDiffIsTheRatioShown: the blocked test's difference is the log
// of the ratio of geometric means that pages print beside it.
func TestBlockedDiffIsTheRatioShown(t *testing.T) {
	th := DefaultThresholds
	a := roundCell("a", []float64{100, 120, 90, 110}, th)
	b := roundCell("b", []float64{95, 100, 93, 99}, th)
	c := roundCell("c", []float64{80, 85, 70, 90}, th)
	ft := newFamilyTest([]*Cell{a, b, c}, MetricRPS, th)
	w := ft.test(a, b)
	if want := math.Log(a.RPS.GeoMean / b.RPS.GeoMean); math.Abs(w.Diff-want) > 1e-12 {
		t.Errorf("diff %g, want log of the geometric means' ratio %g", w.Diff, want)
	}
	if !(w.SE > 0 && w.DF > 0 && w.p > 0 && w.p < 1) {
		t.Errorf("test %+v: want a positive SE and df and a p in (0, 1)", w)
	}
}

// TestBlockedNoisyTargetHidesNothing: one target swinging ±35% from round
// to round beside two steady ones (2% noise) must not hide the steady
// pair's 6% difference, nor make the steady twins differ: the pair is
// shown about as often as beside a third steady target, because its
// variance is the pair's own, not a share of the family's pool.
func TestBlockedNoisyTargetHidesNothing(t *testing.T) {
	th := DefaultThresholds
	steadyPair := func(ratio, third float64, seed uint64) (shown, claimed, pages int) {
		r := rand.New(rand.NewPCG(seed, 7))
		draw := func(r *rand.Rand, _ []float64, target, _ int) float64 {
			switch target {
			case 0:
				return math.Log(ratio) + 0.02*r.NormFloat64()
			case 1:
				return 0.02 * r.NormFloat64()
			}
			return math.Log(1 + third*(2*r.Float64()-1))
		}
		pages = simPages()
		for range pages {
			sv := blockedPage(drawRounds(r, 3, 8, 0.1, draw), th)
			cell := func(name string) *Cell {
				return sv.Cells[slices.IndexFunc(sv.Cells, func(x *Cell) bool { return x.Name == name })]
			}
			v, _ := sv.Pair(cell("t00"), cell("t01"))
			if v.Verdict == VerdictA {
				shown++
			}
			if v.Claimed() {
				claimed++
			}
		}
		return shown, claimed, pages
	}
	steady, _, pages := steadyPair(1.06, 0.02, 29)
	noisy, _, _ := steadyPair(1.06, 0.35, 29)
	t.Logf("a 6%% difference between steady targets shown in %d of %d pages beside a steady third, %d beside one swinging ±35%%", steady, pages, noisy)
	if noisy*10 < steady*9 {
		t.Errorf("beside a noisy target the steady pair's 6%% was shown in %d of %d pages, beside a steady one in %d: the noisy one hides it", noisy, pages, steady)
	}
	if _, claimed, _ := steadyPair(1, 0.35, 31); float64(claimed) > binomialBound(th.Alpha, pages) {
		t.Errorf("identical steady targets beside a noisy one claimed apart in %d of %d pages, over %.0f", claimed, pages, binomialBound(th.Alpha, pages))
	}
}
