package verdict

import (
	"math"

	"github.com/fairbench/fairbench/parse"
)

// Floor is the equivalence margin of one scenario of one run: the
// smallest relative difference a verdict may claim there. A claim's
// interval must lie wholly beyond 1+Value (or below 1/(1+Value)).
//
// The margin is the larger of the documented threshold and the run's
// systematic A/A difference: how far two names of one program stand apart
// on this host beyond what their repetitions' noise explains, pooled over
// the run's scenarios and its A/A pairs (a suite of two runtimes has a pair
// for each). Sampling noise is not part of it: each pair's own
// interval carries that already. So a run with twins and a run without are
// held to one rule, and the twins themselves, judged against the
// threshold alone, can be claimed apart when they really differ.
type Floor struct {
	// Value is max(Threshold, Systematic): the margin claims must clear.
	Value float64
	// Threshold is the documented threshold, Thresholds.Noise.
	Threshold float64
	// Systematic is the run's systematic A/A difference as a relative
	// difference: |the twins' pooled log ratio| plus the spread of their
	// log ratios across scenarios beyond sampling noise (a random-effects
	// estimate, DerSimonian–Laird). NaN when the run has no A/A pair
	// measured together.
	Systematic float64
	// AADiff is the A/A pair's log ratio of geometric means in this
	// scenario and AASE its standard error; NaN and 0 without a pair here.
	AADiff, AASE float64
	// Pair is the A/A pair's cell names, empty without one: the run's
	// first pair measured in this scenario, whose AADiff pages show.
	Pair [2]string
	// Pairs are every A/A pair measured in this scenario, Pair first: each
	// is judged against the threshold alone (IsPair). PairDiffs are their
	// log ratios, as AADiff is the first's (NaN where one is untestable).
	Pairs     [][2]string
	PairDiffs []float64
	// Resolve is the run's resolve (run.json's plan, else
	// Thresholds.Resolve): the smallest difference the run set out to tell
	// apart, and the margin within which a pair is called equivalent.
	Resolve float64
}

// IsPair reports whether a and b are one of the floor's A/A pairs, in
// either order.
func (f Floor) IsPair(a, b *Cell) bool {
	for _, p := range f.Pairs {
		if p == [2]string{a.Name, b.Name} || p == [2]string{b.Name, a.Name} {
			return true
		}
	}
	return false
}

// defaultFloor is the floor of a scenario without an A/A pair.
func defaultFloor(th Thresholds) Floor {
	return Floor{Value: th.Noise, Threshold: th.Noise, Systematic: math.NaN(), AADiff: math.NaN(), Resolve: th.Resolve}
}

// AAPairOf is the run's A/A pair: run.json's, else the first of the
// caller's pairs with both targets among the run's cells.
func AAPairOf(run *parse.Run, groups [][]*Cell, fallback [][2]string) ([2]string, bool) {
	if run != nil && len(run.AAPair) == 2 {
		return [2]string{run.AAPair[0], run.AAPair[1]}, true
	}
	for _, p := range fallback {
		for _, g := range groups {
			if a, b := AACells(g, p); a != nil && b != nil {
				return p, true
			}
		}
	}
	return [2]string{}, false
}

// aaPairsOf is every A/A pair of the run: run.json's (Manifest.Pairs),
// else AAPairOf's one pair from the caller's.
func aaPairsOf(run *parse.Run, groups [][]*Cell, fallback [][2]string) [][2]string {
	if run != nil {
		if pairs := run.Pairs(); len(pairs) > 0 {
			return pairs
		}
	}
	if p, ok := AAPairOf(run, groups, fallback); ok {
		return [][2]string{p}
	}
	return nil
}

// AACells finds the A/A pair's two cells in one scenario's cells.
func AACells(cells []*Cell, pair [2]string) (a, b *Cell) {
	for _, c := range cells {
		if a == nil && c.is(pair[0]) {
			a = c
		}
		if b == nil && c.is(pair[1]) {
			b = c
		}
	}
	return a, b
}

// is reports whether the cell is the target called name.
func (c *Cell) is(name string) bool { return c.Name == name || c.Target == name }

