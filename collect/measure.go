package collect

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/fairbench/fairbench/collect/hostcheck"
	"github.com/fairbench/fairbench/collect/loadgen"
	"github.com/fairbench/fairbench/collect/machine"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/rundir"
	"github.com/fairbench/fairbench/parse/runjson"
)

// DefaultToolGrace is how long a load tool may run past its window and
// request timeout before it is killed and its measurement marked failed,
// unless Options.ToolGrace says otherwise.
const DefaultToolGrace = 30 * time.Second

// rssSampleEvery is how often the server's RSS is sampled during a window
// for its peak where the kernel cannot keep it (machine.Server.WatchPeak).
const rssSampleEvery = 20 * time.Millisecond

// repetition starts a fresh server for t and takes every measurement of rep
// still missing, of scenario only or of all when only is "", each after a
// warm-up on the same server process.
func (c *collector) repetition(ctx context.Context, t suite.Target, rep int, only string) error {
	var todo []suite.Scenario
	for _, p := range c.pending(t) {
		if p.Rep == rep && (only == "" || p.Scenario.Name == only) {
			todo = append(todo, p.Scenario)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	first := c.order
	speed, waited := c.beforeTurn(ctx) // host_speed.go
	err := c.turn(ctx, t, rep, todo)
	if ctx.Err() != nil {
		return err
	}
	return errors.Join(err, c.afterTurn(ctx, t, first, speed, waited))
}

// turn starts t's server, measures todo on it in round rep, and stops it.
func (c *collector) turn(ctx context.Context, t suite.Target, rep int, todo []suite.Scenario) error {
	srv, startup, err := c.start(ctx, t)
	if err != nil {
		return err
	}
	defer srv.Stop(2 * time.Second)
	before := srv.RSS()
	var peak int64
	reps := fmt.Sprintf("%d/%d", rep, c.reps())
	for _, sc := range todo {
		mr, err := c.take(ctx, srv, t, sc, sc.Name, sc.Name, rep, reps, c.suite.LoadFor(sc), func(mr *runjson.Measurement) {
			if !mr.Warmup {
				mr.StartupS, mr.RSSBefore, mr.RSSAfter = startup.Seconds(), before, srv.RSS()
			}
		})
		peak = max(peak, mr.RSSPeak)
		if err != nil {
			return err
		}
	}
	after := srv.RSS()
	return c.updateTarget(t.Name, func(r *runjson.Target) {
		r.RSSPeak = max(r.RSSPeak, peak)
		if rep == 1 {
			r.RSSAfter = after
		}
	})
}

// take runs one point on srv: its warm-up, when load has one, then its
// measurement, each stored in dumps/<target>/<folder> and added to run.json
// once set has completed its record. what names the point after the
// target in progress and errors, reps is "<rep>/<of>". It returns the
// measurement's record, and an error when one could not be kept or the
// server exited.
func (c *collector) take(ctx context.Context, srv *machine.Server, t suite.Target, sc suite.Scenario, folder, what string, rep int, reps string, load suite.Load, set func(*runjson.Measurement)) (runjson.Measurement, error) {
	var mr runjson.Measurement
	for _, warmup := range []bool{true, false} {
		window, step, during := load.Duration.Std(), "rep", what
		if warmup {
			window, step, during = load.WarmupWindow(), "warm-up", "the warm-up of "+what
			if window <= 0 {
				continue
			}
		}
		c.opt.Progress.Step(fmt.Sprintf("%s %s %s %s", t.Name, what, step, reps), window)
		var err error
		if mr, err = c.measure(ctx, srv, t, sc, folder, rep, warmup, load); err != nil {
			return mr, err
		}
		set(&mr)
		if err := c.addMeasurement(mr); err != nil {
			return mr, err
		}
		if srv.Exited() {
			return mr, fmt.Errorf("%s exited during %s: %s", t.Name, during, srv.ExitReason(ctx))
		}
	}
	return mr, nil
}

// reps is the most rounds planned for any scenario: the repetitions it
// asks for, or more where a collect to a precision added some.
func (c *collector) reps() int {
	n := 0
	for _, sc := range c.suite.Scenarios {
		n = max(n, c.roundsOf(sc))
	}
	return n
}

// measure runs the load generator once against srv and stores its stdout
// (and stderr, when not empty) as write-once dumps in
// dumps/<target>/<folder>. The record is returned for the caller to
// complete and add to run.json; an interrupted run stores nothing. For
// vegeta the dump is its two reports (vegetaReports).
func (c *collector) measure(ctx context.Context, srv *machine.Server, t suite.Target, sc suite.Scenario, folder string, rep int, warmup bool, load suite.Load) (runjson.Measurement, error) {
	d := c.drivers[load.Tool]
	window := load.Duration.Std()
	if warmup {
		window = load.WarmupWindow()
	}
	scratch := filepath.Join(c.bins, t.Name, "scratch")
	if err := os.MkdirAll(scratch, 0o755); err != nil {
		return runjson.Measurement{}, err
	}
	tool := c.client.Tool(load.Tool)
	req := sc.Request
	if c.client.Name() != "" && req.BodyPath != "" {
		// The body file goes to the client host with the scratch folder.
		body := filepath.Join(scratch, "body")
		if err := rundir.WriteFileAtomic(body, []byte(req.Body)); err != nil {
			return runjson.Measurement{}, err
		}
		req.BodyPath = body
	}
	argv, err := d.Argv(tool.Path, "http://"+srv.Addr()+req.Path, req, load, window, scratch)
	if err != nil {
		return runjson.Measurement{}, err
	}
	argv = machine.Pinned(c.suite.Isolation.ClientCPUs, argv)
	c.order++
	// What the client machine runs, with its own copy of the scratch folder.
	there := c.client.Mirror(scratch, "scratch/"+strconv.Itoa(c.order))
	argv = replaceAll(argv, scratch, there)
	mr := runjson.Measurement{
		Target: t.Name, Scenario: sc.Name, Rep: rep, Warmup: warmup, Order: c.order,
		Tool: load.Tool, ToolVersion: tool.Version, Argv: argv,
		ServerCPUList: c.suite.Isolation.ServerCPUs, ClientCPUList: c.suite.Isolation.ClientCPUs,
	}
	if err := c.resetBefore(ctx, sc, &mr); err != nil { // reset.go: before the window, out of it
		return mr, err
	}
	// The tool stops by itself after its window; the context bounds a hang.
	limit := window + load.Timeout.Std() + c.opt.ToolGrace
	back := c.offServerCPUs()
	peak := srv.WatchPeak(rssSampleEvery)
	serverCPU := srv.CPUSeconds()
	w := hostcheck.StartWindow(ctx, c.server, c.client, c.servicesCPU)
	mr.Start = c.opt.Now().UTC()
	mr.ServerHost, mr.ClientHost = srv.Host(), c.client.Name()
	tr := c.client.RunTool(ctx, argv, scratch, there, limit)
	mr.End = c.opt.Now().UTC()
	w.End(ctx)
	back()
	if load.Tool == "vegeta" && ctx.Err() == nil {
		var s schedule
		tr, s = c.vegetaReports(ctx, tool.Path, loadgen.VegetaResults(there), there, load.Rate, loadgen.VegetaWorkers(load), limit, tr)
		mr.SendRate, mr.BehindS, mr.FromSchedule, mr.Late = s.SendRate, s.Behind, s.FromSchedule, s.Late
		mr.Reports = loadgen.VegetaReportArgvs(tool.Path, loadgen.VegetaResults(there))
	}
	mr.RSSPeak = peak()
	mr.ServerCPUSeconds = max(0, srv.CPUSeconds()-serverCPU) // 0 when the host could not be asked
	if ctx.Err() != nil {
		return mr, ctx.Err()
	}
	mr.ExitStatus, mr.ClientCPUSeconds = tr.Exit, tr.CPU
	mr.Interference = w.Interference(c.here, c.suite.Isolation.ServerCPUs, c.suite.Isolation.ClientCPUs, mr.ServerCPUSeconds, tr.CPU)
	switch {
	case tr.Overran:
		mr.Error = fmt.Sprintf("%s ran past its window (%v) + timeout + grace, %v in all: killed; its dump is kept but not counted", load.Tool, window, limit)
	case tr.Err != nil:
		mr.Error = fmt.Sprintf("%s: %v; its dump is kept but not counted", load.Tool, tr.Err)
	}
	if srv.Exited() {
		mr.Error = fmt.Sprintf("%s exited during the window: %s", t.Name, srv.ExitReason(ctx))
	}
	if mr.Error == "" {
		mr.Error = countProblem(load.Tool, tr.Stdout) // usable.go
	}
	stdout, stderr := bytes.NewBuffer(tr.Stdout), bytes.NewBuffer(tr.Stderr)
	base := c.dumpBase(t.Name, folder, rep, warmup)
	mr.Dump = base + ".txt"
	if mr.SHA256, err = c.dir.WriteDump(mr.Dump, stdout.Bytes()); err != nil {
		return mr, err
	}
	if stderr.Len() > 0 {
		mr.Stderr = base + ".stderr"
		if _, err := c.dir.WriteDump(mr.Stderr, stderr.Bytes()); err != nil {
			return mr, err
		}
	}
	return mr, nil
}

// offServerCPUs keeps fairbench off the server's CPUs for a window
// (machine.KeepOff) when the server runs here and the suite pins both the server
// and the load tool (whose taskset then sets its own CPUs whatever it
// inherits); the returned function undoes it.
func (c *collector) offServerCPUs() func() {
	iso := c.suite.Isolation
	if c.server != c.here || iso.ServerCPUs == "" || iso.ClientCPUs == "" {
		return func() {}
	}
	return machine.KeepOff(iso.ServerCPUs)
}

func (c *collector) addMeasurement(mr runjson.Measurement) error {
	return c.dir.Update(func(m *runjson.Manifest) { m.Measurements = append(m.Measurements, mr) })
}

// replaceAll replaces old by new in every argument.
func replaceAll(argv []string, old, new string) []string {
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = strings.ReplaceAll(a, old, new)
	}
	return out
}

// servicesCPU is the CPU seconds the services (on the server's machine)
// have used.
func (c *collector) servicesCPU() float64 {
	var s float64
	for _, rs := range c.services {
		if rs.proc != nil {
			s += rs.proc.CPUSeconds()
		}
	}
	return s
}
