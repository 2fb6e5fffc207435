// Package collect runs a benchmark suite and writes a run directory: it
// starts the suite's services, builds and starts each target, gates it byte
// for byte, drives the real load generator (wrk, bombardier or autocannon)
// with warm-ups and repetitions (a fresh server process for each
// repetition, targets interleaved), and keeps every dump byte for byte with
// its sha256. An interrupted run is finished with Options.Resume without
// redoing what is done.
//
// The run directory, not a Go type, is the contract with package parse;
// package parse/rundir owns it (its layout, lock, atomic writes, bounded
// reads), and collect writes it through rundir.Dir:
//
//	<out>/<run-id>/run.json                       Manifest, rewritten atomically
//	<out>/<run-id>/suite.toml                     the suite exactly as used
//	<out>/<run-id>/conformance/<target>.txt       the gate's transcript
//	<out>/<run-id>/dumps/<target>/<scenario>/<rep>.txt    the tool's stdout (warm-ups: w<rep>.txt)
//	<out>/<run-id>/dumps/<target>/<scenario>/<rep>.stderr only when non-empty
//
// A measurement taken again after a crash is stored as <rep>-2.txt (then -3,
// …) so that no file is ever replaced.
//
// Faults end in run.json, not in lost data: a server that dies, a load tool
// that crashes or overruns its window (it is killed with its process group
// after Options.ToolGrace), a target that cannot start — each keeps what was
// written, says why, and leaves the measurement for Options.Resume; the run
// ends runjson.StatusFailed. A run dir that cannot be written (a full disk) stops
// the run at once.
//
// Collects measuring on one machine take turns (Options.HostLock,
// host_lock.go): a second waits for the first, saying who holds the host.
//
// Collect leaves running, copying and observing processes, here or over
// SSH, to package machine; reading a host's facts, speed and interference
// to package hostcheck; and parsing, statistics and pages to packages
// parse and render.
package collect

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/fairbench/fairbench/collect/hostcheck"
	"github.com/fairbench/fairbench/collect/loadgen"
	"github.com/fairbench/fairbench/collect/machine"
	"github.com/fairbench/fairbench/collect/pinning"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/rundir"
	"github.com/fairbench/fairbench/parse/runjson"
)

// Options are the settings of one collect that are not in the suite.
type Options struct {
	Out     string   // parent folder of run dirs
	Resume  string   // an existing run dir to finish instead of starting a new one
	Only    []string // target names to run; all when empty
	BaseDir string   // target and service dirs are relative to it; "" is the current directory
	// Shard is the share of the targets to run (collect -shard I/N); the
	// zero Shard runs them all. It goes into run.json, and a resumed run
	// keeps the shard it was started with.
	Shard Shard
	// Progress is told each step; nil discards them. ProgressFor picks a
	// bar on a terminal and lines elsewhere.
	Progress Progress
	// HostLock is the lock file that makes collects measuring on this
	// machine take turns (host_lock.go; rundir.HostLockPath is the
	// user's); "" takes none.
	HostLock string
	// ReadyTimeout bounds how long a target may take to answer; 0 means 30 s.
	ReadyTimeout time.Duration
	// ToolGrace is how long a load tool may run past its window and request
	// timeout before it is killed with its process group and its
	// measurement marked failed; 0 means DefaultToolGrace.
	ToolGrace time.Duration
	// ToolPaths names a load tool's binary by tool name instead of the one
	// found on PATH or installed (the FAIRBENCH_<TOOL> variables of ToolEnv
	// do the same from the environment; these win).
	ToolPaths map[string]string
	// Now returns the time; nil is time.Now. Tests fix it.
	Now func() time.Time
	// ForcePinning runs a suite whose [isolation] has a pinning problem
	// (-force-pinning); run.json's host.pinning records it.
	ForcePinning bool
	// FreshBuild empties each target's build cache entry before its build
	// (-fresh-build), so that build_s is a cold build's again.
	FreshBuild bool
	// BuildCacheMax caps the build cache on the server machine, in bytes:
	// after the builds, the entries least recently built are removed until
	// the cache fits, never one of this collect's targets. 0 is
	// DefaultBuildCacheMax; below 0, no cap.
	BuildCacheMax int64
	// buildCache is this machine's cache folder (its bin/ holds the build
	// cache); "" is the user's, fairbench's folder in os.UserCacheDir.
	// Tests give their own.
	buildCache string
	// pinningRoots are where this machine's CPU topology is read; the
	// zero value is pinning.DefaultRoots. Tests give a recorded tree.
	pinningRoots pinning.Roots
	// Seed seeds the order of the targets in each round (schedule.go,
	// runjson.Schedule), to take a run's rounds in the order of another;
	// 0 draws one. A resumed run keeps the seed it was started with.
	Seed int64
	// TargetMajor takes each target's turn in a round for all its
	// scenarios at once, on one server process, instead of scenario by
	// scenario with every target's windows of a scenario back to back:
	// the two schedules compared by collect/internal/schedules.
	TargetMajor bool
	// QuietWait bounds the wait for a quiet host before the first round
	// of a collect to a precision (pilot.go); 0 is DefaultQuietWait, below
	// 0 no wait.
	QuietWait time.Duration
	// pilotEvery is how long a collect waiting for quiet waits between
	// noise pilots; 0 is the package's pilotEvery. Tests shorten it.
	pilotEvery time.Duration
	// speedTimer times the host speed probe; nil: hostcheck.TimeSpeed. Tests give
	// one that makes the host slow for a turn.
	speedTimer hostcheck.SpeedTimer
}

