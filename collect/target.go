package collect

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"time"

	"github.com/fairbench/fairbench/collect/machine"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

// prepare takes what building t left (buildAll), asks its packages'
// versions and runs the gate, recording the transcript in the run dir. A
// resumed run keeps what an earlier session measured of the target and
// adds to its failed scenarios.
func (c *collector) prepare(ctx context.Context, t suite.Target, b built) (runjson.Target, error) {
	rec := runjson.Target{Name: t.Name, Runtime: t.Runtime, Env: maps.Clone(t.Env)}
	old, resumed := c.targetRecord(t.Name)
	if resumed {
		rec = old
		rec.Error = ""
	}
	if b.err != nil {
		rec.Error = b.err.Error()
		return rec, b.err
	}
	pkgs, errs := packageVersions(ctx, c.server, c.expanded(t), c.dirOn(t))
	rec.Packages = pkgs
	for _, err := range errs {
		c.note("%v", err)
	}
	g, err := c.gate(ctx, t)
	if err != nil {
		rec.Error = err.Error()
		return rec, err
	}
	if !resumed || old.Conformance == "" {
		rec.BuildS, rec.BuildCached, rec.ArtifactBytes = b.seconds, b.warm, b.artifact
		rec.StartupS, rec.RSSBefore = g.Startup.Seconds(), g.RSS
	}
	rec.Transcript = filepath.ToSlash(filepath.Join("conformance", t.Name+".txt"))
	if err := c.dir.WriteFile(rec.Transcript, []byte(g.Transcript)); err != nil {
		return rec, err
	}
	rec.Host = c.server.Name()
	if g.Local != nil {
		rec.LocalTranscript = filepath.ToSlash(filepath.Join("conformance", t.Name+".local.txt"))
		if err := c.dir.WriteFile(rec.LocalTranscript, []byte(g.Local.Transcript)); err != nil {
			return rec, err
		}
		rec.LocalConformance = "pass"
		if len(g.Local.Failed) > 0 {
			rec.LocalConformance = "fail"
		}
		if !slices.Equal(g.Local.Failed, g.Failed) {
			c.note("%s: the gate from host %s failed %v, from here %v: something between the hosts changes the answers (see %s and %s)",
				t.Name, c.client.Name(), g.Failed, g.Local.Failed, rec.Transcript, rec.LocalTranscript)
		}
	}
	for _, f := range g.Failed {
		if !slices.Contains(rec.Failed, f) {
			rec.Failed = append(rec.Failed, f)
		}
	}
	rec.Conformance = "pass"
	if len(rec.Failed) > 0 {
		rec.Conformance = "fail"
	}
	return rec, nil
}

// gateRun is the gate's verdict with what was seen of the server meanwhile.
type gateRun struct {
	GateResult
	// Local is the gate asked again from here when the server is on a
	// host and the load generator on another.
	Local   *GateResult
	Startup time.Duration
	RSS     int64
}

// gate starts t and checks every scenario and variant.
func (c *collector) gate(ctx context.Context, t suite.Target) (gateRun, error) {
	c.opt.Progress.Step(t.Name+": gate", 0)
	srv, startup, err := c.start(ctx, t)
	if err != nil {
		return gateRun{}, err
	}
	defer srv.Stop(2 * time.Second)
	g := gateRun{Startup: startup, RSS: srv.RSS()}
	g.GateResult = gateWith(ctx, c.client.HTTPClient(), srv.Addr(), c.suite.Scenarios, c.gateReset)
	if c.client.Name() != "" {
		local := gateWith(ctx, gateClient, srv.Addr(), c.suite.Scenarios, c.gateReset)
		g.Local = &local
	}
	return g, nil
}

// start starts a fresh server process for t and waits until it answers
// its readiness request correctly; the wait is polled every readyPoll.
func (c *collector) start(ctx context.Context, t suite.Target) (*machine.Server, time.Duration, error) {
	if err := c.reconnect(ctx); err != nil {
		return nil, 0, err
	}
	srv, err := machine.StartServer(ctx, c.server, c.expanded(t), c.dirOn(t), t.Port, c.suite.Isolation.ServerCPUs)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", t.Name, err)
	}
	probe := c.suite.Scenarios[0].Request
	wantStatus := c.suite.Scenarios[0].Expect.Status
	if t.Ready != "" {
		probe, wantStatus = suite.Request{Method: "GET", Path: t.Ready}, 0
	}
	timeout := c.opt.ReadyTimeout
	if t.ReadyTimeout > 0 {
		timeout = t.ReadyTimeout.Std()
	}
	startup, err := srv.WaitReady(ctx, timeout, httpProbe, func(ctx context.Context) bool {
		status, _, _, err := roundTrip(ctx, gateClient, srv.Addr(), cmp.Or(probe.Method, "GET"), probe)
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

// httpProbe bounds one readiness request to a target.
const httpProbe = 250 * time.Millisecond
