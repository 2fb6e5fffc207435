// Command retakes reads run dirs collected with retake_slow and prints
// whether taking slow turns again lowered their noise: for each run, the
// turns taken again, how many retakes were 10% faster or slower than the
// first take, and the spread of log req/s around target and round means
// (two-way residual sd) of each scenario's rounds counted with the first
// takes and with the retakes; then, over all runs, the residuals of the
// first takes against those of turns never taken again. The methodology
// page's figures on retakes are its output:
//
//	go run ./collect/internal/retakes site/results/20261206T*-vm site/results/20261207T*-vm
package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// cell is one target's turn in one round.
type cell struct {
	target string
	round  int
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: retakes RUNDIR...")
		os.Exit(2)
	}
	var sumFirst, sumRetake float64
	families, dropped, counted := 0, 0, 0
	var flaggedRes, otherRes []float64
	for _, dir := range os.Args[1:] {
		r, err := readRun(dir)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", dir, err)
			os.Exit(1)
		}
		dropped += r.dropped
		counted += r.counted
		fmt.Printf("%s %s: %d turns taken again of %d counted; retakes 10%% faster %d, 10%% slower %d\n",
			filepath.Base(dir), r.suite, r.dropped, r.counted, r.faster, r.slower)
		for _, sc := range r.scenarios {
			first := merged(r.kept[sc], r.first[sc])
			sdFirst, resFirst := residuals(first)
			sdRetake, _ := residuals(r.kept[sc])
			if math.IsNaN(sdFirst) || math.IsNaN(sdRetake) {
				continue
			}
			fmt.Printf("  %s: residual sd with first takes %.4f, with retakes %.4f\n", sc, sdFirst, sdRetake)
			sumFirst += sdFirst * sdFirst
			sumRetake += sdRetake * sdRetake
			families++
			for c, e := range resFirst {
				if _, ok := r.first[sc][c]; ok {
					flaggedRes = append(flaggedRes, e)
				} else {
					otherRes = append(otherRes, e)
				}
			}
		}
	}
	if families == 0 {
		fmt.Println("no scenario with three full rounds: nothing to compare")
		return
	}
	fmt.Printf("%d turns taken again of %d counted; over %d scenarios, rms residual sd %.4f with the first takes, %.4f with the retakes\n",
		dropped, counted, families, math.Sqrt(sumFirst/float64(families)), math.Sqrt(sumRetake/float64(families)))
	fmt.Printf("first takes of turns taken again: %d, residual mean %+.4f, rms %.4f; turns never taken again: %d, mean %+.4f, rms %.4f\n",
		len(flaggedRes), mean(flaggedRes), rms(flaggedRes), len(otherRes), mean(otherRes), rms(otherRes))
}

// run is one run dir's closed-loop rounds: the log req/s counted (kept)
// and, where a turn was taken again, its first take's, per scenario.
type run struct {
	suite                            string
	scenarios                        []string
	kept, first                      map[string]map[cell]float64
	dropped, counted, faster, slower int
}

// readRun reads dir's counted measurements and the dumps of the turns
// its run.json says were dropped for a slow host.
func readRun(dir string) (*run, error) {
	manifest, err := parse.ReadRun(dir)
	if err != nil {
		return nil, err
	}
	rounds := 0
	if manifest.Schedule != nil {
		rounds = len(manifest.Schedule.Rounds)
	}
	set, errs := parse.ReadAll([]string{dir})
	if len(errs) > 0 {
		return nil, errs[0]
	}
	r := &run{suite: manifest.Suite, kept: map[string]map[cell]float64{}, first: map[string]map[cell]float64{}}
	add := func(to map[string]map[cell]float64, sc string, c cell, rps float64) {
		if to[sc] == nil {
			to[sc] = map[cell]float64{}
			if !slices.Contains(r.scenarios, sc) {
				r.scenarios = append(r.scenarios, sc)
			}
		}
		to[sc][c] = math.Log(rps)
	}
	for _, m := range set.Measurements {
		if m.Warmup || m.Phase != "" || m.Rep > rounds || m.RPS <= 0 {
			continue
		}
		add(r.kept, m.Scenario, cell{m.Target, m.Rep}, m.RPS)
		r.counted++
	}
	for _, mr := range manifest.Measurements {
		if mr.Warmup || mr.Phase != "" || mr.Rep > rounds || mr.HostSpeed == nil || !mr.HostSpeed.Dropped || mr.Dump == "" {
			continue
		}
		one, errs := parse.ReadAll([]string{filepath.Join(dir, mr.Dump)})
		if len(errs) > 0 || len(one.Measurements) != 1 || one.Measurements[0].RPS <= 0 {
			return nil, fmt.Errorf("%s: the first take %s does not read as one measurement: %v", dir, mr.Dump, errs)
		}
		c := cell{mr.Target, mr.Rep}
		add(r.first, mr.Scenario, c, one.Measurements[0].RPS)
		r.dropped++
		if retake, ok := r.kept[mr.Scenario][c]; ok {
			switch d := retake - r.first[mr.Scenario][c]; {
			case d > math.Log(1.1):
				r.faster++
			case d < -math.Log(1.1):
				r.slower++
			}
		}
	}
	slices.Sort(r.scenarios)
	return r, nil
}

// merged is kept with over's values in place of its own.
func merged(kept, over map[cell]float64) map[cell]float64 {
	out := make(map[cell]float64, len(kept))
	for c, v := range kept {
		out[c] = v
	}
	for c, v := range over {
		out[c] = v
	}
	return out
}

// residuals is the two-way (target + round) fit of vals over the rounds
// every target has: the residual sd on (targets−1)(rounds−1) degrees of
// freedom and each cell's residual; NaN with fewer than 2 targets or 3
// such rounds.
func residuals(vals map[cell]float64) (float64, map[cell]float64) {
	var targets []string
	var rounds []int
	for c := range vals {
		if !slices.Contains(targets, c.target) {
			targets = append(targets, c.target)
		}
		if !slices.Contains(rounds, c.round) {
			rounds = append(rounds, c.round)
		}
	}
	rounds = slices.DeleteFunc(rounds, func(rd int) bool {
		for _, t := range targets {
			if _, ok := vals[cell{t, rd}]; !ok {
				return true
			}
		}
		return false
	})
	if len(targets) < 2 || len(rounds) < 3 {
		return math.NaN(), nil
	}
	grand := 0.0
	tm, rm := map[string]float64{}, map[int]float64{}
	for _, t := range targets {
		for _, rd := range rounds {
			v := vals[cell{t, rd}]
			grand += v / float64(len(targets)*len(rounds))
			tm[t] += v / float64(len(rounds))
			rm[rd] += v / float64(len(targets))
		}
	}
	res := map[cell]float64{}
	ss := 0.0
	for _, t := range targets {
		for _, rd := range rounds {
			e := vals[cell{t, rd}] - tm[t] - rm[rd] + grand
			res[cell{t, rd}] = e
			ss += e * e
		}
	}
	return math.Sqrt(ss / float64((len(targets)-1)*(len(rounds)-1))), res
}

// mean is verdict.MeanVar's mean.
func mean(xs []float64) float64 {
	m, _ := verdict.MeanVar(xs)
	return m
}

func rms(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x * x / float64(len(xs))
	}
	return math.Sqrt(s)
}
