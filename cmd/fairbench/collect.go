package main

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/fairbench/fairbench/collect"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/rundir"
)

var collectCommand = command{
	summary: "run a suite: build, gate, load, and keep every raw dump",
	usage: `fairbench collect -suite FILE [-out DIR] [-only a,b] [-shard I/N] [-hosts FILE] [-force-pinning] [-fresh-build] [-build-cache-max MB] [-seed N] [-resume RUNDIR]

Starts the suite's services, builds and starts each target, checks its
answers byte for byte (a target that fails a scenario is not measured in
it), then runs the load generator with warm-ups and repetitions, a fresh
server process for each repetition. Writes a run dir: run.json, suite.toml,
conformance/, dumps/ (fairbench help run-dir), and prints its path. Every
tool is found before anything starts. The suite file's keys: fairbench help
suite.

Ctrl-C (or SIGTERM) stops the targets and marks the run interrupted;
-resume finishes it without redoing the measurements already taken. With
-resume, -suite defaults to the suite the run was started from (its copy in
the run dir, read as the original file). A run dir is locked while a
collect writes it (flock on its .lock file, let go when the process ends):
a second -resume of it is refused with exit status 2, naming the process
that holds it. The .lock and .reserve files a killed collect leaves behind
hold nothing: -resume takes them over and says whose they were.

Collects measuring on one machine take turns: a collect holds the host lock
(~/.cache/fairbench/collect.lock, or the file FAIRBENCH_HOST_LOCK names;
FAIRBENCH_HOST_LOCK=off takes none) from before its first build until its
last window. A second collect, with another -out, waits for it, saying which
process holds the host, since when and for which run; Ctrl-C stops the wait
and leaves the new run to -resume.

A measurement fails when its server dies, or its load tool crashes, runs
past its window, request timeout and 30 s of grace (then it is killed), or
prints no count (nothing, no result a reader takes, 0 requests and no
errors). Its dump is kept, run.json says why, and the run ends with exit
status 1 and status "failed"; -resume takes every failed or missing
measurement again under a new name (<rep>-2.txt). A run in which nothing
usable was measured (every target failed the gate) ends the same way. A
target that fails the gate in some scenario is not measured there; the run
goes on, measures everything else, keeps it all and ends "complete", and
collect exits 1 naming the target and scenario. A full disk stops the run at
once, every dump stored so far intact.

-shard I/N runs the I-th of N shares of the targets, to spread one suite
over N machines or sessions: target k (counting from 0 in suite order) is in
shard (k mod N)+1. run.json records the shard; -resume keeps it. Join the N
run dirs with fairbench merge. -shard and -only do not go together: a shard
runs all of its share, so that merge can rebuild the whole suite.

FAIRBENCH_BOMBARDIER, FAIRBENCH_WRK, FAIRBENCH_AUTOCANNON and FAIRBENCH_VEGETA
name a load tool's binary in place of the one fairbench finds (to try a build of the
tool, or to inject faults in tests); run.json records its path and the
version it gives, or "unknown".

-hosts FILE runs the targets on the host with the role "server" and the
load tool on the host with the role "client", over ssh ([[host]] tables,
see fairbench help hosts; a suite may hold them itself). Every host
is reached before anything runs. A -resume of such a run needs the same
-hosts again.

The suite's [isolation] is audited against this machine's CPU topology
before anything starts, as fairbench pin -suite does: a pinning whose
server and client share a physical core, whose server spans L3 domains or
sits on E-cores, or that names an offline CPU stops the run unless
-force-pinning is given; run.json records the topology and the findings.

A build whose argv names {bin} builds into a cache entry on the server
machine (~/.cache/fairbench/bin/<key> here, <dir>/cache/bin/<key> on a host),
kept from one collect to the next and keyed by the target's dir there, its
build argv and its artifact; what it holds is then copied into the
collect's own {bin}, which the target starts from. The build runs every
time, so the build tool's own up-to-date check decides what to do again
(go build relinks only when something changed): run.json's build_cached
says the entry held a finished build, and build_s is then that check and
the copy, not a cold build. Two collects sharing an entry take turns on it
(flock on its lock file). -fresh-build empties each entry first: every
build_s is a cold build's again. The cache is capped (-build-cache-max,
2048 MB unless given): after the builds, the entries least recently built
are removed until it fits, never one of this collect's targets nor one
another collect holds, and progress names each.

Each round takes the targets in a random order, drawn from a seed recorded
in run.json (schedule), so that no target always follows the same one;
-seed N takes the rounds in the order another run with that seed had.
A round goes scenario by scenario, every target's window of a scenario
back to back, each on a fresh server process: the windows a pair is
compared on are adjacent in time, where the host's noise, whose memory is
about one window, is most alike.

A suite is collected to a precision ([load] resolve, budget; fairbench
help suite): a noise pilot on the A/A twins first plans the rounds, and
where even the budget cannot hold them, the collect waits for a quieter
host (progress shows the wait; -quiet-wait bounds it, 0 for no wait),
then measures anyway and says so. After its repetitions, a scenario gets
rounds while its targets cannot yet be told apart at resolve, until the
budget is spent; progress shows each round's resolving power and the
budget left, and run.json's precision what was planned, spent and reached.

Examples:
  fairbench collect -suite site/suites/go.toml
  fairbench collect -suite site/suites/go.toml -fresh-build
  fairbench collect -suite site/suites/go.toml -hosts lab.toml -shard 1/2
  fairbench collect -suite site/suites/go.toml -only gin,chi -out /tmp/runs
  fairbench collect -suite site/suites/go.toml -shard 2/3 -out /tmp/runs
  fairbench collect -suite site/suites/go.toml -seed 7
  fairbench collect -suite site/suites/planted.toml -quiet-wait 30m
  fairbench collect -resume site/results/20261129T185000Z-bench`,
	run: runCollect,
}

