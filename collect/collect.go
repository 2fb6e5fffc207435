// Package collect runs a benchmark suite and writes a run directory: it
// builds and starts each target, gates it byte for byte, drives the real
// load generator with warm-ups and repetitions (a fresh server process for
// each repetition), and keeps every dump byte for byte with its sha256.
//
// The run directory, not a Go type, is the contract with package parse:
//
//	<out>/<run-id>/run.json                       Manifest, rewritten atomically
//	<out>/<run-id>/suite.toml                     the suite exactly as used
//	<out>/<run-id>/conformance/<target>.txt       the gate's transcript
//	<out>/<run-id>/dumps/<target>/<scenario>/<rep>.txt    the tool's stdout (warm-ups: w<rep>.txt)
//	<out>/<run-id>/dumps/<target>/<scenario>/<rep>.stderr only when non-empty
//
// Collect leaves parsing, statistics and pages to packages parse and render.
package collect

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

// Options are the settings of one collect that are not in the suite.
type Options struct {
	Out     string   // parent folder of run dirs
	Resume  string   // an existing run dir to finish instead of starting a new one
	Only    []string // target names to run; all when empty
	BaseDir string   // target dirs are relative to it; "" is the current directory
	// Progress receives one line per step; nil discards them.
	Progress io.Writer
	// ReadyTimeout bounds how long a target may take to answer; 0 means 30 s.
	ReadyTimeout time.Duration
	// Now returns the time; nil is time.Now. Tests fix it.
	Now func() time.Time
}

type collector struct {
	suite   *Suite
	opt     Options
	dir     *RunDir
	drivers map[string]Driver
	tools   map[string]Version
	bins    string // scratch folder for build outputs and scripts
	order   int
}

// Run collects suite and returns the run dir it wrote. On a cancelled
// context the run is marked interrupted and can be finished with
// Options.Resume; every dump written so far stays as it is.
func Run(ctx context.Context, suite *Suite, opt Options) (*RunDir, error) {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.ReadyTimeout == 0 {
		opt.ReadyTimeout = 30 * time.Second
	}
	c := &collector{suite: suite, opt: opt, drivers: map[string]Driver{}, tools: map[string]Version{}}
	targets, err := c.selected()
	if err != nil {
		return nil, err
	}
	// Every tool is found before anything starts.
	for _, sc := range suite.Scenarios {
		name := suite.LoadFor(sc).Tool
		if _, ok := c.drivers[name]; ok {
			continue
		}
		d, err := DriverFor(name)
		if err != nil {
			return nil, err
		}
		c.progress("resolving %s", name)
		v, err := d.Resolve(ctx)
		if err != nil {
			return nil, err
		}
		c.drivers[name], c.tools[name] = d, v
	}
	if err := c.openRunDir(ctx, targets); err != nil {
		return nil, err
	}
	c.bins, err = os.MkdirTemp("", "fairbench-build-")
	if err != nil {
		return c.dir, err
	}
	defer os.RemoveAll(c.bins)

	err = c.run(ctx, targets)
	status := StatusComplete
	switch {
	case ctx.Err() != nil:
		status = StatusInterrupted
		err = fmt.Errorf("interrupted: finish with -resume %s", c.dir.Path)
	case err != nil:
		status = StatusFailed
	}
	end := opt.Now().UTC()
	uerr := c.dir.Update(func(m *Manifest) {
		m.Status, m.End = status, &end
		if err != nil {
			m.Errors = append(m.Errors, err.Error())
		}
	})
	return c.dir, errors.Join(err, uerr)
}

func (c *collector) selected() ([]Target, error) {
	if len(c.opt.Only) == 0 {
		return c.suite.Targets, nil
	}
	var out []Target
	for _, name := range c.opt.Only {
		i := slices.IndexFunc(c.suite.Targets, func(t Target) bool { return t.Name == name })
		if i < 0 {
			return nil, fmt.Errorf("-only: no target %q in %s", name, c.suite.File)
		}
		out = append(out, c.suite.Targets[i])
	}
	return out, nil
}

