package collect

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fairbench/fairbench/collect/machine"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

// serviceTimeout bounds a service's init, readiness and seed, each.
const serviceTimeout = 2 * time.Minute

// commandProbe bounds one run of a service's ready argv. A program such as
// pg_isready, run on a host through ssh and runuser, takes longer than an
// HTTP request: a bound as short as a target's (httpProbe) killed every
// poll before it could answer, and the service was never ready.
const commandProbe = 10 * time.Second

// runningService is a started service.
type runningService struct {
	suite.Service
	m       machine.Machine // the server machine, where it runs
	proc    *machine.Server
	port    int
	scratch string
	dir     string // where its argvs run, on its machine
}

// startService starts sv on the server machine, beside the targets, waits
// for it to be ready and seeds it. Its dir is copied to an SSH host like a
// target's, and {dir} is a scratch folder there. A service's version was
// asked here by preflight; on a host it is asked there now.
func (c *collector) startService(ctx context.Context, sv suite.Service) (*runningService, runjson.Service, error) {
	m := c.server
	rec := runjson.Service{Name: sv.Name}
	rs := &runningService{Service: sv, m: m}
	v := m.Tool(sv.Name)
	if v.Path == "" {
		var err error
		if v, err = m.Version(ctx, sv.Version); err != nil {
			return nil, rec, fmt.Errorf("service %s: version %q%s: %w", sv.Name, sv.Version, machine.OnMachine(m), err)
		}
		m.Remember(sv.Name, v)
	}
	rec.Version = v.Version
	var err error
	if rs.port, err = m.ClaimPort(ctx, sv.Port); err != nil {
		return nil, rec, fmt.Errorf("service %s: %w", sv.Name, err)
	}
	rec.Port = rs.port
	if rs.scratch, err = m.ScratchDir(ctx, "services/"+sv.Name, sv.User); err != nil {
		return nil, rec, fmt.Errorf("service %s: scratch folder%s: %w", sv.Name, machine.OnMachine(m), err)
	}
	src := c.serviceDir(sv)
	dir := m.Mirror(src, "")
	if sv.Dir != "" {
		dir = m.Mirror(src, "services/"+sv.Name+"-files")
		if m.Name() != "" {
			c.opt.Progress.Step("service "+sv.Name+": copying to host "+m.Name(), 0)
		}
		if err := m.Sync(ctx, src, dir); err != nil {
			rs.stop()
			return nil, rec, err
		}
	}
	rs.dir = dir
	if len(sv.Init) > 0 {
		if err := rs.runOnce(ctx, "init", sv.Init, dir); err != nil {
			rs.stop()
			return nil, rec, err
		}
	}
	if rs.proc, err = m.Start(sv.Name, rs.program(sv.Start, dir)); err != nil {
		rs.stop()
		return nil, rec, err
	}
	if err := rs.readyAndSeed(ctx, &rec, dir); err != nil {
		rs.stop()
		return nil, rec, err
	}
	return rs, rec, nil
}

// readyAndSeed waits until the started service is ready, then seeds it,
// and records both times.
func (rs *runningService) readyAndSeed(ctx context.Context, rec *runjson.Service, dir string) error {
	timeout := serviceTimeout
	if rs.ReadyTimeout > 0 {
		timeout = rs.ReadyTimeout.Std()
	}
	startup, err := rs.proc.WaitReady(ctx, timeout, commandProbe, func(ctx context.Context) bool { return rs.ready(ctx, dir) })
	if err != nil {
		return fmt.Errorf("service %s%s: %w", rs.Name, machine.OnMachine(rs.m), err)
	}
	rec.StartupS = startup.Seconds()
	if len(rs.Seed) > 0 {
		start := time.Now()
		if err := rs.runOnce(ctx, "seed", rs.Seed, dir); err != nil {
			return err
		}
		rec.SeedS = time.Since(start).Seconds()
	}
	return nil
}

// expand fills in {port} and {dir}.
func (rs *runningService) expand(argv []string) []string {
	r := strings.NewReplacer("{port}", strconv.Itoa(rs.port), "{dir}", rs.scratch)
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = r.Replace(a)
	}
	return out
}

func (rs *runningService) env() []string {
	env := []string{"PORT=" + strconv.Itoa(rs.port)}
	for _, k := range slices.Sorted(maps.Keys(rs.Env)) {
		env = append(env, k+"="+rs.expand([]string{rs.Env[k]})[0])
	}
	return env
}

// program is one of the service's argvs in dir, with its environment, as
// its user.
func (rs *runningService) program(argv []string, dir string) machine.Program {
	return machine.Program{Dir: dir, Env: rs.env(), User: rs.User, Argv: rs.expand(argv)}
}

// runOnce runs an init or seed argv to completion.
func (rs *runningService) runOnce(ctx context.Context, step string, argv []string, dir string) error {
	ctx, cancel := context.WithTimeout(ctx, serviceTimeout)
	defer cancel()
	if out, err := rs.m.Run(ctx, rs.program(argv, dir)); err != nil {
		return fmt.Errorf("service %s: %s %q%s: %v\n%s", rs.Name, step, rs.expand(argv), machine.OnMachine(rs.m), err, out)
	}
	return nil
}

// ready runs the readiness argv, or asks whether the port is listened on.
func (rs *runningService) ready(ctx context.Context, dir string) bool {
	if len(rs.Ready) == 0 {
		return rs.m.Listening(ctx, rs.port)
	}
	_, err := rs.m.Run(ctx, rs.program(rs.Ready, dir))
	return err == nil
}

// stop ends the service's process group and removes its scratch folder.
func (rs *runningService) stop() {
	if rs.proc != nil {
		rs.proc.Stop(10 * time.Second)
	}
	if rs.scratch != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		rs.m.Run(ctx, machine.Program{Argv: []string{"rm", "-rf", rs.scratch}})
	}
}

// placeholders maps {<service>.port} to each running service's port.
func placeholders(services []*runningService) map[string]string {
	m := map[string]string{}
	for _, rs := range services {
		m["{"+rs.Name+".port}"] = strconv.Itoa(rs.port)
	}
	return m
}
