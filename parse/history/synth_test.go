package history

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// world is a synthetic host and suite: targets with base levels, A/A
// twins, and the noise a run meets.
type world struct {
	targets   []string // the last two are the twins
	scenarios []string
	reps      int
	within    float64 // sd of one repetition's log throughput
	tau       float64 // sd of a target's run-level effect
	mood      float64 // sd of the host's mood per run, shared by all targets
}

// defaultWorld is a 6-target, 4-scenario suite with twins at 3% noise per
// repetition, n = 8, 1% run-level effect and 3% host mood.
func defaultWorld() world {
	return world{
		targets:   []string{"gin", "echo", "hono", "fastify", "axum", "actix", "aa-a", "aa-b"},
		scenarios: []string{"ping", "json", "query", "upload"},
		reps:      8, within: 0.03, tau: 0.01, mood: 0.03,
	}
}

// run draws one run; slow multiplies the named targets' throughput.
func (w world) run(rng *rand.Rand, id string, slow map[string]float64) *Run {
	n := len(w.targets)
	r := &Run{ID: id, Twins: [2]string{w.targets[n-2], w.targets[n-1]}, Cells: map[Place][]float64{}}
	mood := rng.NormFloat64() * w.mood
	for si, sc := range w.scenarios {
		for ti, t := range w.targets {
			base := math.Log(10000 * float64(1+ti%(n-2)+si))
			if ti >= n-2 {
				base = math.Log(20000)
			}
			lvl := base + mood + rng.NormFloat64()*w.tau
			if f, ok := slow[t]; ok {
				lvl += math.Log(f)
			}
			v := make([]float64, w.reps)
			for i := range v {
				v[i] = math.Exp(lvl + rng.NormFloat64()*w.within)
			}
			r.Cells[Place{Scenario: sc, Target: t}] = v
		}
	}
	return r
}

// gateRate runs trials pairs (baseline runs, then one new run with slow
// applied) and returns the share the gate failed.
func gateRate(w world, seed uint64, trials, baselines int, slow map[string]float64, o GateOptions) (float64, error) {
	failed := 0
	for i := range trials {
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		var base []*Run
		for b := range baselines {
			base = append(base, w.run(rng, fmt.Sprintf("b%d", b), nil))
		}
		g, err := Decide(base, w.run(rng, "new", slow), o)
		if err != nil {
			return 0, err
		}
		if g.Failed {
			failed++
		}
	}
	return float64(failed) / float64(trials), nil
}
