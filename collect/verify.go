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
// the client host when there is one). It writes nothing but returns every
// transcript; on a cancelled context, those of the targets checked so far.
func Verify(ctx context.Context, suite *suite.Suite, opt Options) ([]VerifyResult, error) {
	var out []VerifyResult
	err := VerifyEach(ctx, suite, opt, func(r VerifyResult) { out = append(out, r) })
	return out, err
}

// VerifyEach is Verify handing each target's result to checked as soon as
// its gate has run, in suite order, so that a caller can show every
// verdict as it comes: one that is stopped (a signal cancels ctx) has
// shown all it checked. A target cut short by the cancel is not handed.
func VerifyEach(ctx context.Context, suite *suite.Suite, opt Options, checked func(VerifyResult)) error {
	c := newCollector(suite, opt)
	defer c.opt.Progress.Done()
	targets, err := c.selected()
	if err != nil {
		return asUsage(err)
	}
	if err := c.preflight(ctx, targets, false); err != nil {
		return err
	}
	closeHosts, err := c.openHosts(ctx, targets)
	defer closeHosts()
	if err != nil {
		return err
	}
	if err := c.claimHosts(ctx); err != nil { // host_claim.go
		return err
	}
	defer c.removeBins() // after the services, and the targets the gate stopped
	if c.bins, err = os.MkdirTemp("", "fairbench-build-"); err != nil {
		return err
	}
	c.here.Dir = c.bins
	defer os.RemoveAll(c.bins)
	defer c.stopServices()
	if err := c.startServices(ctx); err != nil {
		return err
	}
	builds := c.buildAll(ctx, targets)
	for _, t := range targets {
		r := VerifyResult{Target: t.Name}
		if r.Err = builds[t.Name].err; r.Err == nil {
			var g gateRun
			g, r.Err = c.gate(ctx, t)
			r.GateResult = g.GateResult
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		checked(r)
	}
	return nil
}
