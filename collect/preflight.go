package collect

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"

	"github.com/fairbench/fairbench/collect/hostcheck"
	"github.com/fairbench/fairbench/collect/loadgen"
	"github.com/fairbench/fairbench/collect/pinning"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

// installHints says how to install the commands a suite commonly names, on
// Debian.
var installHints = map[string]string{
	"taskset":    "apt-get install util-linux",
	"flock":      "apt-get install util-linux",
	"ss":         "apt-get install iproute2",
	"wrk":        "apt-get install wrk",
	"node":       "apt-get install nodejs",
	"npm":        "apt-get install npm",
	"go":         "see https://go.dev/doc/install",
	"ssh":        "apt-get install openssh-client",
	"rsync":      "apt-get install rsync",
	"postgres":   "apt-get install postgresql, and put /usr/lib/postgresql/<version>/bin on PATH",
	"initdb":     "apt-get install postgresql, and put /usr/lib/postgresql/<version>/bin on PATH",
	"pg_ctl":     "apt-get install postgresql, and put /usr/lib/postgresql/<version>/bin on PATH",
	"pg_isready": "apt-get install postgresql-client",
	"psql":       "apt-get install postgresql-client",
}

// preflight finds everything the run needs before anything starts: the load
// tools (load: with their versions), taskset when CPUs are pinned, the first
// word of every argv, and the versions of runtimes and services. It reports
// every problem at once, each with its install command where known.
func (c *collector) preflight(ctx context.Context, targets []suite.Target, load bool) error {
	errs := []error{c.checkPinning()}
	if load {
		var names []string
		for _, sc := range c.suite.Scenarios {
			names = append(names, c.suite.LoadFor(sc).Tool)
		}
		if _, ok := c.suite.LatencyPhase(); ok {
			names = append(names, "vegeta")
		}
		for _, name := range names {
			if _, ok := c.drivers[name]; ok {
				continue
			}
			d, err := loadgen.DriverFor(name)
			if err == nil && c.suite.HasRole(suite.RoleClient) && !loadgen.CopiedTool(name) {
				c.drivers[name] = d // found on the client host (provideTools)
				continue
			}
			if err == nil {
				c.opt.Progress.Step("finding "+name, 0)
				var v runjson.Version
				if p := cmp.Or(c.opt.ToolPaths[name], os.Getenv(loadgen.ToolEnv(name))); p != "" {
					v, err = loadgen.OverriddenTool(ctx, name, p)
				} else {
					v, err = d.Resolve(ctx)
				}
				if err == nil {
					c.drivers[name], c.tools[name] = d, v
				}
			}
			if err != nil {
				errs = append(errs, err)
				c.drivers[name] = nil // reported once
			}
		}
		if (c.suite.Isolation.ServerCPUs != "" && !c.suite.HasRole(suite.RoleServer)) || (c.suite.Isolation.ClientCPUs != "" && !c.suite.HasRole(suite.RoleClient)) {
			errs = append(errs, lookCommand("isolation", "taskset", []string{"taskset"}))
		}
	} else if c.suite.Isolation.ServerCPUs != "" && !c.suite.HasRole(suite.RoleServer) {
		errs = append(errs, lookCommand("isolation", "taskset", []string{"taskset"}))
	}
	for _, sv := range c.suite.Services {
		if len(c.suite.Hosts) > 0 {
			break // services are found on the server host when they start there
		}
		who := "service " + sv.Name
		for _, a := range []struct {
			key  string
			argv []string
		}{{"init", sv.Init}, {"start", sv.Start}, {"ready", sv.Ready}, {"seed", sv.Seed}} {
			errs = append(errs, lookCommand(who, a.key, a.argv))
		}
		if err := lookCommand(who, "version", sv.Version); err != nil {
			errs = append(errs, err)
			continue
		}
		v, err := c.here.Version(ctx, sv.Version)
		if err != nil {
			errs = append(errs, fmt.Errorf("service %s: version %q: %w", sv.Name, sv.Version, err))
			continue
		}
		c.tools[sv.Name] = v
	}
	if len(c.suite.Hosts) > 0 {
		// The targets are found on the server host when they are built
		// and started there; here only ssh and rsync are needed.
		errs = append(errs, lookCommand("hosts", "ssh", []string{"ssh"}), lookCommand("hosts", "rsync", []string{"rsync"}))
		return errors.Join(errs...)
	}
	cached := false // a build into {bin} runs under flock(1) in the build cache
	for _, t := range targets {
		who := "target " + t.Name
		errs = append(errs, lookCommand(who, "build", t.Build), lookCommand(who, "start", t.Start))
		cached = cached || slices.ContainsFunc(t.Build, func(a string) bool { return strings.Contains(a, "{bin}") })
	}
	if cached {
		errs = append(errs, lookCommand("build cache", "lock", []string{"flock"}))
	}
	askRuntimes(ctx, c.here, targets, c.targetDir)
	return errors.Join(errs...)
}

