package main

import (
	"fmt"

	"github.com/fairbench/fairbench/collect"
)

var collectCommand = command{
	summary: "run a suite: build, gate, load, and keep every raw dump",
	usage: `fairbench collect -suite FILE [-out DIR] [-only a,b] [-resume RUNDIR]

Builds and starts each target of the suite, checks its answers byte for byte
(a target that fails a scenario is not measured in it), then runs the load
generator with warm-ups and repetitions, a fresh server process for each
repetition. Writes a run dir: run.json, suite.toml, conformance/, dumps/.
Ctrl-C stops cleanly; -resume finishes the run without redoing what is done.

Examples:
  fairbench collect -suite site/suites/go.toml
  fairbench collect -suite site/suites/go.toml -only gin,chi -out /tmp/runs
  fairbench collect -suite site/suites/go.toml -resume site/results/20261129T185000Z-bench`,
	run: runCollect,
}

func runCollect(e *env, args []string) error {
	fs := newFlags(e, "collect")
	suitePath := fs.String("suite", "", "suite file (TOML)")
	out := fs.String("out", "site/results", "folder to write the run dir into")
	only := fs.String("only", "", "comma-separated target names to run (default all)")
	resume := fs.String("resume", "", "an interrupted run dir to finish")
	base := fs.String("base", ".", "folder that target dirs are relative to")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *suitePath == "" || fs.NArg() > 0 {
		fs.Usage()
		return usageErr("collect: -suite FILE is required and takes no other arguments")
	}
	suite, err := collect.LoadSuite(*suitePath)
	if err != nil {
		return usageErr("%w", err)
	}
	ctx, cancel := e.interruptible()
	defer cancel()
	dir, err := collect.Run(ctx, suite, collect.Options{
		Out: *out, Resume: *resume, Only: csvList(*only), BaseDir: *base, Progress: e.stderr,
	})
	if dir != nil {
		fmt.Fprintln(e.stdout, dir.Path)
	}
	if err != nil {
		return failure(err)
	}
	return nil
}