type collector struct {
	suite    *suite.Suite
	opt      Options
	dir      *RunDir
	drivers  map[string]loadgen.Driver
	tools    map[string]runjson.Version
	bins     string // scratch folder for build outputs and scripts
	order    int
	services []*runningService
	vars     map[string]string // {<service>.port} → port
	// hosts are the suite's SSH hosts. server and client are the machines
	// targets and load tools run on: the hosts with those roles, else
	// here, this machine, for both.
	hosts          []*machine.SSHHost
	binsRemoved    bool // removeBins ran: the {bin}s and the hosts' claims are gone
	here           *machine.Local
	server, client machine.Machine
	live           []runjson.Leftover // process groups started on hosts, not seen to end
	rps            map[string]float64 // closed-loop req/s by dump, for the latency phase's capacity
	// binRun names this collect's folder of {bin}s on the server
	// machine, bin/<binRun>/<target>: its own, beside other collects'; a
	// run's, once its run dir is open (binRunOf).
	binRun string
	// atSpeed is the shortest the host speed probe took on each CPU set
	// (runjson.SpeedSet) in the run; speedFailed: a probe failed and was
	// noted; speedWaited: the waits for it so far; retaking: the turn
	// running is taken again (host_speed.go); last: the probe after the
	// last turn, when it ended, for the next turn's (lastProbe).
	atSpeed     map[string]float64
	memo        hostcheck.SpeedMemo // read at the first turn of a suite with retake_slow
	speedFailed bool
	speedWaited time.Duration
	retaking    bool
	last        runjson.Probe
	lastAt      time.Time
}

func newCollector(suite *suite.Suite, opt Options) *collector {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.ReadyTimeout == 0 {
		opt.ReadyTimeout = 30 * time.Second
	}
	if opt.ToolGrace == 0 {
		opt.ToolGrace = DefaultToolGrace
	}
	if opt.Progress == nil {
		opt.Progress = ProgressFor(nil)
	}
	tools := map[string]runjson.Version{}
	if opt.pinningRoots == (pinning.Roots{}) {
		opt.pinningRoots = pinning.DefaultRoots
	}
	here := &machine.Local{Tools: tools, Roots: opt.pinningRoots, Cache: opt.buildCache, Client: gateClient}
	return &collector{suite: suite, opt: opt, drivers: map[string]loadgen.Driver{}, tools: tools, vars: map[string]string{}, rps: map[string]float64{},
		here: here, server: here, client: here, binRun: randomName()}
}

