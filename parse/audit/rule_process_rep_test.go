package audit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
	"github.com/fairbench/fairbench/parse/verdict"
)

// The shape of the nest suite's quiet run: 6 targets × 8 repetitions × 11
// scenarios, every repetition one server process across the scenarios.
const processTargets, processReps, processScenarios = 6, 8, 11

// processNoise is the log offset of one cell's repetition: target, rep
// and scenario from 0.
type processNoise func(r *rand.Rand, target, rep, scenario int) float64

// processPage simulates one run: each process (target, rep) draws its own
// log offset from N(0, tau²), each cell adds noise; pair names an A/A
// pair in run.json when not empty.
func processPage(r *rand.Rand, tau float64, noise processNoise, pair []string) *parse.Set {
	set := &parse.Set{Runs: []*parse.Run{{Manifest: runjson.Manifest{ID: "sim", AAPair: pair}}}}
	order := 0
	for rep := range processReps {
		for target := range processTargets {
			process := tau * r.NormFloat64()
			for s := range processScenarios {
				order++
				name, scenario := fmt.Sprintf("t%02d", target), fmt.Sprintf("s%02d", s)
				set.Measurements = append(set.Measurements, &parse.Measurement{
					Run: "sim", Target: name, Scenario: scenario, Rep: rep + 1, Order: order,
					RPS:    20000 * math.Exp(float64(s)*0.1+process+noise(r, target, rep, s)),
					Source: parse.Source{File: filepath.Join("dumps", name, scenario, fmt.Sprintf("%d.txt", rep+1))},
				})
			}
		}
	}
	return set
}

// processFired runs the rule on one simulated page.
func processFired(set *parse.Set, th verdict.Thresholds) []Finding {
	return processFindings(set, verdict.Cells(set, th), nil, th)
}

func TestProcessNullFamilyWise(t *testing.T) {
	th := verdict.DefaultThresholds
	gauss := func(cv float64) processNoise {
		return func(r *rand.Rand, _, _, _ int) float64 { return cv * r.NormFloat64() }
	}
	res := aaResiduals(t)
	cases := []struct {
		name  string
		tau   float64
		noise processNoise
	}{
		{"identical processes, 5% cell noise", 0, gauss(0.05)},
		{"processes 6% apart by themselves, 5% cell noise", 0.06, gauss(0.05)},
		{"scenarios from 1% to 11% noise", 0.03, func(r *rand.Rand, _, _, s int) float64 {
			return (0.01 + 0.01*float64(s)) * r.NormFloat64()
		}},
		{"one cell in 30 stalls to half speed", 0.03, func(r *rand.Rand, _, _, _ int) float64 {
			if r.IntN(30) == 0 {
				return math.Log(0.5)
			}
			return 0.03 * r.NormFloat64()
		}},
		{"cell noise resampled from real runs", 0, func(r *rand.Rand, _, _, _ int) float64 {
			return res[r.IntN(len(res))]
		}},
	}
	for _, tc := range cases {
		r := rand.New(rand.NewPCG(17, 3))
		pages, bad := simPages(), 0
		for range pages {
			if len(processFired(processPage(r, tc.tau, tc.noise, nil), th)) > 0 {
				bad++
			}
		}
		if limit := binomialBound(th.Alpha, pages); float64(bad) > limit {
			t.Errorf("%s: %d of %d runs have a process-rep finding, above %.1f (α=%g)", tc.name, bad, pages, limit, th.Alpha)
		} else {
			t.Logf("%s: %d of %d runs have a process-rep finding (bound %.1f)", tc.name, bad, pages, limit)
		}
	}
}

func TestProcessSlowedFires(t *testing.T) {
	th := verdict.DefaultThresholds
	for _, slow := range []float64{0.6, 1 / 0.6} {
		// Target t01's fifth process at slow× on every scenario, the
		// others apart by 4% by themselves, 5% noise per cell.
		noise := func(r *rand.Rand, target, rep, _ int) float64 {
			x := 0.05 * r.NormFloat64()
			if target == 1 && rep == 4 {
				x += math.Log(slow)
			}
			return x
		}
		r := rand.New(rand.NewPCG(5, 8))
		pages, found, wrong := simPages(), 0, 0
		for range pages {
			for _, f := range processFired(processPage(r, 0.04, noise, nil), th) {
				if f.Target == "t01" && strings.HasPrefix(f.Message, "repetition 5 ") {
					found++
				} else {
					wrong++
				}
			}
		}
		if float64(found) < 0.95*float64(pages) || float64(wrong) > binomialBound(th.Alpha, pages) {
			t.Errorf("one process at %.2f×: named in %d of %d runs, another repetition in %d", slow, found, pages, wrong)
		} else {
			t.Logf("one process at %.2f×: named in %d of %d runs, another repetition in %d", slow, found, pages, wrong)
		}
	}
}

