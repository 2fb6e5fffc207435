package main

import (
	"fmt"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/audit"
	"github.com/fairbench/fairbench/parse/verdict"
)

var compareCommand = command{
	summary: "compare two runs, benchstat-style: median ± interval, delta, p, n",
	usage: `fairbench compare RUN_A RUN_B

Each RUN is anything parse takes (a run dir, a dump, a folder of dumps).
Cells are matched by target, runtime and scenario. A delta is shown only
where the difference is significant and above the noise threshold; "~"
otherwise, "?" where there are too few repetitions to tell.

Examples:
  fairbench compare site/results/20261101T090000Z-bench site/results/20261129T185000Z-bench
  fairbench compare before/ after/`,
	run: runCompare,
}

func runCompare(e *env, args []string) error {
	fs := newFlags(e, "compare")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return usageErr("compare: give exactly two runs, got %d", fs.NArg())
	}
	var sets [2]*parse.Set
	var all []error
	for i, p := range fs.Args() {
		set, errs := parse.ReadAll([]string{p})
		if err := inputErrors(e.stderr, errs); err != nil && len(set.Measurements) == 0 {
			return err
		}
		if len(set.Measurements) == 0 {
			return usageErr("compare: no measurements in %s", p)
		}
		sets[i] = set
		all = append(all, errs...)
	}
	if err := audit.WriteCompare(e.stdout, sets[0], sets[1], verdict.DefaultThresholds); err != nil {
		return err
	}
	if len(all) > 0 { // shown above; what could be read was compared
		return &exitError{code: 2, err: fmt.Errorf("compare: %d input problem(s)", len(all))}
	}
	return nil
}