// Run collects suite and returns the run dir it wrote. Every tool and
// binary is found before anything starts. On a cancelled context the
// targets and services are stopped, the run is marked interrupted, and it
// can be finished with Options.Resume; every dump written so far stays as
// it is.
func Run(ctx context.Context, suite *suite.Suite, opt Options) (*RunDir, error) {
	c := newCollector(suite, opt)
	defer c.opt.Progress.Done()
	targets, err := c.selected()
	if err != nil {
		return nil, asUsage(err)
	}
	if err := c.preflight(ctx, targets, true); err != nil {
		return nil, err
	}
	if err := c.sameHosts(); err != nil {
		return nil, err
	}
	closeHosts, err := c.openHosts(ctx, targets)
	defer closeHosts()
	if err != nil {
		return nil, err
	}
	if c.opt.Resume != "" {
		err = c.resumeRunDir()
	} else {
		err = c.createRunDir()
	}
	defer c.dir.Unlock()
	if err != nil {
		return c.dir, err
	}
	c.binRun = binRunOf(c.dir.Manifest()) // remote_target.go
	c.dir.Reserve()
	defer c.dir.Release()
	unlockHost, err := c.lockHost(ctx) // host_lock.go
	if err != nil {
		return c.dir, err
	}
	defer unlockHost()
	if len(c.hosts) > 0 {
		if err := c.claimHosts(ctx); err != nil { // host_claim.go
			return c.dir, err
		}
		defer c.removeBins()
		if err := c.recordHosts(ctx); err != nil {
			return c.dir, err
		}
	}
	if c.bins, err = os.MkdirTemp("", "fairbench-build-"); err != nil {
		return c.dir, err
	}
	c.here.Dir = c.bins
	defer os.RemoveAll(c.bins)

	err = c.startServices(ctx)
	if err == nil {
		err = c.run(ctx, targets)
	}
	c.stopServices()
	c.removeBins()
	status := runjson.StatusComplete
	switch {
	case ctx.Err() != nil:
		status = runjson.StatusInterrupted
		err = fmt.Errorf("interrupted: finish with -resume %s", c.dir.Path)
	case err != nil:
		status = runjson.StatusFailed
	default:
		if n := c.missing(targets); n > 0 {
			status = runjson.StatusFailed
			err = fmt.Errorf("%d measurements missing or failed (see errors in run.json): take them again with -resume %s", n, c.dir.Path)
		} else if c.usable(targets) == 0 {
			status = runjson.StatusFailed
			err = fmt.Errorf("nothing usable was measured: every target failed the gate or was skipped (see errors and conformance/ in %s): fix them, then collect again", c.dir.Path)
		} else {
			// Every measurement the gate allowed was taken: the run is
			// complete (a -resume has nothing left to do), but a target
			// that failed a scenario is a failure the caller must see.
			err = c.gateFailures(targets)
		}
	}
	if storeFailed(err) {
		c.dir.Release() // room for the update below
	}
	end := c.opt.Now().UTC()
	uerr := c.dir.Update(func(m *runjson.Manifest) {
		m.Status, m.End = status, &end
		if err != nil {
			m.Errors = append(m.Errors, err.Error())
		}
	})
	return c.dir, errors.Join(err, uerr)
}

// selected returns the targets to run: the shard's share (Options.Shard, or
// the shard recorded in the run dir on resume), or those -only names.
func (c *collector) selected() ([]suite.Target, error) {
	share, err := c.share()
	if err != nil || len(c.opt.Only) == 0 {
		return share, err
	}
	var out []suite.Target
	for _, name := range c.opt.Only {
		i := slices.IndexFunc(c.suite.Targets, func(t suite.Target) bool { return t.Name == name })
		if i < 0 {
			return nil, fmt.Errorf("-only: no target %q in %s", name, c.suite.File)
		}
		out = append(out, c.suite.Targets[i])
	}
	return out, nil
}

// createRunDir makes a new run dir and writes the manifest's first version.
func (c *collector) createRunDir() error {
	start := c.opt.Now().UTC()
	host := c.localFacts(context.Background())
	suiteFile := ""
	if info, err := os.Stat(c.suite.File); err == nil && info.Mode().IsRegular() {
		suiteFile, _ = filepath.Abs(c.suite.File)
	}
	m := runjson.Manifest{
		Schema:      runjson.SchemaVersion,
		ID:          runID(start, host.Hostname),
		Suite:       c.suite.Name,
		SuiteFile:   suiteFile,
		SuiteSHA256: c.suite.SHA256(),
		Status:      runjson.StatusRunning,
		Start:       start,
		Facts:       host,
		Tools:       c.tools,
		Isolation:   c.suite.Isolation,
		AAPair:      c.suite.AAPair,
		AAPairs:     c.suite.AAPairs,
		Planted:     c.suite.Planted(),
		Hosts:       c.hostRecords(),
		Shard:       c.opt.Shard.String(),
	}
	rundir.PortableManifest(c.places(), &m, 0)
	d, err := rundir.Create(c.opt.Out, m, c.suite.Source)
	c.dir = d
	if d != nil {
		c.writePortable()
	}
	if err == nil {
		err = d.Lock() // until the run ends: a -resume of it meanwhile is refused
	}
	return err
}

// runID is the UTC start time and the host name, e.g. 20261129T1850Z-ryzen9.
func runID(start time.Time, host string) string {
	clean := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return '-'
	}, host)
	if clean == "" {
		clean = "host"
	}
	return start.Format("20060102T150405Z") + "-" + clean
}

