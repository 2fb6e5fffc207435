package main

import (
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/BurntSushi/toml"
	"github.com/fairbench/fairbench/collect/suite"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/audit"
	"github.com/fairbench/fairbench/parse/rundir"
	"github.com/fairbench/fairbench/parse/verdict"
)

var compareCommand = command{
	summary: "compare two runs, benchstat-style: median ± interval, delta, p, n",
	usage: `fairbench compare RUN_A RUN_B
       fairbench compare -gate 5% [-alpha A] [-json] [-any-key] BASELINE... NEW

Each RUN is anything parse takes (a run dir, a dump, a folder of dumps).
Cells are matched by target, runtime and scenario. A delta is shown only
where the difference is significant and above the noise threshold; "~"
otherwise, "?" where there are too few repetitions to tell. A side that
holds a target and scenario in two runs is refused: compare one run with
one run. A row whose two cells were sent different requests (the method
and path the dumps record, or the scenario's request in each run dir's
suite.toml) reads "≠ request" and is not compared.
Exit status: 0 compared; 1 an ERROR note (different requests, mixed load
settings) says where the comparison does not hold, or a file met in the
input could not be read; 2 bad usage, a named input unreadable, or a side
holding one target and scenario in two runs.

With -gate, compare is a CI gate: NEW (one run) against the runs of the
BASELINE paths (one or several: history narrows the noise). Each target
is read against the A/A twins of its own run (the host's mood out): the
twins of its own runtime where the suite names a pair per runtime
(aa_pairs), which a day that moves one runtime against another cannot
pass. The run-to-run variance is counted beside the repetitions' noise:
the larger of what the twins' differences show and what the runs' own
scatter of each target shows (give several baselines so the scatter can
be read). A target fails the gate when it
is claimed slower (one-sided, Holm over the targets, level -alpha) and
by at least the threshold. Twins are shown, never gated. Runs whose
comparability keys differ (load tool, its version and settings such as
connections, pipelining and keep-alive, isolation, host, the host speed
probe's class: its fastest time more than 1.5x apart, runtime versions)
are refused unless -any-key.
Gate exit status: 0 pass; 1 a target slower; 2 bad usage or runs not
comparable.

Examples:
  fairbench compare site/results/20261101T090000Z-bench site/results/20261129T185000Z-bench
  fairbench compare before/ after/
  fairbench compare -gate 5% site/results/20261101T090000Z-bench site/results/20261129T185000Z-bench
  fairbench compare -gate 5% -json baseline/ new/ > gate.json

A CI workflow (GitHub Actions) that gates each pull request on the
baseline runs kept from main:
  on: pull_request
  jobs:
    bench:
      runs-on: [self-hosted, bench]
      steps:
        - uses: actions/checkout@v4
        - run: fairbench collect -suite bench.toml -out new
        - run: fairbench compare -gate 5% baseline/ new/`,
	run: runCompare,
}

func runCompare(e *env, args []string) error {
	fs := newFlags(e, "compare")
	gate := fs.String("gate", "", "fail (exit 1) when a target is slower by at least this share, e.g. 5%")
	alpha := fs.Float64("alpha", 0.05, "with -gate: family-wise level of the slower claims")
	asJSON := fs.Bool("json", false, "with -gate: write the decision as JSON")
	anyKey := fs.Bool("any-key", false, "with -gate: gate runs whose comparability keys differ, noting what changed")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *gate != "" {
		th, err := parseShare(*gate)
		if err != nil {
			return usageErr("compare: -gate: %v", err)
		}
		if fs.NArg() < 2 {
			return usageErr("compare: -gate needs a baseline and a new run, got %d paths", fs.NArg())
		}
		return runGate(e, fs.Args(), gateFlags{threshold: th, alpha: *alpha, json: *asJSON, anyKey: *anyKey})
	}
	if *asJSON || *anyKey {
		return usageErr("compare: -json and -any-key need -gate")
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return usageErr("compare: give exactly two runs, got %d", fs.NArg())
	}
	var sets [2]*parse.Set
	var inErr error
	for i, p := range fs.Args() {
		set, err := readSide(e, p)
		if set == nil {
			return err
		}
		inErr = worse(inErr, err)
		sets[i] = set
	}
	if id, ok := sameRun(sets[0], sets[1]); ok {
		return usageErr("compare: run %s is on both sides (%s and %s): compare two different runs", id, fs.Arg(0), fs.Arg(1))
	}
	err := audit.WriteCompare(e.stdout, sets[0], sets[1], audit.CompareOptions{
		Thresholds: verdict.DefaultThresholds, Request: suiteRequests(sets[0], sets[1])})
	switch {
	case errors.Is(err, audit.ErrCompareSide):
		return &exitError{code: 2, err: err}
	case errors.Is(err, audit.ErrCompareVoid):
		return worse(inErr, failure(err))
	case err != nil:
		return err
	}
	return inErr // shown above; what could be read was compared
}

// readSide reads one side of a comparison, printing its warnings and
// problems. A nil set comes with the error to return (nothing measured);
// otherwise the error is the input's problems, what could be read is kept.
func readSide(e *env, p string) (*parse.Set, error) {
	set, errs := parse.ReadAll([]string{p})
	for _, w := range set.Warnings {
		fmt.Fprintf(e.stderr, "fairbench: warning: %v\n", w)
	}
	err := inputProblems(e.stderr, "compare", errs)
	if len(set.Measurements) == 0 {
		if err != nil {
			return nil, err
		}
		return nil, usageErr("compare: no measurements in %s", p)
	}
	return set, err
}

// suiteRequests reads the suite.toml of each run dir of the sets and
// answers the request its scenario defines, in words: method, path,
// headers in order, and the body's size and sha256. Only the scenarios'
// requests are read (the rest of the suite is not checked: an older suite
// still says what it asked). A run whose suite cannot be read, or lacks
// the scenario, answers false.
func suiteRequests(sets ...*parse.Set) func(run, scenario string) (string, bool) {
	type scenarios struct {
		Scenario []struct {
			Name    string        `toml:"name"`
			Request suite.Request `toml:"request"`
		} `toml:"scenario"`
	}
	suites := map[string]scenarios{}
	for _, set := range sets {
		for _, r := range set.Runs {
			if r.Path == "" {
				continue
			}
			src, err := rundir.ReadFile(r.Path, "suite.toml", rundir.KindSuite)
			if err != nil {
				continue
			}
			var st scenarios
			if _, err := toml.Decode(string(src), &st); err == nil {
				suites[r.ID] = st
			}
		}
	}
	return func(run, scenario string) (string, bool) {
		st, ok := suites[run]
		if !ok {
			return "", false
		}
		for _, sc := range st.Scenario {
			if sc.Name == scenario {
				return requestWords(sc.Request), true
			}
		}
		return "", false
	}
}

// requestWords is a request as compare notes say it: "GET /x", then each
// header, then the body's size and sha256 prefix.
func requestWords(r suite.Request) string {
	s := cmp.Or(r.Method, "GET") + " " + r.Path
	for _, k := range slices.Sorted(maps.Keys(r.Headers)) {
		s += fmt.Sprintf(" %s: %q", k, r.Headers[k])
	}
	if r.Body != "" {
		sum := sha256.Sum256([]byte(r.Body))
		s += fmt.Sprintf(" body %d bytes sha256 %x", len(r.Body), sum[:6])
	}
	if r.BodyFile != "" {
		s += " body_file " + r.BodyFile
	}
	return s
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