func runCollect(e *env, args []string) error {
	fs := newFlags(e, "collect")
	suitePath := fs.String("suite", "", "suite file (TOML)")
	out := fs.String("out", "site/results", "folder to write the run dir into")
	only := fs.String("only", "", "comma-separated target names to run (default all)")
	shard := fs.String("shard", "", "run shard `I/N` of the targets: target k (from 0, in suite order) is in shard (k mod N)+1")
	resume := fs.String("resume", "", "an interrupted run dir to finish")
	base := fs.String("base", ".", "folder that target and service dirs are relative to")
	forcePinning := fs.Bool("force-pinning", false, "run even when the suite's [isolation] has a pinning problem (see fairbench pin); the run's audit reports it")
	freshBuild := fs.Bool("fresh-build", false, "empty each target's build cache entry before its build: build_s is a cold build's")
	cacheMax := fs.Int64("build-cache-max", collect.DefaultBuildCacheMax>>20, "cap of the build cache on the server machine, in MB: the entries least recently built are removed past it (never this collect's); 0 for no cap")
	seed := fs.Int64("seed", 0, "seed of the targets' random order in each round (0: draw one; run.json records it)")
	quietWait := fs.Duration("quiet-wait", collect.DefaultQuietWait, "longest wait for a quiet host before the first round of a suite collected to a precision; 0: no wait")
	hostsFile := fs.String("hosts", "", "hosts file: [[host]] tables with ssh destinations and roles (server, client)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if (*suitePath == "" && *resume == "") || fs.NArg() > 0 {
		fs.Usage()
		return usageErr("collect: -suite FILE (or -resume RUNDIR) is required and takes no other arguments")
	}
	sh, err := collect.ParseShard(*shard)
	if err != nil {
		return usageErr("collect: -%w", err)
	}
	if *quietWait < 0 {
		return usageErr("collect: -quiet-wait %v is negative: give the longest wait, or 0 for none", *quietWait)
	}
	wait := *quietWait
	if wait == 0 {
		wait = -1 // Options: below 0 is no wait, 0 the default
	}
	if *cacheMax < 0 || *cacheMax > 1<<40 {
		return usageErr("collect: -build-cache-max %d: want a size in MB from 0 (no cap) up", *cacheMax)
	}
	if !sh.IsZero() && *only != "" {
		return usageErr("collect: -only and -shard %s together: a shard runs all of its share, so that merge can rebuild the whole suite; drop one of them", sh)
	}
	var st *suite.Suite
	if *suitePath != "" {
		st, err = suite.LoadSuite(*suitePath)
	} else {
		st, err = resumedSuite(*resume, *base)
	}
	if err != nil {
		return usageErr("%w", err)
	}
	if *hostsFile != "" {
		if len(st.Hosts) > 0 {
			return usageErr("collect: %s has [[host]] tables of its own and -hosts %s gives others: keep one of them", st.File, *hostsFile)
		}
		hosts, err := suite.LoadHosts(*hostsFile)
		if err != nil {
			return usageErr("%w", err)
		}
		if st, err = st.WithHosts(hosts); err != nil {
			return usageErr("%w", err)
		}
	}
	ctx, cancel := e.interruptible()
	defer cancel()
	dir, err := collect.Run(ctx, st, collect.Options{
		Out: *out, Resume: *resume, Only: csvList(*only), Shard: sh, BaseDir: *base, Progress: collect.ProgressFor(e.stderr),
		ForcePinning: *forcePinning, FreshBuild: *freshBuild, Seed: *seed, BuildCacheMax: cacheBytes(*cacheMax),
		HostLock:  rundir.HostLockPath(),
		QuietWait: wait,
	})
	if dir != nil {
		fmt.Fprintln(e.stdout, dir.Path)
	}
	if errors.Is(err, rundir.ErrLocked) || errors.Is(err, collect.ErrUsage) {
		return usageErr("%w", err)
	}
	if err != nil {
		return failure(err)
	}
	return nil
}

// cacheBytes is -build-cache-max's MB as Options.BuildCacheMax takes it:
// 0 (no cap) is -1 there.
func cacheBytes(mb int64) int64 {
	if mb == 0 {
		return -1
	}
	return mb << 20
}

// resumedSuite reads the suite kept in a run dir. It is parsed under the
// name of the file it was first read from (run.json's suite_file, relative
// to base or in the home or temporary folder: rundir.LocalPath), so that
// body files resolve as they did then. Both files are read as every run-dir file is
// (rundir.ReadFile): regular, inside the run dir, within their limits.
func resumedSuite(runDir, base string) (*suite.Suite, error) {
	src, err := rundir.ReadFile(runDir, "suite.toml", rundir.KindSuite)
	if err != nil {
		return nil, fmt.Errorf("-resume %s: %w", runDir, err)
	}
	name := filepath.Join(runDir, "suite.toml")
	d, err := rundir.Load(runDir)
	if err != nil {
		return nil, fmt.Errorf("-resume %s: %w", runDir, err)
	}
	if m := d.Manifest(); m.SuiteFile != "" {
		name = rundir.LocalPath(m.SuiteFile, base)
	}
	return suite.ParseSuite(src, name)
}
