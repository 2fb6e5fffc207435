package main

import (
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse"
)

// The planted suite (site/suites/planted.toml) runs one plain server at
// known added CPU costs per request: a target named <base>-plus<N> is the
// program of <base>-base with $PLANT_LOOPS set so that its server CPU
// seconds per completed request are 1+N/100 times the base's, within
// plantedTolerance. TestPlantedSuite holds the suite to that shape;
// TestPlantedRun measures a collected run of it against the nominal ratios.

// plantedTolerance is how far a planted target's measured CPU per request
// ratio may be from its nominal value: "+10%" is 1.10 ± 0.02.
const plantedTolerance = 0.02

// plantedEnv names the run dirs TestPlantedRun reads (a list, as PATH is).
const plantedEnv = "FAIRBENCH_PLANTED_RUN"

// plantedName is a planted target's name: its base's prefix and the
// planted difference in percent.
var plantedName = regexp.MustCompile(`^(.+)-plus([0-9]+)$`)

// planted is one planted target and what it is held to.
type planted struct {
	target, base string
	nominal      float64 // CPU per request, as a multiple of the base's
}

// plantedTargets reads the planted targets of a suite from their names, in
// the suite's order.
func plantedTargets(st *suite.Suite) []planted {
	var out []planted
	for _, tg := range st.Targets {
		m := plantedName.FindStringSubmatch(tg.Name)
		if m == nil {
			continue
		}
		pct, _ := strconv.Atoi(m[2])
		out = append(out, planted{target: tg.Name, base: m[1] + "-base", nominal: 1 + float64(pct)/100})
	}
	return out
}

// TestPlantedSuite holds planted.toml to the site's settings and to its
// own shape (its budget is its own: it has fewer cells): every planted target is its base's program with only
// $PLANT_LOOPS changed (a positive count, the base's 0), and the A/A twin
// is the Node base under another name. The settings are go.toml's; the
// JS suites' differ only in their warm-up (4 s, which Node frameworks
// need and the planted servers, plain http, do not), so the two agree but
// for it.
func TestPlantedSuite(t *testing.T) {
	st := loadSuite(t, filepath.Join(repoRoot, "site", "suites", "planted.toml"))
	for _, name := range []string{"go.toml", "js.toml"} {
		other := loadSuite(t, filepath.Join(repoRoot, "site", "suites", name))
		own, site := st.Load, other.Load
		own.Budget, site.Budget = 0, 0
		if name == "js.toml" {
			own.Warmup, site.Warmup = nil, nil
		}
		if !reflect.DeepEqual(own, site) {
			t.Errorf("[load] is %+v, %s's %+v: collect the planted suite at the site's settings", st.Load, name, other.Load)
		}
		if !reflect.DeepEqual(st.Isolation, other.Isolation) {
			t.Errorf("[isolation] is %+v, %s's %+v: pin as the site's suites do", st.Isolation, name, other.Isolation)
		}
	}
	byName := map[string]suite.Target{}
	for _, tg := range st.Targets {
		byName[tg.Name] = tg
	}
	if want := []string{"node-base", "node-base-aa"}; !slices.Equal(st.AAPair, want) {
		t.Errorf("aa_pair is %v, want %v", st.AAPair, want)
	} else if a, b := byName[want[0]], byName[want[1]]; programKey(a) != programKey(b) {
		t.Errorf("%s and %s run different programs: an A/A twin is one program under two names", a.Name, b.Name)
	}
	ps := plantedTargets(st)
	var names []string
	for _, p := range ps {
		names = append(names, p.target)
	}
	if want := []string{"node-plus5", "node-plus10", "node-plus25", "go-plus10"}; !slices.Equal(names, want) {
		t.Errorf("planted targets %v, want %v", names, want)
	}
	for _, p := range ps {
		tg, base := byName[p.target], byName[p.base]
		if base.Name == "" {
			t.Errorf("%s: no base target %s", p.target, p.base)
			continue
		}
		if n, err := strconv.Atoi(base.Env["PLANT_LOOPS"]); err != nil || n != 0 {
			t.Errorf("%s: PLANT_LOOPS=%q, want 0", base.Name, base.Env["PLANT_LOOPS"])
		}
		if n, err := strconv.Atoi(tg.Env["PLANT_LOOPS"]); err != nil || n <= 0 {
			t.Errorf("%s: PLANT_LOOPS=%q, want a positive loop count", tg.Name, tg.Env["PLANT_LOOPS"])
		}
		if tg.PlantedOn != p.base {
			t.Errorf("%s: planted_on = %q, want %q", tg.Name, tg.PlantedOn, p.base)
		}
		tg.Env, base.Env, tg.PlantedOn = nil, nil, ""
		if programKey(tg) != programKey(base) {
			t.Errorf("%s differs from %s in more than PLANT_LOOPS: plant the cost in the base's program", tg.Name, base.Name)
		}
	}
}

// cpuCosts are the server CPU seconds per completed request of one
// target's measured windows in one run and scenario, by repetition.
type cpuCosts map[int]float64

// plantedCosts gathers cpuCosts by run, scenario and target from the
// closed-loop, non-warm-up measurements of a set; a window without a
// recorded server CPU time or without completed requests is left out.
func plantedCosts(set *parse.Set) map[[3]string]cpuCosts {
	out := map[[3]string]cpuCosts{}
	for _, m := range set.Measurements {
		if m.Warmup || m.Phase != parse.PhaseThroughput || m.ServerCPU <= 0 || m.Requests <= 0 {
			continue
		}
		k := [3]string{m.Run, m.Scenario, m.Target}
		if out[k] == nil {
			out[k] = cpuCosts{}
		}
		out[k][m.Rep] = m.ServerCPU / float64(m.Requests)
	}
	return out
}

