package main

import (
	"fmt"
	"io"

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
	var inErr error
	for i, p := range fs.Args() {
		set, errs := parse.ReadAll([]string{p})
		for _, w := range set.Warnings {
			fmt.Fprintf(e.stderr, "fairbench: warning: %v\n", w)
		}
		err := inputProblems(e.stderr, "compare", errs)
		if len(set.Measurements) == 0 {
			if err != nil {
				return err
			}
			return usageErr("compare: no measurements in %s", p)
		}
		inErr = worse(inErr, err)
		sets[i] = set
	}
	if id, ok := sameRun(sets[0], sets[1]); ok {
		return usageErr("compare: run %s is on both sides (%s and %s): compare two different runs", id, fs.Arg(0), fs.Arg(1))
	}
	if err := audit.WriteCompare(e.stdout, sets[0], sets[1], verdict.DefaultThresholds); err != nil {
		return err
	}
	return inErr // shown above; what could be read was compared
}

// sameRun returns a run id both sets hold.
func sameRun(a, b *parse.Set) (string, bool) {
	ids := map[string]bool{}
	for _, r := range a.Runs {
		ids[r.ID] = true
	}
	for _, r := range b.Runs {
		if ids[r.ID] {
			return r.ID, true
		}
	}
	return "", false
}

// worse is the error of the higher exit status; a when they are equal.
func worse(a, b error) error {
	if report(io.Discard, b) > report(io.Discard, a) {
		return b
	}
	return a
}
