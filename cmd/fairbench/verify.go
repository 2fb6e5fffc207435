package main

import (
	"errors"
	"fmt"

	"github.com/fairbench/fairbench/collect"
	"github.com/fairbench/fairbench/collect/suite"
)

var verifyCommand = command{
	summary: "run the conformance gate alone",
	usage: `fairbench verify -suite FILE [-only a,b] [-force-pinning]

Builds and starts each target and checks every scenario and variant byte for
byte, printing each target's transcript and verdict as soon as it is
checked (Ctrl-C or SIGTERM stops it with those printed). Exit status 0
when every target passes every scenario; 1 when any target fails any
scenario (the others are still checked and printed) or verify is
stopped; 2 on bad usage (an -only name the suite lacks). The suite's [isolation] is audited first, as
fairbench pin -suite does, and a pinning problem stops it unless
-force-pinning is given.

Examples:
  fairbench verify -suite site/suites/go.toml
  fairbench verify -suite site/suites/go.toml -only gin`,
	run: runVerify,
}

func runVerify(e *env, args []string) error {
	fs := newFlags(e, "verify")
	suitePath := fs.String("suite", "", "suite file (TOML)")
	only := fs.String("only", "", "comma-separated target names (default all)")
	base := fs.String("base", ".", "folder that target dirs are relative to")
	forcePinning := fs.Bool("force-pinning", false, "verify even when the suite's [isolation] has a pinning problem (see fairbench pin)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *suitePath == "" || fs.NArg() > 0 {
		fs.Usage()
		return usageErr("verify: -suite FILE is required and takes no other arguments")
	}
	st, err := suite.LoadSuite(*suitePath)
	if err != nil {
		return usageErr("%w", err)
	}
	ctx, cancel := e.interruptible()
	defer cancel()
	// Each verdict is printed as it is checked: a verify stopped by a
	// signal has printed every target it finished.
	checked, failed := 0, 0
	err = collect.VerifyEach(ctx, st, collect.Options{Only: csvList(*only), BaseDir: *base, Progress: collect.NewLineProgress(e.stderr), ForcePinning: *forcePinning}, func(r collect.VerifyResult) {
		fmt.Fprintf(e.stdout, "### %s\n%s", r.Target, r.Transcript)
		if r.Err != nil {
			fmt.Fprintf(e.stdout, "ERROR: %v\n\n", r.Err)
		}
		if r.Err != nil || len(r.Failed) > 0 {
			failed++
		}
		checked++
	})
	switch {
	case errors.Is(err, collect.ErrUsage):
		return usageErr("%w", err)
	case ctx.Err() != nil:
		return failure(fmt.Errorf("verify: interrupted after %d of %d targets: the verdicts above are theirs (%d failed)", checked, targetCount(st, *only), failed))
	case err != nil:
		return failure(err)
	case failed > 0:
		return failure(fmt.Errorf("%d of %d targets failed the gate", failed, checked))
	}
	fmt.Fprintf(e.stdout, "all %d targets passed\n", checked)
	return nil
}

// targetCount is how many targets a verify of st with -only checks.
func targetCount(st *suite.Suite, only string) int {
	if names := csvList(only); len(names) > 0 {
		return len(names)
	}
	return len(st.Targets)
}
