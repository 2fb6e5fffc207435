package main

import (
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/fairbench/fairbench/collect"
	"github.com/fairbench/fairbench/collect/pinning"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/rundir"
	"github.com/fairbench/fairbench/parse/runjson"
)

//go:embed demo.toml
var demoSuite []byte

var demoCommand = command{
	summary: "the whole pipeline on an embedded default: collect, parse, render",
	usage: `fairbench demo [-out DIR]

Builds three Go servers from site/apps/go (net/http, chi, gin), gates them,
loads them with bombardier (fetched with the go command at a pinned version
if it is not on PATH), parses the dumps, renders a site and prints the path
of its index.html: open it in a browser. It needs only Go. The servers and
bombardier are pinned as fairbench pin suggests for this machine. Takes
about two minutes on two cores. Run it from a fairbench checkout.

Examples:
  go run ./cmd/fairbench demo
  go run ./cmd/fairbench demo -out /tmp/demo`,
	run: runDemo,
}

func runDemo(e *env, args []string) error {
	fs := newFlags(e, "demo")
	out := fs.String("out", "fairbench-demo", "folder for the run dir (runs/) and the site (site/)")
	duration := fs.Duration("duration", 0, "override the measurement window (default from the suite: 2s)")
	warmup := fs.Duration("warmup", 0, "override the warm-up window (default 1s)")
	reps := fs.Int("reps", 0, "override the repetitions (default 3)")
	only := fs.String("only", "", "comma-separated target names (default all)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr("demo: takes no arguments, got %q", fs.Args())
	}
	root, err := checkoutRoot()
	if err != nil {
		return err
	}
	st, err := suite.ParseSuite(demoSuite, "demo.toml (embedded)")
	if err != nil {
		return err
	}
	if *duration > 0 {
		st.Load.Duration = suite.Duration(*duration)
	}
	if *warmup > 0 {
		w := suite.Duration(*warmup)
		st.Load.Warmup = &w
	}
	if *reps > 0 {
		st.Load.Repetitions = *reps
	}
	// The pinning fairbench pin suggests here: the embedded 0 and 1 are SMT
	// siblings on many Intel machines, which collect refuses.
	pin := pinning.Suggest(pinning.Read(pinning.DefaultRoots))
	st.Isolation = runjson.Isolation{ServerCPUs: pin.Server, ClientCPUs: pin.Client}
	ctx, cancel := e.interruptible()
	defer cancel()
	start := time.Now()
	dir, err := collect.Run(ctx, st, collect.Options{
		Out: filepath.Join(*out, "runs"), BaseDir: root, Only: csvList(*only), Progress: collect.ProgressFor(e.stderr),
		HostLock:  rundir.HostLockPath(),
		QuietWait: -1, // a demo measures the host as it is, and says so
	})
	cancel() // from here a signal ends the process at once
	if err != nil {
		return failure(err)
	}
	fmt.Fprintf(e.stderr, "collected %s in %s\n", dir.Path, time.Since(start).Round(time.Second))
	return renderSite(e, []string{dir.Path}, filepath.Join(*out, "site"), "fairbench demo: Go HTTP frameworks")
}

// checkoutRoot finds the fairbench checkout that holds site/apps/go, from
// the current directory up.
func checkoutRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "site", "apps", "go", "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("demo: run it inside a fairbench checkout: no site/apps/go/go.mod in %s or above", dir)
		}
	}
}