// NoiseFloors is each scenario's floor: max(the documented threshold, the
// run's systematic A/A difference), with the A/A pair's own difference in
// that scenario for pages to show.
func NoiseFloors(runs []*parse.Run, cells []*Cell, m Metric, fallback [][2]string, th Thresholds) map[ScenarioKey]Floor {
	byID := map[string]*parse.Run{}
	for _, r := range runs {
		byID[r.ID] = r
	}
	out := map[ScenarioKey]Floor{}
	// The twins' difference is the noise of the machines they ran on: a
	// run's host pairs each have their own.
	type runHosts struct{ run, hosts string }
	byRun := map[runHosts][][]*Cell{}
	var order []runHosts
	for _, g := range GroupByScenario(cells) {
		k := runHosts{g[0].Run, g[0].Hosts}
		if byRun[k] == nil {
			order = append(order, k)
		}
		byRun[k] = append(byRun[k], g)
	}
	for _, k := range order {
		groups := byRun[k]
		floors := make([]Floor, len(groups))
		var diffs []Welch
		pairs := aaPairsOf(byID[k.run], groups, fallback)
		for i, g := range groups {
			floors[i] = defaultFloor(th)
			f := &floors[i]
			for _, pair := range pairs {
				a, b := AACells(g, pair)
				if a == nil || b == nil {
					continue
				}
				diff, se := math.NaN(), 0.0
				okA, _ := Testable(a, m, th)
				okB, _ := Testable(b, m, th)
				if okA && okB {
					w := PairTest(g, a, b, m, th)
					diff, se = w.Diff, w.SE
					diffs = append(diffs, w)
				}
				f.Pairs = append(f.Pairs, [2]string{a.Name, b.Name})
				f.PairDiffs = append(f.PairDiffs, diff)
				if len(f.Pairs) == 1 {
					f.Pair, f.AADiff, f.AASE = f.Pairs[0], diff, se
				}
			}
		}
		sys := systematic(diffs)
		for i, g := range groups {
			f := floors[i]
			f.Systematic = sys
			if r := byID[k.run]; r != nil && r.Precision != nil && r.Precision.Resolve > 0 {
				f.Resolve = r.Precision.Resolve
			}
			if !math.IsNaN(sys) {
				f.Value = math.Max(f.Threshold, sys)
			}
			out[KeyOf(g[0])] = f
		}
	}
	return out
}

// systematic is the twins' systematic difference over a run's scenarios,
// as a relative difference: |μ| + τ, where μ is their inverse-variance
// pooled log ratio and τ² the DerSimonian–Laird estimate of how far their
// true log ratios vary between scenarios. NaN for no scenario. |μ| is
// estimated as √max(0, μ̂² − Var μ̂), as τ² is by moments: the pooled
// ratio's square carries its sampling variance, and |μ̂| itself would put
// the noise it averages into the floor, largest on the noisiest days, so
// that a noisy run's floor would hide differences its intervals already
// resolve. Twins that differ only by noise thus get a systematic of 0 in
// 38-60% of runs (1 to 11 scenarios), and the threshold as their floor. A scenario
// whose twins repeated one value exactly (SE 0) counts at the smallest
// positive SE of the others, or is taken as it is when all are 0.
func systematic(ws []Welch) float64 {
	if len(ws) == 0 {
		return math.NaN()
	}
	minSE := math.Inf(1)
	for _, w := range ws {
		if w.SE > 0 {
			minSE = math.Min(minSE, w.SE)
		}
	}
	if math.IsInf(minSE, 1) {
		mean := 0.0
		for _, w := range ws {
			mean += w.Diff / float64(len(ws))
		}
		return math.Expm1(math.Abs(mean))
	}
	var sw, sw2, swd float64
	weight := func(w Welch) float64 { return 1 / math.Pow(math.Max(w.SE, minSE), 2) }
	for _, w := range ws {
		x := weight(w)
		sw, sw2, swd = sw+x, sw2+x*x, swd+x*w.Diff
	}
	mu := swd / sw
	q := 0.0
	for _, w := range ws {
		q += weight(w) * (w.Diff - mu) * (w.Diff - mu)
	}
	tau2 := 0.0
	if c := sw - sw2/sw; c > 0 {
		tau2 = math.Max(0, (q-float64(len(ws)-1))/c)
	}
	// μ̂'s variance under the random-effects model its weights ignore:
	// Σ w²(1/w + τ²) / (Σ w)².
	varMu := 1/sw + tau2*sw2/(sw*sw)
	return math.Expm1(math.Sqrt(math.Max(0, mu*mu-varMu)) + math.Sqrt(tau2))
}
