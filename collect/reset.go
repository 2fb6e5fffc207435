package collect

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

// A scenario that changes a service's data, such as an insert, would make
// every later measurement pay for the rows of the earlier ones: a bigger
// table, a longer index, dead rows to skip. Such a scenario names the
// service in its reset key,
//
//	[[service]]
//	name = "postgres"
//	reset = ["psql", "-h", "127.0.0.1", "-p", "{port}", "-f", "site/apps/db/reset.sql"]
//
//	[[scenario]]
//	name = "db-insert"
//	reset = ["postgres"]
//
// and the collector runs the service's reset argv (as its user, in its
// dir, with its placeholders) before every gate run, warm-up and
// measurement of that scenario. The reset runs before the window opens, so
// its time is kept out of the window; it is recorded in run.json as the
// measurement's reset_s. A reset that fails fails the measurement (or the
// scenario's gate) with its output, and nothing is measured on data in an
// unknown state.

// resetScenario runs the reset argv of every service sc names, in the order
// named, and returns the time they took together.
func (c *collector) resetScenario(ctx context.Context, sc suite.Scenario) (time.Duration, error) {
	start := time.Now()
	for _, name := range sc.Reset {
		i := slices.IndexFunc(c.services, func(rs *runningService) bool { return rs.Name == name })
		if i < 0 {
			return 0, fmt.Errorf("reset: service %s is not running", name)
		}
		rs := c.services[i]
		if err := rs.runOnce(ctx, "reset", rs.Reset, rs.dir); err != nil {
			return 0, err
		}
	}
	return time.Since(start), nil
}

// resetBefore runs sc's reset, if it has one, before the window of mr and
// records the time it took there.
func (c *collector) resetBefore(ctx context.Context, sc suite.Scenario, mr *runjson.Measurement) error {
	if len(sc.Reset) == 0 {
		return nil
	}
	d, err := c.resetScenario(ctx, sc)
	if err != nil {
		return fmt.Errorf("%s %s: %w", mr.Target, sc.Name, err)
	}
	mr.ResetS = d.Seconds()
	return nil
}

// gateReset is the reset the gate runs before a scenario's checks.
func (c *collector) gateReset(ctx context.Context, sc suite.Scenario) error {
	_, err := c.resetScenario(ctx, sc)
	return err
}