func (c *collector) openRunDir(ctx context.Context, targets []Target) error {
	if c.opt.Resume != "" {
		d, err := OpenRunDir(c.opt.Resume)
		if err != nil {
			return err
		}
		if m := d.Manifest(); m.SuiteSHA256 != c.suite.SHA256() {
			return fmt.Errorf("%s was collected from another suite (sha256 %.12s…, this one %.12s…)", c.opt.Resume, m.SuiteSHA256, c.suite.SHA256())
		}
		c.dir = d
		for _, m := range d.Manifest().Measurements {
			c.order = max(c.order, m.Order)
		}
		return d.Update(func(m *Manifest) { m.Status = StatusRunning })
	}
	start := c.opt.Now().UTC()
	host := AskHost()
	tools := map[string]Version{}
	for k, v := range c.tools {
		tools[k] = v
	}
	for _, t := range targets {
		if v, ok := runtimeVersion(ctx, t.Runtime); ok {
			tools[t.Runtime] = v
		}
	}
	m := Manifest{
		Schema:      SchemaVersion,
		ID:          runID(start, host.Hostname),
		Suite:       c.suite.Name,
		SuiteSHA256: c.suite.SHA256(),
		Status:      StatusRunning,
		Start:       start,
		Host:        host,
		Tools:       tools,
		Isolation:   c.suite.Isolation,
	}
	d, err := CreateRunDir(c.opt.Out, m, c.suite.Source)
	c.dir = d
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

func (c *collector) progress(format string, args ...any) {
	if c.opt.Progress != nil {
		fmt.Fprintf(c.opt.Progress, format+"\n", args...)
	}
}

func (c *collector) targetDir(t Target) string {
	if filepath.IsAbs(t.Dir) {
		return t.Dir
	}
	return filepath.Join(c.opt.BaseDir, t.Dir)
}

// expand replaces {bin} in an argv or path with the target's scratch folder.
func (c *collector) expand(t Target, s string) string {
	return strings.ReplaceAll(s, "{bin}", filepath.Join(c.bins, t.Name))
}

func (c *collector) expandAll(t Target, argv []string) []string {
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = c.expand(t, a)
	}
	return out
}

func (c *collector) run(ctx context.Context, targets []Target) error {
	var ready []Target
	for _, t := range targets {
		rec, err := c.prepare(ctx, t)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if uerr := c.setTarget(rec); uerr != nil {
			return uerr
		}
		if err != nil {
			c.progress("%s: skipped: %v", t.Name, err)
			continue
		}
		if rec.Conformance == "fail" {
			c.progress("%s: gate failed for %s: not measured (see %s)", t.Name, strings.Join(rec.Failed, ", "), rec.Transcript)
		}
		if len(rec.Failed) < len(c.suite.Scenarios) {
			ready = append(ready, t)
		}
	}
	reps := 0
	for _, sc := range c.suite.Scenarios {
		reps = max(reps, c.suite.LoadFor(sc).Repetitions)
	}
	// Targets are interleaved: repetition 1 of every target, then 2, …
	for rep := 1; rep <= reps; rep++ {
		for _, t := range ready {
			if err := c.repetition(ctx, t, rep); err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				c.progress("%s rep %d: %v", t.Name, rep, err)
				c.dir.Update(func(m *Manifest) { m.Errors = append(m.Errors, fmt.Sprintf("%s rep %d: %v", t.Name, rep, err)) })
			}
		}
	}
	return nil
}

// prepare builds t, measures its artifact and runs the gate, recording the
// transcript in the run dir.
func (c *collector) prepare(ctx context.Context, t Target) (TargetRecord, error) {
	rec := TargetRecord{Name: t.Name, Runtime: t.Runtime}
	if old, ok := c.targetRecord(t.Name); ok {
		rec = old
	}
	var err error
	if rec.BuildS, rec.ArtifactBytes, err = c.build(ctx, t); err != nil {
		rec.Error = err.Error()
		return rec, err
	}
	g, err := c.gate(ctx, t)
	if err != nil {
		rec.Error = err.Error()
		return rec, err
	}
	rec.StartupS, rec.RSSBefore = g.Startup.Seconds(), g.RSS
	rec.Transcript = filepath.ToSlash(filepath.Join("conformance", t.Name+".txt"))
	if err := c.dir.WriteFile(rec.Transcript, []byte(g.Transcript)); err != nil {
		return rec, err
	}
	rec.Failed, rec.Conformance = g.Failed, "pass"
	if len(g.Failed) > 0 {
		rec.Conformance = "fail"
	}
	return rec, nil
}

// build runs t's build argv in its dir and measures its artifact.
func (c *collector) build(ctx context.Context, t Target) (buildS float64, artifact int64, err error) {
	dir := c.targetDir(t)
	if len(t.Build) > 0 {
		c.progress("%s: building", t.Name)
		if err := os.MkdirAll(filepath.Join(c.bins, t.Name), 0o755); err != nil {
			return 0, 0, err
		}
		argv := c.expandAll(t, t.Build)
		start := time.Now()
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return 0, 0, fmt.Errorf("build %q in %s: %v\n%s", argv, dir, err, out)
		}
		buildS = time.Since(start).Seconds()
	}
	if t.Artifact != "" {
		path := c.expand(t, t.Artifact)
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		if artifact, err = sizeOf(path); err != nil {
			return buildS, 0, fmt.Errorf("artifact: %w", err)
		}
	}
	return buildS, artifact, nil
}

