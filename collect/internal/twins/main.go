// Command twins reads run dirs and tests, in each scenario, whether a run's
// A/A twins (one program under two names, each started afresh for every
// window) stood apart beyond their rounds' noise: a paired t test over the
// rounds of their log req/s. It prints each test and how many read p below
// 0.05 and 0.01 against what chance alone gives, the evidence the
// methodology page cites on process-level speed:
//
//	go run ./collect/internal/twins site/results/2026120[4-8]*-vm
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

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: twins RUNDIR...")
		os.Exit(2)
	}
	var ps []float64
	for _, dir := range os.Args[1:] {
		run, err := parse.ReadRun(dir)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", dir, err)
			os.Exit(1)
		}
		if len(run.AAPair) != 2 {
			continue
		}
		a, b := run.AAPair[0], run.AAPair[1]
		set, errs := parse.ReadAll([]string{dir})
		if len(errs) > 0 {
			fmt.Fprintf(os.Stderr, "%s: %v\n", dir, errs[0])
			os.Exit(1)
		}
		// log req/s of each twin, by scenario and round (counted windows only)
		logs := map[string]map[int]map[string]float64{}
		for _, m := range set.Measurements {
			if m.Warmup || m.Phase != "" || m.RPS <= 0 || (m.Target != a && m.Target != b) {
				continue
			}
			if logs[m.Scenario] == nil {
				logs[m.Scenario] = map[int]map[string]float64{}
			}
			if logs[m.Scenario][m.Rep] == nil {
				logs[m.Scenario][m.Rep] = map[string]float64{}
			}
			logs[m.Scenario][m.Rep][m.Target] = math.Log(m.RPS)
		}
		var scenarios []string
		for sc := range logs {
			scenarios = append(scenarios, sc)
		}
		slices.Sort(scenarios)
		for _, sc := range scenarios {
			var d []float64
			for _, both := range logs[sc] {
				if len(both) == 2 {
					d = append(d, both[a]-both[b])
				}
			}
			if len(d) < 3 {
				continue
			}
			mean, v := verdict.MeanVar(d)
			n := float64(len(d))
			if v == 0 {
				continue
			}
			t := mean / math.Sqrt(v/n)
			p := verdict.StudentTwoSided(math.Abs(t), n-1)
			ps = append(ps, p)
			fmt.Printf("%s %s %s: %d rounds, %s/%s %+.1f%%, t %+.2f, p %.4f\n",
				filepath.Base(dir), run.Suite, sc, len(d), a, b, 100*math.Expm1(mean), t, p)
		}
	}
	for _, level := range []float64{0.05, 0.01} {
		below := 0
		for _, p := range ps {
			if p < level {
				below++
			}
		}
		fmt.Printf("p < %g: %d of %d tests, %.1f by chance alone\n", level, below, len(ps), level*float64(len(ps)))
	}
}
