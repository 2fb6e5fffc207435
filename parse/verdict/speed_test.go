package verdict

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse"
)

// speedWorld draws one family of targets × rounds on a host whose speed
// dips at random turns: a turn meets a slow spell with probability
// spells, slowing it by up to 60% (log), which the probe reads with its
// own noise; throughput follows the spell with slope −follow (1: a
// CPU-bound server, 0: the probe reads nothing the server feels). logs
// are the targets' true log levels.
type speedWorld struct {
	spells, follow, probeSD, ownSD, roundSD float64
}

func (w speedWorld) family(r *rand.Rand, logs []float64, rounds int, th Thresholds) []*Cell {
	cells := make([]*Cell, len(logs))
	round := make([]float64, rounds)
	for k := range round {
		round[k] = r.NormFloat64() * w.roundSD
	}
	for i, mu := range logs {
		v, probe := make([]float64, rounds), make([]float64, rounds)
		for k := range v {
			slow := 0.02 * r.NormFloat64()
			if r.Float64() < w.spells {
				slow += 0.6 * r.Float64()
			}
			v[k] = 100000 * math.Exp(mu+round[k]-w.follow*slow+w.ownSD*r.NormFloat64())
			probe[k] = 0.25 * math.Exp(slow+w.probeSD*r.NormFloat64())
		}
		cells[i] = roundCell(fmt.Sprintf("t%02d", i), v, th)
		for k, rep := range cells[i].Reps {
			rep.HostSpeed = probe[k]
		}
	}
	return cells
}

// rawAndAdjusted are the family's tests without the probe (the blocked
// test alone) and with it, as the verdicts take it.
func rawAndAdjusted(t *testing.T, cells []*Cell, th Thresholds) (raw, adjusted *familyTest) {
	t.Helper()
	adjusted = newFamilyTest(cells, MetricRPS, th)
	if adjusted.speed == nil {
		t.Fatal("no speed fit for a probed family measured in rounds")
	}
	plain := *adjusted
	plain.speed = nil
	return &plain, adjusted
}

// claims counts the pairs of cells a family-wise Holm test at th.Alpha
// claims apart, with the probe taken out (adjusted) or not, and whether
// the first pair (cells 0 and 1) is among them.
func claims(t *testing.T, cells []*Cell, th Thresholds, adjusted bool) (n int, first bool) {
	t.Helper()
	test, withProbe := rawAndAdjusted(t, cells, th)
	if adjusted {
		test = withProbe
	}
	var ps []float64
	for i := range cells {
		for j := i + 1; j < len(cells); j++ {
			ps = append(ps, test.test(cells[i], cells[j]).p)
		}
	}
	adj, _ := Holm(ps, th.Alpha)
	for k, p := range adj {
		if p < th.Alpha {
			n++
			first = first || k == 0
		}
	}
	return n, first
}

// TestSpeedCovariateNull: among identical targets the adjusted test claims
// a pair in at most α of families (a binomial bound over the simulations),
// whether the probe reads what the servers feel or nothing of it.
func TestSpeedCovariateNull(t *testing.T) {
	th := DefaultThresholds
	sims := 2000
	if testing.Short() {
		sims = 400
	}
	limit := th.Alpha + 3.1*math.Sqrt(th.Alpha*(1-th.Alpha)/float64(sims))
	for _, w := range []speedWorld{
		{spells: 0.3, follow: 1, probeSD: 0.05, ownSD: 0.04, roundSD: 0.05},
		{spells: 0.3, follow: 0, probeSD: 0.05, ownSD: 0.08, roundSD: 0.05},
		{spells: 0.6, follow: 0.5, probeSD: 0.15, ownSD: 0.04, roundSD: 0.1},
	} {
		for _, rounds := range []int{4, 8} {
			r := rand.New(rand.NewPCG(11, uint64(rounds)))
			false_ := 0
			for s := 0; s < sims; s++ {
				if n, _ := claims(t, w.family(r, make([]float64, 4), rounds, th), th, true); n > 0 {
					false_++
				}
			}
			rate := float64(false_) / float64(sims)
			t.Logf("%+v, %d rounds: families with a false claim %.3f (limit %.3f)", w, rounds, rate, limit)
			if rate > limit {
				t.Errorf("%+v, %d rounds: %.3f of families claimed identical targets apart, above α's bound %.3f", w, rounds, rate, limit)
			}
		}
	}
}

// TestSpeedCovariatePower: where the servers slow with the probe, a 10%
// difference is claimed far more often with the probe taken out than
// without; where the probe reads nothing the servers feel, about as often.
func TestSpeedCovariatePower(t *testing.T) {
	th := DefaultThresholds
	sims := 600
	if testing.Short() {
		sims = 200
	}
	logs := []float64{0, math.Log(0.9), 0, 0}
	for _, c := range []struct {
		w       speedWorld
		atLeast float64 // adjusted ÷ raw power
		name    string
	}{
		{speedWorld{spells: 0.3, follow: 1, probeSD: 0.05, ownSD: 0.03, roundSD: 0.05}, 1.5, "servers follow the probe"},
		{speedWorld{spells: 0.3, follow: 0, probeSD: 0.05, ownSD: 0.06, roundSD: 0.05}, 0.8, "the probe reads nothing"},
	} {
		r := rand.New(rand.NewPCG(12, 8))
		var raw, adjusted int
		for s := 0; s < sims; s++ {
			cells := c.w.family(r, logs, 8, th)
			if _, first := claims(t, cells, th, false); first {
				raw++
			}
			if _, first := claims(t, cells, th, true); first {
				adjusted++
			}
		}
		pr, pa := float64(raw)/float64(sims), float64(adjusted)/float64(sims)
		t.Logf("%s: a 10%% difference claimed in %.3f of families raw, %.3f adjusted", c.name, pr, pa)
		if pa < c.atLeast*pr {
			t.Errorf("%s: adjusted power %.3f, want at least %.1f× the raw %.3f", c.name, pa, c.atLeast, pr)
		}
	}
}