// note tells progress and keeps the message in run.json's errors.
func (c *collector) note(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	c.opt.Progress.Note(msg)
	if c.dir != nil {
		c.dir.Update(func(m *runjson.Manifest) { m.Errors = append(m.Errors, msg) })
	}
}

// startServices starts every service in suite order and records it.
func (c *collector) startServices(ctx context.Context) error {
	for _, sv := range c.suite.Services {
		c.opt.Progress.Step("service "+sv.Name+": starting", 0)
		rs, rec, err := c.startService(ctx, sv)
		if err != nil {
			return err
		}
		c.services = append(c.services, rs)
		if c.dir != nil {
			if err := c.dir.Update(func(m *runjson.Manifest) { m.Services = append(m.Services, rec) }); err != nil {
				return err
			}
		}
	}
	c.vars = placeholders(c.services)
	return nil
}

// stopServices stops the services, the last started first.
func (c *collector) stopServices() {
	for i := len(c.services) - 1; i >= 0; i-- {
		c.services[i].stop()
	}
	c.services = nil
}

// run builds every target (buildAll), gates each, then measures the ones
// that passed, round by round: rep 1 of every target, then rep 2, …, each
// round in the order run.json's schedule draws for it (schedule.go), a
// turn that ran slow taken again in its place (takeTurn).
func (c *collector) run(ctx context.Context, targets []suite.Target) error {
	c.plan(targets)
	var todo, ready []suite.Target
	for _, t := range targets {
		if !c.finished(t) { // a resumed run: nothing left to measure
			todo = append(todo, t)
		}
	}
	builds := c.buildAll(ctx, todo)
	for _, t := range todo {
		rec, err := c.prepare(ctx, t, builds[t.Name])
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if uerr := c.setTarget(rec); uerr != nil {
			return uerr
		}
		if err != nil {
			if storeFailed(err) {
				return c.storeError(err)
			}
			c.note("%s: skipped: %v", t.Name, err)
			continue
		}
		if rec.Conformance == "fail" {
			c.note("%s: gate failed for %s: not measured there (see %s)", t.Name, strings.Join(rec.Failed, ", "), rec.Transcript)
		}
		if len(rec.Failed) < len(c.suite.Scenarios) {
			ready = append(ready, t)
		}
	}
	c.plan(ready)
	if err := c.stored(c.startPrecision()); err != nil { // precision.go
		return err
	}
	if err := c.stored(c.planSchedule(ready, c.rounds())); err != nil {
		return err
	}
	if err := c.pilot(ctx, ready); err != nil { // pilot.go
		return err
	}
	c.plan(ready) // the rounds the pilot planned
	if err := c.stored(c.planSchedule(ready, c.rounds())); err != nil {
		return err
	}
	for rep := 1; rep <= c.reps(); rep++ {
		start := time.Now()
		if err := c.round(ctx, ready, rep); err != nil {
			return err
		}
		more, err := c.afterRound(ready, rep, time.Since(start))
		if err == nil && more {
			c.plan(ready)
			err = c.planSchedule(ready, c.rounds())
		}
		if err := c.stored(err); err != nil {
			return err
		}
		if err := c.repilot(ctx, ready, rep); err != nil { // repilot.go
			return err
		}
	}
	c.rememberSpeed() // host_speed.go
	return c.phases(ctx, ready)
}

// round takes round rep of ready: scenario by scenario, each target's
// turn in the round's order (schedule.go), so that the windows a pair of
// targets is compared on are adjacent in time; or, with
// Options.TargetMajor, each target's turn for every scenario at once.
// A turn that fails is noted and the round goes on.
func (c *collector) round(ctx context.Context, ready []suite.Target, rep int) error {
	scenarios := []string{""}
	if !c.opt.TargetMajor {
		scenarios = scenarios[:0]
		for _, sc := range c.suite.Scenarios {
			if rep <= c.roundsOf(sc) {
				scenarios = append(scenarios, sc.Name)
			}
		}
	}
	for _, only := range scenarios {
		for _, t := range c.inTurn(ready, rep) {
			if err := c.takeTurn(ctx, ready, t, rep, only); err != nil { // host_speed.go
				if ctx.Err() != nil {
					return ctx.Err()
				}
				if storeFailed(err) {
					return c.storeError(err)
				}
				what := t.Name
				if only != "" {
					what += " " + only
				}
				c.note("%s rep %d: %v", what, rep, err)
			}
		}
	}
	return nil
}