// plantedRatio compares a target's costs with its base's: ratio is the
// median of the target's costs over the median of the base's; lo and hi
// are the smallest and largest per-repetition ratio (the target's and the
// base's window of one rep run in the same round), and n how many reps
// both have.
type plantedRatio struct {
	ratio, lo, hi float64
	n             int
}

func comparePlanted(target, base cpuCosts) plantedRatio {
	r := plantedRatio{ratio: median(values(target)) / median(values(base)), lo: math.Inf(1), hi: math.Inf(-1)}
	for rep, c := range target {
		b, ok := base[rep]
		if !ok {
			continue
		}
		r.lo, r.hi = min(r.lo, c/b), max(r.hi, c/b)
		r.n++
	}
	return r
}

func values(c cpuCosts) []float64 {
	var out []float64
	for _, v := range c {
		out = append(out, v)
	}
	return out
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// TestPlantedRun reads the run dirs named by $FAIRBENCH_PLANTED_RUN
// (collects of site/suites/planted.toml) with the parse package and checks
// every planted target's server CPU per request against its base's: the
// median ratio must be within plantedTolerance of the nominal one, and the
// A/A twin's within plantedTolerance of 1. It prints the ratios and their
// per-repetition range (go test -v). Skipped when the variable is unset:
//
//	FAIRBENCH_PLANTED_RUN=site/results/<run-id> go test ./cmd/fairbench -run TestPlantedRun -v
func TestPlantedRun(t *testing.T) {
	dirs := filepath.SplitList(os.Getenv(plantedEnv))
	if len(dirs) == 0 {
		t.Skipf("%s is unset: name a run dir of site/suites/planted.toml", plantedEnv)
	}
	set, errs := parse.ReadAll(dirs)
	for _, err := range errs {
		t.Errorf("%v", err)
	}
	st := loadSuite(t, filepath.Join(repoRoot, "site", "suites", "planted.toml"))
	checks := plantedTargets(st)
	checks = append(checks, planted{target: st.AAPair[1], base: st.AAPair[0], nominal: 1})
	costs := plantedCosts(set)
	if len(set.Runs) == 0 {
		t.Fatalf("%s=%s: no run read", plantedEnv, os.Getenv(plantedEnv))
	}
	for _, run := range set.Runs {
		scenarios := map[string]bool{}
		for k := range costs {
			if k[0] == run.ID {
				scenarios[k[1]] = true
			}
		}
		for _, sc := range slices.Sorted(maps.Keys(scenarios)) {
			t.Log(plantedTable(t, run.ID, sc, checks, costs))
		}
	}
}

// plantedTable checks one run's scenario and returns its table: per
// planted target, the base's and the target's median µs of server CPU per
// request, the ratio, the per-rep range, the nominal ratio and whether the
// ratio is within plantedTolerance of it.
func plantedTable(t *testing.T, run, scenario string, checks []planted, costs map[[3]string]cpuCosts) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s %s: server CPU per completed request, target ÷ base\n", run, scenario)
	fmt.Fprintf(&b, "%-14s %-10s %9s %9s %7s %15s %5s %7s  %s\n", "target", "base", "base µs", "target µs", "ratio", "per-rep range", "reps", "nominal", "within ±0.02")
	for _, p := range checks {
		tc, bc := costs[[3]string{run, scenario, p.target}], costs[[3]string{run, scenario, p.base}]
		if len(tc) == 0 || len(bc) == 0 {
			t.Errorf("%s %s: no measured windows with server CPU for %s or %s", run, scenario, p.target, p.base)
			continue
		}
		r := comparePlanted(tc, bc)
		ok := math.Abs(r.ratio-p.nominal) <= plantedTolerance
		if !ok {
			t.Errorf("%s %s: %s ÷ %s = %.3f, want %.2f ± %.2f", run, scenario, p.target, p.base, r.ratio, p.nominal, plantedTolerance)
		}
		fmt.Fprintf(&b, "%-14s %-10s %9.2f %9.2f %7.3f %7.3f–%-7.3f %5d %7.2f  %v\n", p.target, p.base,
			median(values(bc))*1e6, median(values(tc))*1e6, r.ratio, r.lo, r.hi, r.n, p.nominal, ok)
	}
	return b.String()
}

// TestComparePlanted checks the ratio and its per-repetition range on
// costs made by hand.
func TestComparePlanted(t *testing.T) {
	base := cpuCosts{1: 10e-6, 2: 12e-6, 3: 11e-6}
	target := cpuCosts{1: 11e-6, 2: 13.2e-6, 3: 12.65e-6, 4: 20e-6}
	got := comparePlanted(target, base)
	// medians: target (12.65+13.2)/2 = 12.925 µs, base 11 µs
	want := plantedRatio{ratio: 12.925 / 11, lo: 1.1, hi: 1.15, n: 3}
	if math.Abs(got.ratio-want.ratio) > 1e-9 || math.Abs(got.lo-want.lo) > 1e-9 || math.Abs(got.hi-want.hi) > 1e-9 || got.n != want.n {
		t.Errorf("comparePlanted = %+v, want %+v", got, want)
	}
}
