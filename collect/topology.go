package collect

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/fairbench/fairbench/collect/hostcheck"
	"github.com/fairbench/fairbench/collect/loadgen"
	"github.com/fairbench/fairbench/collect/machine"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/rundir"
	"github.com/fairbench/fairbench/parse/runjson"
)

// openHosts connects to the suite's hosts, if it has any, and finds what
// the run needs on them. The returned function closes every connection.
func (c *collector) openHosts(ctx context.Context, targets []suite.Target) (func(), error) {
	if len(c.suite.Hosts) == 0 {
		return func() {}, nil
	}
	sockets, err := os.MkdirTemp("", "fb-ssh-")
	if err != nil {
		return func() {}, err
	}
	closeAll := func() {
		c.closeHosts()
		os.RemoveAll(sockets)
	}
	if err := c.connectHosts(ctx, sockets); err != nil {
		return closeAll, err
	}
	return closeAll, c.preflightHosts(ctx, targets)
}

// connectHosts opens a master connection to every host of the suite and
// asks each its facts, before anything runs: an unreachable host stops the
// run with ssh's own words. The load tools are then found on the client
// host.
func (c *collector) connectHosts(ctx context.Context, scratch string) error {
	var errs []error
	for _, spec := range c.suite.Hosts {
		h := machine.NewSSHHost(spec, scratch)
		h.Track = c
		c.opt.Progress.Step("host "+spec.Name+": connecting to "+h.Destination(), 0)
		if err := h.Connect(ctx); err != nil {
			errs = append(errs, err)
			continue
		}
		c.hosts = append(c.hosts, h)
		if slices.Contains(spec.Roles, suite.RoleServer) {
			c.server = h
		}
		if slices.Contains(spec.Roles, suite.RoleClient) {
			c.client = h
		}
	}
	if err := errors.Join(errs...); err != nil {
		c.closeHosts()
		return err
	}
	for _, h := range c.hosts {
		facts, err := hostcheck.Facts(ctx, h)
		if err != nil {
			errs = append(errs, err)
		}
		h.Facts, h.Tools = facts, map[string]runjson.Version{}
	}
	return errors.Join(errs...)
}

// closeHosts ends every master connection.
func (c *collector) closeHosts() {
	for _, h := range c.hosts {
		h.Close()
	}
}

// hostRecords are the hosts as run.json keeps them.
func (c *collector) hostRecords() []runjson.Host {
	var out []runjson.Host
	for _, h := range c.hosts {
		out = append(out, runjson.Host{Name: h.Spec.Name, Destination: h.Destination(), Roles: h.Spec.Roles, Facts: h.Facts, Tools: h.Tools})
	}
	return out
}

// provideTools makes every load tool runnable on the client machine and
// keeps its version there (provideTool).
func (c *collector) provideTools(ctx context.Context) error {
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(c.drivers)) {
		if c.drivers[name] == nil {
			continue
		}
		v, err := provideTool(ctx, c.client, name, c.tools[name])
		if err != nil {
			errs = append(errs, err)
			continue
		}
		c.client.Remember(name, v)
	}
	return errors.Join(errs...)
}

// provideTool makes the load tool name runnable on m and says which it
// is: here the one fairbench found (local); on an SSH host the binary
// fairbench pins (bombardier, vegeta) copied there and checked by sha256,
// or the host's own (wrk, autocannon) found on its PATH.
func provideTool(ctx context.Context, m machine.Machine, name string, local runjson.Version) (runjson.Version, error) {
	h, ok := m.(*machine.SSHHost)
	if !ok {
		return local, nil
	}
	var v runjson.Version
	var err error
	if loadgen.CopiedTool(name) {
		v, err = h.CopyTool(ctx, name, local)
	} else {
		v, err = askToolOnHost(ctx, h, name)
	}
	if err != nil {
		return v, fmt.Errorf("host %s: %w", h.Spec.Name, err)
	}
	return v, nil
}

// askToolOnHost finds tool on h's PATH and asks its version the way its
// driver does here.
func askToolOnHost(ctx context.Context, h *machine.SSHHost, tool string) (runjson.Version, error) {
	flag := map[string]string{"wrk": "-v", "autocannon": "--version"}[tool]
	out, err := h.Output(ctx, "p=$(command -v "+tool+") || exit 3; echo \"$p\"; \"$p\" "+flag+" 2>&1; true")
	if err != nil {
		return runjson.Version{}, fmt.Errorf("%s not found on PATH there: install it on the host", tool)
	}
	p, text, _ := strings.Cut(string(out), "\n")
	var v runjson.Version
	if tool == "wrk" {
		v, err = loadgen.WrkVersionIn(p, text)
	} else {
		v, err = loadgen.AutocannonVersionIn(p, text)
	}
	v.Asked = []string{"ssh", h.Spec.Name, p, flag}
	return v, err
}

// preflightHosts finds the load tools on the client host and the targets'
// runtimes on the server host, before the run dir is made.
func (c *collector) preflightHosts(ctx context.Context, targets []suite.Target) error {
	var errs []error
	errs = append(errs, c.provideTools(ctx))
	if c.server.Name() == "" {
		return errors.Join(append(errs, fmt.Errorf("%s: a suite with hosts needs one with the role %q: the targets run there", c.suite.File, suite.RoleServer))...)
	}
	askRuntimes(ctx, c.server, targets, c.dirOn)
	return errors.Join(errs...)
}

// recordHosts keeps the hosts in run.json and, on a resumed run, ends the
// processes an earlier session left on them, over a fresh connection.
func (c *collector) recordHosts(ctx context.Context) error {
	c.live = c.dir.Manifest().Leftovers
	c.endLeftovers(ctx, nil)
	return c.dir.Update(func(m *runjson.Manifest) {
		m.Hosts, m.Leftovers = c.hostRecords(), slices.Clone(c.live)
	})
}

func (c *collector) hostNamed(name string) *machine.SSHHost {
	for _, h := range c.hosts {
		if h.Spec.Name == name {
			return h
		}
	}
	return nil
}

// reconnect opens a new master connection to every host whose link was
// lost, before a fresh server process is started, and ends what was left
// running there when the link went.
func (c *collector) reconnect(ctx context.Context) error {
	for _, h := range c.hosts {
		if h.Alive(ctx) {
			continue
		}
		if err := h.Reconnect(ctx); err != nil {
			return err
		}
		c.endLeftovers(ctx, h)
	}
	return nil
}

// sameHosts checks, on -resume, that the hosts are the ones the run began
// with: a run is not finished on other machines, nor on none.
func (c *collector) sameHosts() error {
	if c.opt.Resume == "" {
		return nil
	}
	d, err := rundir.Load(c.opt.Resume)
	if err != nil {
		return err
	}
	var had, have []string
	for _, h := range d.Manifest().Hosts {
		had = append(had, h.Name+"="+h.Destination)
	}
	for _, h := range c.suite.Hosts {
		have = append(have, h.Name+"="+machine.NewSSHHost(h, "").Destination())
	}
	slices.Sort(had)
	slices.Sort(have)
	if !slices.Equal(had, have) {
		return fmt.Errorf("%s ran on hosts %v; this resume would use %v: give the same hosts (-hosts FILE)", c.opt.Resume, cmp.Or(strings.Join(had, " "), "none"), cmp.Or(strings.Join(have, " "), "none"))
	}
	return nil
}
