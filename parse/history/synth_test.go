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
	// round is the sd of the host's speed per round (collect's round r is
	// every target's r-th turn), shared by the round's turns: its swings
	// over minutes.
	round float64
	// unordered leaves the runs' rounds unrecorded, as in runs collected
	// before schedules.
	unordered bool
	// program is the sd of a run-level effect each target but the twins
	// meets on its own: a day that moves one program against the twins,
	// which the twins, one program, cannot see.
	program float64
	// runtimes are the targets' runtimes, in targets' order (nil: none),
	// and runtimeDay the sd of a run-level effect the programs of one
	// runtime meet together, twins included: a day that moves Go servers
	// against Node ones.
	runtimes   []string
	runtimeDay float64
	// pairs are the twins; nil: the last two targets.
	pairs [][2]string
}

// twins are the world's A/A pairs.
func (w world) twins() [][2]string {
	if w.pairs != nil {
		return w.pairs
	}
	n := len(w.targets)
	return [][2]string{{w.targets[n-2], w.targets[n-1]}}
}

// isTwin reports whether target is one of the world's twins.
func (w world) isTwin(target string) bool {
	for _, p := range w.twins() {
		if target == p[0] || target == p[1] {
			return true
		}
	}
	return false
}

// runtimeOf is target i's runtime, "" without runtimes.
func (w world) runtimeOf(i int) string {
	if w.runtimes == nil {
		return ""
	}
	return w.runtimes[i]
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
	return w.runShifted(rng, id, slow, 0)
}

// runShifted is run with the host's mood moved by shift (log): drift, a
// slow spell.
func (w world) runShifted(rng *rand.Rand, id string, slow map[string]float64, shift float64) *Run {
	n := len(w.targets)
	r := &Run{ID: id, Twins: w.twins(), Cells: map[Place][]float64{}, Rounds: map[Place][]int{}}
	mood := rng.NormFloat64()*w.mood + shift
	days := map[string]float64{} // each runtime's effect in this run
	if w.runtimeDay > 0 {
		for i := range w.targets {
			if rt := w.runtimeOf(i); !hasKey(days, rt) {
				days[rt] = rng.NormFloat64() * w.runtimeDay
			}
		}
	}
	rounds := make([]float64, w.reps)
	numbers := make([]int, w.reps)
	for i := range rounds {
		rounds[i], numbers[i] = rng.NormFloat64()*w.round, i+1
	}
	for si, sc := range w.scenarios {
		for ti, t := range w.targets {
			base := math.Log(10000 * float64(1+ti%(n-2)+si))
			twin := w.isTwin(t)
			if twin {
				base = math.Log(20000)
			}
			lvl := base + mood + rng.NormFloat64()*w.tau + days[w.runtimeOf(ti)]
			if !twin {
				lvl += rng.NormFloat64() * w.program
			}
			if f, ok := slow[t]; ok {
				lvl += math.Log(f)
			}
			v := make([]float64, w.reps)
			for i := range v {
				v[i] = math.Exp(lvl + rounds[i] + rng.NormFloat64()*w.within)
			}
			p := Place{Scenario: sc, Target: t, Runtime: w.runtimeOf(ti)}
			r.Cells[p] = v
			if !w.unordered {
				r.Rounds[p] = numbers
			}
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

// history draws a 60-run history: host drift of 0.2% a run, a slow spell
// (15% slower) at runs 10 to 12, a kernel change at run 20 after which
// gin is 6% faster and echo 4% slower, and steps: each target of step
// multiplied by its factor from run stepAt on.
func (w world) history(rng *rand.Rand, step map[string]float64, stepAt int) []Entry {
	var hist []Entry
	for i := range 60 {
		shift := -0.002 * float64(i)
		if i >= 10 && i <= 12 {
			shift += math.Log(0.85)
		}
		slow := map[string]float64{}
		kernel := "6.1"
		if i >= 20 {
			kernel = "6.8"
			slow["gin"], slow["echo"] = 1.06, 0.96
		}
		if i >= stepAt {
			for t, f := range step {
				slow[t] = f * cmpOr(slow[t], 1)
			}
		}
		r := w.runShifted(rng, fmt.Sprintf("run%02d", i), slow, shift)
		e := Entry{Run: r, Key: Key{{"load tool", "wrk 4.2.0"}, {"kernel", kernel}}, Versions: map[string]Key{}}
		for t := range step {
			v := "1.0.0"
			if i >= stepAt {
				v = "1.1.0"
			}
			e.Versions[t] = Key{{t, v}}
		}
		hist = append(hist, e)
	}
	return hist
}

// cmpOr is v, or def when v is 0.
func cmpOr(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}

// hasKey reports whether m holds k.
func hasKey(m map[string]float64, k string) bool {
	_, ok := m[k]
	return ok
}