// checkPinning audits the suite's [isolation] against this machine's CPU
// topology (fairbench pin -suite). A malformed list or a CPU the machine
// does not have stops the run; so does a problem (the sets share a
// physical core, the server spans L3 domains or sits on E-cores, a set
// names an offline CPU) unless Options.ForcePinning. With SSH hosts the
// sets apply there, and nothing is checked here.
func (c *collector) checkPinning() error {
	if len(c.suite.Hosts) > 0 {
		return nil
	}
	iso := c.suite.Isolation
	fs, err := pinning.Audit(pinning.Read(c.here.Roots), iso.ServerCPUs, iso.ClientCPUs)
	if err != nil {
		return asUsage(fmt.Errorf("%s: isolation: %w", c.suite.File, err))
	}
	if !pinning.Problem(fs) || c.opt.ForcePinning {
		return nil
	}
	var problems []string
	for _, f := range fs {
		if f.Level == pinning.LevelError {
			problems = append(problems, f.Message)
		}
	}
	return fmt.Errorf("%s: isolation: server_cpus = %q, client_cpus = %q on this machine: %s; fix [isolation] (fairbench pin -suite %s says more), or run anyway with -force-pinning (the run's audit then reports it)",
		c.suite.File, iso.ServerCPUs, iso.ClientCPUs, strings.Join(problems, "; and "), c.suite.File)
}

// lookCommand checks that the first word of argv is on PATH. Paths and
// placeholders ({bin}/server) are left to the run: they are built or made
// on the way.
func lookCommand(who, key string, argv []string) error {
	if len(argv) == 0 || strings.ContainsAny(argv[0], "/{") {
		return nil
	}
	if _, err := exec.LookPath(argv[0]); err != nil {
		hint := installHints[argv[0]]
		if hint == "" {
			hint = "install it or fix the argv"
		}
		return fmt.Errorf("%s: %s: %s not found on PATH: %s", who, key, argv[0], hint)
	}
	return nil
}

// localFacts are this machine's facts with its topology and, when the
// suite runs here, the audit of the suite's [isolation] on it (with SSH
// hosts the sets apply to the hosts, whose topology is not read).
func (c *collector) localFacts(ctx context.Context) runjson.Facts {
	h, _ := hostcheck.Facts(ctx, c.here)
	h.Pinning = &runjson.Pinning{Topology: pinning.Read(c.here.Roots)}
	if len(c.suite.Hosts) > 0 {
		return h
	}
	p := h.Pinning
	p.ServerCPUs, p.ClientCPUs = c.suite.Isolation.ServerCPUs, c.suite.Isolation.ClientCPUs
	p.Findings, _ = pinning.Audit(p.Topology, p.ServerCPUs, p.ClientCPUs) // a usage error stopped the run in preflight
	p.Forced = c.opt.ForcePinning && pinning.Problem(p.Findings)
	p.Findings = append(p.Findings, pinning.Machine(p.Topology, p.ServerCPUs, p.ClientCPUs)...)
	return h
}
