package collect

import (
	"context"
	"os"

	"github.com/fairbench/fairbench/collect/suite"
)

// VerifyResult is one target's gate verdict from Verify.
type VerifyResult struct {
	Target string
	GateResult
	Err error // the target could not be built or started
}

// Verify starts the suite's services, builds and starts each target (on
// the server host when the suite has one) and runs the gate alone (from
// the client host when there is one). It writes nothing but returns every transcript.
func Verify(ctx context.Context, suite *suite.Suite, opt Options) ([]VerifyResult, error) {
	c := newCollector(suite, opt)
	defer c.opt.Progress.Done()
	targets, err := c.selected()
	if err != nil {
		return nil, asUsage(err)
	}
	if err := c.preflight(ctx, targets, false); err != nil {
		return nil, err
	}
	closeHosts, err := c.openHosts(ctx, targets)
	defer closeHosts()
	if err != nil {
		return nil, err
	}
	if c.bins, err = os.MkdirTemp("", "fairbench-build-"); err != nil {
		return nil, err
	}
	c.here.dir = c.bins
	defer os.RemoveAll(c.bins)
	defer c.removeBins() // after the services, and the targets the gate stopped
	defer c.stopServices()
	if err := c.startServices(ctx); err != nil {
		return nil, err
	}
	builds := c.buildAll(ctx, targets)
	var out []VerifyResult
	for _, t := range targets {
		r := VerifyResult{Target: t.Name}
		if r.Err = builds[t.Name].err; r.Err == nil {
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