// gateRun is the gate's verdict with what was seen of the server meanwhile.
type gateRun struct {
	GateResult
	Startup time.Duration
	RSS     int64
}

// gate starts t and checks every scenario and variant.
func (c *collector) gate(ctx context.Context, t Target) (gateRun, error) {
	c.progress("%s: gate", t.Name)
	srv, startup, err := c.start(ctx, t)
	if err != nil {
		return gateRun{}, err
	}
	defer srv.Stop(2 * time.Second)
	g := gateRun{Startup: startup, RSS: srv.RSS()}
	g.GateResult = Gate(ctx, srv.Addr(), c.suite.Scenarios)
	return g, nil
}

// VerifyResult is one target's gate verdict from Verify.
type VerifyResult struct {
	Target string
	GateResult
	Err error // the target could not be built or started
}

// Verify builds and starts each target and runs the gate alone.
func Verify(ctx context.Context, suite *Suite, opt Options) ([]VerifyResult, error) {
	c := &collector{suite: suite, opt: opt}
	if c.opt.ReadyTimeout == 0 {
		c.opt.ReadyTimeout = 30 * time.Second
	}
	targets, err := c.selected()
	if err != nil {
		return nil, err
	}
	if c.bins, err = os.MkdirTemp("", "fairbench-build-"); err != nil {
		return nil, err
	}
	defer os.RemoveAll(c.bins)
	var out []VerifyResult
	for _, t := range targets {
		r := VerifyResult{Target: t.Name}
		if _, _, r.Err = c.build(ctx, t); r.Err == nil {
			var g gateRun
			g, r.Err = c.gate(ctx, t)
			r.GateResult = g.GateResult
		}
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
		out = append(out, r)
	}
	return out, nil
}