// stored is err, said with what to do when the run dir cannot be written.
func (c *collector) stored(err error) error {
	if storeFailed(err) {
		return c.storeError(err)
	}
	return err
}

// storeFailed reports whether err says the run dir cannot be written: the
// disk is full or read-only. Nothing more can be kept, so the run stops.
func storeFailed(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) || errors.Is(err, syscall.EROFS) || errors.Is(err, syscall.EIO)
}

// storeError says what to do when the run dir cannot be written.
func (c *collector) storeError(err error) error {
	return fmt.Errorf("%w: the run stops here, every dump stored so far is kept: free space on %s, then finish with -resume %s", err, c.dir.Path, c.dir.Path)
}

// missing counts the measurements of targets still to take.
func (c *collector) missing(targets []suite.Target) int {
	n := 0
	for _, t := range targets {
		n += len(c.pending(t)) + len(c.phasePending(t))
	}
	return n
}

// plan tells progress the load windows left for targets.
func (c *collector) plan(targets []suite.Target) { c.planPlus(targets, 0, 0) }

// planPlus tells progress the load windows left for targets and windows
// more, of total length: a noise pilot's, which no target's record holds
// before it is taken.
func (c *collector) planPlus(targets []suite.Target, windows int, total time.Duration) {
	for _, t := range targets {
		for _, sc := range c.pending(t) {
			load := c.suite.LoadFor(sc.Scenario)
			windows++
			total += load.Duration.Std()
			if w := load.WarmupWindow(); w > 0 {
				windows++
				total += w
			}
		}
		for _, p := range c.phasePending(t) {
			load := c.phaseLoad(p, p.Rate)
			windows++
			total += load.Duration.Std()
			if w := load.WarmupWindow(); w > 0 {
				windows++
				total += w
			}
		}
	}
	w, d := c.calibrationPlan() // phase_ceiling.go
	c.opt.Progress.Plan(windows+w, total+d)
}

// targetDir is where a target's argvs run.
func (c *collector) targetDir(t suite.Target) string {
	if filepath.IsAbs(t.Dir) {
		return t.Dir
	}
	return filepath.Join(c.opt.BaseDir, t.Dir)
}

// serviceDir is where a service's argvs run here, and what is copied to
// the server host.
func (c *collector) serviceDir(sv suite.Service) string {
	if filepath.IsAbs(sv.Dir) {
		return sv.Dir
	}
	return filepath.Join(c.opt.BaseDir, sv.Dir)
}

// expand fills in {bin} (the target's scratch folder) and the services'
// {<name>.port} placeholders.
func (c *collector) expand(t suite.Target, s string) string {
	return c.expandIn(s, c.binDir(t))
}

// expandIn fills in {bin} with bin and the services' {<name>.port}
// placeholders.
func (c *collector) expandIn(s, bin string) string {
	s = strings.ReplaceAll(s, "{bin}", bin)
	for k, v := range c.vars {
		s = strings.ReplaceAll(s, k, v)
	}
	return s
}

func (c *collector) expandAll(t suite.Target, argv []string) []string {
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = c.expand(t, a)
	}
	return out
}

// expanded returns t with its placeholders filled in.
func (c *collector) expanded(t suite.Target) suite.Target {
	t.Build, t.Start = c.expandAll(t, t.Build), c.expandAll(t, t.Start)
	t.Artifact = c.expand(t, t.Artifact)
	env := make(map[string]string, len(t.Env))
	for k, v := range t.Env {
		env[k] = c.expand(t, v)
	}
	t.Env = env
	return t
}

func (c *collector) targetRecord(name string) (runjson.Target, bool) {
	for _, t := range c.dir.Manifest().Targets {
		if t.Name == name {
			return t, true
		}
	}
	return runjson.Target{}, false
}

func (c *collector) setTarget(rec runjson.Target) error {
	return c.dir.Update(func(m *runjson.Manifest) {
		for i := range m.Targets {
			if m.Targets[i].Name == rec.Name {
				m.Targets[i] = rec
				return
			}
		}
		m.Targets = append(m.Targets, rec)
	})
}

// updateTarget changes a target's record in run.json.
func (c *collector) updateTarget(name string, change func(*runjson.Target)) error {
	return c.dir.Update(func(m *runjson.Manifest) {
		for i := range m.Targets {
			if m.Targets[i].Name == name {
				change(&m.Targets[i])
			}
		}
	})
}
