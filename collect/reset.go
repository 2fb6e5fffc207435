package collect

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

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
func (c *collector) resetScenario(ctx context.Context, sc Scenario) (time.Duration, error) {
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
func (c *collector) resetBefore(ctx context.Context, sc Scenario, mr *runjson.Measurement) error {
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
func (c *collector) gateReset(ctx context.Context, sc Scenario) error {
	_, err := c.resetScenario(ctx, sc)
	return err
}

// checkResets checks every scenario's reset key: services of this suite
// that have a reset argv, each named once.
func (s *Suite) checkResets(e *suiteErrors) {
	for i, sv := range s.Services {
		if sv.Reset != nil && len(sv.Reset) == 0 {
			e.add(at("service", i), "reset", "empty: give the argv that takes the service back to its seeded state, or leave the key out")
		}
	}
	for i, sc := range s.Scenarios {
		p := at("scenario", i)
		seen := map[string]bool{}
		for _, name := range sc.Reset {
			j := slices.IndexFunc(s.Services, func(sv Service) bool { return sv.Name == name })
			switch {
			case seen[name]:
				e.add(p, "reset", "%q is listed twice", name)
			case j < 0:
				e.add(p, "reset", "%q is not a [[service]] of this suite (services: %s)", name, serviceNames(s.Services))
			case len(s.Services[j].Reset) == 0:
				e.add(p, "reset", "service %q has no reset argv: give it one, e.g. reset = [\"psql\", …, \"-f\", \"reset.sql\"]", name)
			}
			seen[name] = true
		}
		if sc.Reset != nil && len(sc.Reset) == 0 {
			e.add(p, "reset", "empty: name the services to reset, or leave the key out")
		}
	}
}

// serviceNames lists the services' names for an error, "none" for none.
func serviceNames(services []Service) string {
	if len(services) == 0 {
		return "none"
	}
	names := make([]string, len(services))
	for i, sv := range services {
		names[i] = sv.Name
	}
	return strings.Join(names, ", ")
}