// start starts a fresh server process for t and waits until it answers
// its readiness request correctly.
func (c *collector) start(ctx context.Context, t Target) (*Server, time.Duration, error) {
	st := t
	st.Start = c.expandAll(t, t.Start)
	srv, err := StartServer(st, c.targetDir(t), t.Port, c.suite.Isolation.ServerCPUs)
	if err != nil {
		return nil, 0, err
	}
	probe := c.suite.Scenarios[0].Request
	wantStatus := c.suite.Scenarios[0].Expect.Status
	if t.Ready != "" {
		probe, wantStatus = Request{Method: "GET", Path: t.Ready}, 0
	}
	startup, err := srv.WaitReady(ctx, c.opt.ReadyTimeout, func(ctx context.Context) bool {
		status, _, _, err := roundTrip(ctx, srv.Addr(), cmpOr(probe.Method, "GET"), probe)
		if err != nil {
			return false
		}
		if wantStatus == 0 {
			return status < 500
		}
		return status == wantStatus
	})
	if err != nil {
		srv.Stop(time.Second)
		return nil, 0, err
	}
	return srv, startup, nil
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func (c *collector) targetRecord(name string) (TargetRecord, bool) {
	for _, t := range c.dir.Manifest().Targets {
		if t.Name == name {
			return t, true
		}
	}
	return TargetRecord{}, false
}

func (c *collector) setTarget(rec TargetRecord) error {
	return c.dir.Update(func(m *Manifest) {
		for i := range m.Targets {
			if m.Targets[i].Name == rec.Name {
				m.Targets[i] = rec
				return
			}
		}
		m.Targets = append(m.Targets, rec)
	})
}

// done reports whether a measurement is already in the run dir (for resume).
func (c *collector) done(target, scenario string, rep int, warmup bool) bool {
	for _, m := range c.dir.Manifest().Measurements {
		if m.Target == target && m.Scenario == scenario && m.Rep == rep && m.Warmup == warmup && m.SHA256 != "" {
			return true
		}
	}
	return false
}

// repetition starts a fresh server for t and measures every scenario that
// passed the gate once, each after its warm-up.
func (c *collector) repetition(ctx context.Context, t Target, rep int) error {
	rec, _ := c.targetRecord(t.Name)
	var todo []Scenario
	for _, sc := range c.suite.Scenarios {
		if slices.Contains(rec.Failed, sc.Name) || rep > c.suite.LoadFor(sc).Repetitions {
			continue
		}
		if !c.done(t.Name, sc.Name, rep, false) {
			todo = append(todo, sc)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	srv, startup, err := c.start(ctx, t)
	if err != nil {
		return err
	}
	defer srv.Stop(2 * time.Second)
	before := srv.RSS()
	for _, sc := range todo {
		load := c.suite.LoadFor(sc)
		if load.Warmup > 0 && !c.done(t.Name, sc.Name, rep, true) {
			c.progress("%s %s: warm-up %d (%v)", t.Name, sc.Name, rep, load.Warmup.Std())
			if _, err := c.measure(ctx, srv, t, sc, rep, true, load); err != nil {
				return err
			}
		}
		c.progress("%s %s: rep %d (%v)", t.Name, sc.Name, rep, load.Duration.Std())
		mr, err := c.measure(ctx, srv, t, sc, rep, false, load)
		if err != nil {
			return err
		}
		mr.StartupS, mr.RSSBefore, mr.RSSAfter = startup.Seconds(), before, srv.RSS()
		if err := c.addMeasurement(mr); err != nil {
			return err
		}
		if srv.Exited() {
			return fmt.Errorf("%s exited during %s; its last output:\n%s", t.Name, sc.Name, srv.Output())
		}
	}
	if rep == 1 {
		return c.dir.Update(func(m *Manifest) {
			for i := range m.Targets {
				if m.Targets[i].Name == t.Name {
					m.Targets[i].RSSAfter = srv.RSS()
				}
			}
		})
	}
	return nil
}

// measure runs the load generator once and stores its dump. Warm-ups are
// recorded in run.json as soon as they are stored; measurements are
// returned for the caller to complete and record.
func (c *collector) measure(ctx context.Context, srv *Server, t Target, sc Scenario, rep int, warmup bool, load Load) (MeasurementRecord, error) {
	d := c.drivers[load.Tool]
	window := load.Duration.Std()
	name := fmt.Sprintf("%d", rep)
	if warmup {
		window, name = load.Warmup.Std(), "w"+name
	}
	scratch := filepath.Join(c.bins, t.Name, "scratch")
	if err := os.MkdirAll(scratch, 0o755); err != nil {
		return MeasurementRecord{}, err
	}
	argv, err := d.Argv(c.tools[load.Tool].Path, "http://"+srv.Addr()+sc.Request.Path, sc.Request, load, window, scratch)
	if err != nil {
		return MeasurementRecord{}, err
	}
	argv = pinned(c.suite.Isolation.ClientCPUs, argv)
	c.order++
	mr := MeasurementRecord{
		Target: t.Name, Scenario: sc.Name, Rep: rep, Warmup: warmup, Order: c.order,
		Tool: load.Tool, ToolVersion: c.tools[load.Tool].Version, Argv: argv,
		ServerCPUs: c.suite.Isolation.ServerCPUs, ClientCPUs: c.suite.Isolation.ClientCPUs,
	}
	// The tool stops by itself after its window; the context bounds a hang.
	rctx, cancel := context.WithTimeout(ctx, window+load.Timeout.Std()+30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(rctx, argv[0], argv[1:]...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	serverCPU := srv.CPUSeconds()
	mr.Start = c.opt.Now().UTC()
	runErr := cmd.Run()
	mr.End = c.opt.Now().UTC()
	mr.ServerCPUS = srv.CPUSeconds() - serverCPU
	if ctx.Err() != nil {
		return mr, ctx.Err() // an interrupted run leaves no dump
	}
	if cmd.ProcessState != nil {
		mr.ExitStatus = cmd.ProcessState.ExitCode()
		mr.ClientCPUS = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
	}
	if runErr != nil {
		mr.Error = runErr.Error()
	}
	base := filepath.Join("dumps", t.Name, sc.Name, name)
	mr.Dump = filepath.ToSlash(base + ".txt")
	if mr.SHA256, err = c.dir.WriteDump(mr.Dump, stdout.Bytes()); err != nil {
		return mr, err
	}
	if stderr.Len() > 0 {
		mr.Stderr = filepath.ToSlash(base + ".stderr")
		if _, err := c.dir.WriteDump(mr.Stderr, stderr.Bytes()); err != nil {
			return mr, err
		}
	}
	if warmup {
		return mr, c.addMeasurement(mr)
	}
	return mr, nil
}

func (c *collector) addMeasurement(mr MeasurementRecord) error {
	return c.dir.Update(func(m *Manifest) { m.Measurements = append(m.Measurements, mr) })
}

// sizeOf is the size of a file, or of every regular file below a folder.
func sizeOf(path string) (int64, error) {
	var total int64
	err := filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			total += info.Size()
		}
		return nil
	})
	return total, err
}