func TestProcessAAFloor(t *testing.T) {
	th := verdict.DefaultThresholds
	noise := func(r *rand.Rand, target, rep, _ int) float64 {
		x := 0.03 * r.NormFloat64()
		if target == 1 && rep == 4 {
			x += math.Log(0.55)
		}
		return x
	}
	set := processPage(rand.New(rand.NewPCG(1, 2)), 0.02, noise, []string{"t00", "t01"})
	// The same page with t00/t01 the second of two pairs (a pair per
	// runtime): the effect reads every pair, as the floor pools them.
	second := processPage(rand.New(rand.NewPCG(1, 2)), 0.02, noise, nil)
	second.Runs[0].AAPairs = [][]string{{"t02", "t03"}, {"t00", "t01"}}
	for name, s := range map[string]*parse.Set{"one pair": set, "second of two pairs": second} {
		fs := processFired(s, th)
		if len(fs) != 1 {
			t.Fatalf("%s: got %d findings, want 1: %v", name, len(fs), fs)
		}
		f := fs[0]
		if f.Rule != RuleProcess || f.Level != LevelWarning || f.Run != "sim" || f.Target != "t01" {
			t.Errorf("%s: got %s, want a process-rep warning on sim/t01", name, f)
		}
		// No run.json records here: the message does not claim one process.
		for _, want := range []string{"repetition 5 ran at 0.5", "slower in 11 of 11 scenarios", "its scenarios shared something", "one side of an A/A pair of the run", "without it"} {
			if !strings.Contains(f.Message, want) {
				t.Errorf("%s: message lacks %q: %s", name, want, f.Message)
			}
		}
		if len(f.Dumps) != processScenarios || !slices.Contains(f.Dumps, filepath.Join("dumps", "t01", "s00", "5.txt")) {
			t.Errorf("%s: dumps %v, want the 11 dumps of t01's repetition 5", name, f.Dumps)
		}
	}
	// A run of foreign dumps (no run order) says nothing: a repetition
	// there need not be one process.
	for _, m := range set.Measurements {
		m.Order = 0
	}
	if fs := processFired(set, th); len(fs) != 0 {
		t.Errorf("foreign dumps: got %v, want none", fs)
	}
}

// nestRun is a real run of the nest suite (6 targets, 8 repetitions, 11
// scenarios) in which repetition 5 of nest-express-node-aa ran at about
// half speed on every scenario and doubled the A/A floor.
const nestRun = "../testdata/runs/20261201T155258Z-vm"

// TestProcessNestRun checks the rule on nestRun: the slow repetition is
// found, with run.json's facts about its process, beside the two other
// repetitions the rule finds there.
func TestProcessNestRun(t *testing.T) {
	dir := nestRun
	set, errs := parse.ReadAll([]string{dir})
	if set == nil || len(set.Measurements) == 0 {
		t.Fatalf("read %s: %v", dir, errs)
	}
	fs := processFindings(set, verdict.Cells(set, verdict.DefaultThresholds), nil, verdict.DefaultThresholds)
	var got []string
	for _, f := range fs {
		rep, _, _ := strings.Cut(strings.TrimPrefix(f.Message, "repetition "), " ")
		got = append(got, f.Target+" rep "+rep)
		if f.Target != "nest-express-node-aa" {
			continue
		}
		// run.json gives rep 5's measurements one startup (one process),
		// and its CPU seconds per request.
		for _, want := range []string{"one server process served every scenario", "µs of server CPU per request", "started in", "one side of an A/A pair of the run"} {
			if !strings.Contains(f.Message, want) {
				t.Errorf("the A/A twin's finding lacks %q: %s", want, f.Message)
			}
		}
	}
	want := []string{"nest-express-node-aa rep 5", "nest-fastify-bun rep 1", "nest-fastify-node rep 1"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