// TestSpeedFitRefusesUnprobed: a family with a repetition the probe did
// not time is not fitted.
func TestSpeedFitRefusesUnprobed(t *testing.T) {
	th := DefaultThresholds
	r := rand.New(rand.NewPCG(1, 1))
	cells := speedWorld{spells: 0.3, follow: 1, probeSD: 0.05, ownSD: 0.03}.family(r, make([]float64, 3), 5, th)
	if newFamilyTest(cells, MetricRPS, th).speed == nil {
		t.Fatal("a probed family refused")
	}
	cells[2].Reps[3].HostSpeed = 0
	if newFamilyTest(cells, MetricRPS, th).speed != nil {
		t.Error("a family with an unprobed repetition fitted")
	}
}

// TestSpeedCovariateOnPlantedRuns reads every committed collect of the
// site's planted suite (site/results) and prints, per run, how much of
// the round-blocked noise the probe explains and each planted pair's
// ratio and t without and with it. What must hold on real runs is what
// holds of any calibrated test: no planted copy (a busy-CPU cost added per
// request) claimed faster than its base.
func TestSpeedCovariateOnPlantedRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("reads every committed planted run")
	}
	th := DefaultThresholds
	dirs, _ := filepath.Glob(filepath.Join("..", "..", "site", "results", "*"))
	pairs := [][2]string{{"node-plus25", "node-base"}, {"node-plus10", "node-base"}, {"node-plus5", "node-base"},
		{"go-plus10", "go-base"}, {"node-base-aa", "node-base"}, {"go-base-aa", "go-base"}}
	read := 0
	for _, d := range dirs {
		if run, err := parse.ReadRun(d); err != nil || run.Suite != "planted" {
			continue
		}
		set, errs := parse.ReadAll([]string{d})
		if len(errs) > 0 {
			t.Fatalf("%s: %v", d, errs)
		}
		family := Cells(set, th)
		adjusted := newFamilyTest(family, MetricRPS, th)
		fit := adjusted.speed
		if fit == nil {
			t.Logf("%s: not fitted (no probe, or no rounds)", filepath.Base(d))
			continue
		}
		plain := *adjusted
		plain.speed = nil
		read++
		byName := map[string]*Cell{}
		for _, c := range family {
			byName[c.Name] = c
		}
		line := fmt.Sprintf("%s: %d rounds, sigma %.3f, adjusted %.3f (beta %.2f ± %.2f)", filepath.Base(d), adjusted.rounds, fit.Sigma, fit.SigmaAdjusted, fit.Beta, math.Sqrt(fit.BetaVar))
		for _, p := range pairs {
			a, b := byName[p[0]], byName[p[1]]
			if a == nil || b == nil {
				continue
			}
			raw, adj := plain.test(a, b), adjusted.test(a, b)
			line += fmt.Sprintf("\n  %-12s ÷ %-9s %.3f t %+5.1f → %.3f t %+5.1f", p[0], p[1], math.Exp(raw.Diff), raw.Diff/raw.SE, math.Exp(adj.Diff), adj.Diff/adj.SE)
			if strings.Contains(p[0], "plus") && adj.Diff > 0 && adj.p < th.Alpha/float64(len(family)*(len(family)-1)/2) {
				t.Errorf("%s: %s claimed faster than %s (%.3f, p %.2g) with a cost planted on it", filepath.Base(d), p[0], p[1], math.Exp(adj.Diff), adj.p)
			}
		}
		t.Log(line)
	}
	if read < 5 {
		t.Errorf("%d planted runs fitted, want at least 5", read)
	}
}

// TestPrecisionProbed: the stopping rule reads the noise the verdicts
// test on: with the probe's share taken out where the servers follow it
// (a smaller sigma than the plain rounds'), the plain rounds' where a
// window was not probed.
func TestPrecisionProbed(t *testing.T) {
	th := DefaultThresholds
	r := rand.New(rand.NewPCG(5, 5))
	cells := speedWorld{spells: 0.3, follow: 1, probeSD: 0.05, ownSD: 0.03, roundSD: 0.05}.family(r, make([]float64, 4), 8, th)
	var logs, speeds [][]float64
	for _, c := range cells {
		l, s := make([]float64, len(c.Reps)), make([]float64, len(c.Reps))
		for k, rep := range c.Reps {
			l[k], s[k] = math.Log(c.RPS.Values[k]), math.Log(rep.HostSpeed)
		}
		logs, speeds = append(logs, l), append(speeds, s)
	}
	plain, probed := PrecisionOf(logs, th), PrecisionProbed(logs, speeds, th)
	t.Logf("sigma %.3f plain, %.3f with the probe taken out; resolves %.3f and %.3f", plain.Sigma, probed.Sigma, plain.Resolves, probed.Resolves)
	if !(probed.Sigma < 0.7*plain.Sigma) || !(probed.Resolves < plain.Resolves) {
		t.Errorf("sigma %.3f with the probe, %.3f without: want the probe to take out most of a noise that follows it", probed.Sigma, plain.Sigma)
	}
	speeds[2][5] = math.NaN()
	if got := PrecisionProbed(logs, speeds, th); got.Sigma != plain.Sigma {
		t.Errorf("an unprobed window: sigma %.4f, want the plain rounds' %.4f", got.Sigma, plain.Sigma)
	}
}
