package collect

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Service is a real service the targets need, such as PostgreSQL from
// Debian's postgresql package. Services start, in suite order, before the
// first target is built, and stop after the last measurement; each one's
// version is asked of its binary and recorded in run.json.
//
// Its argvs may name {port} (its port), {dir} (a scratch folder made for
// it, owned by User, removed after the run) and {bin}. Targets reach it
// through {<name>.port} in their env and start argv.
type Service struct {
	Name string `toml:"name"`
	// Dir is the working directory of every argv, relative to the base.
	Dir string `toml:"dir"`
	// User runs every argv as this user when fairbench runs as root
	// (PostgreSQL refuses to run as root).
	User string `toml:"user"`
	// Version is the argv whose first line of output is the version.
	Version []string `toml:"version"`
	// Init runs once before Start, e.g. initdb.
	Init []string `toml:"init"`
	// Start is the long-running process.
	Start []string `toml:"start"`
	// Ready is polled until it exits 0, e.g. pg_isready. Without it the
	// service is ready when its port takes a TCP connection.
	Ready []string `toml:"ready"`
	// Seed runs once the service is ready, e.g. psql -f seed.sql.
	Seed []string `toml:"seed"`
	// Port is passed as {port} and $PORT; 0 picks a free one.
	Port int               `toml:"port"`
	Env  map[string]string `toml:"env"`
	// ReadyTimeout bounds the wait for Ready; 0 is 2 minutes.
	ReadyTimeout Duration `toml:"ready_timeout"`
}

// ServiceRecord is what run.json keeps of a service.
type ServiceRecord struct {
	Name     string  `json:"name"`
	Version  string  `json:"version"`
	Port     int     `json:"port"`
	StartupS float64 `json:"startup_s"`
	SeedS    float64 `json:"seed_s,omitempty"`
}

// serviceTimeout bounds a service's init, readiness and seed, each.
const serviceTimeout = 2 * time.Minute

// commandProbe bounds one run of a service's ready argv. A program such as
// pg_isready, run on a host through ssh and runuser, takes longer than an
// HTTP request: a bound as short as a target's (httpProbe) killed every
// poll before it could answer, and the service was never ready.
const commandProbe = 10 * time.Second

// runningService is a started service.
type runningService struct {
	Service
	proc    *Server
	port    int
	scratch string
	cred    *syscall.Credential
	host    *sshHost // the host it runs on; nil: here
}

// credential resolves a service's user, nil when none is asked or when
// fairbench does not run as root (it can then only run as itself).
func (sv Service) credential() (*syscall.Credential, error) {
	if sv.User == "" || os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup(sv.User)
	if err != nil {
		return nil, fmt.Errorf("service %s: user: %w", sv.Name, err)
	}
	uid, _ := strconv.ParseUint(u.Uid, 10, 32)
	gid, _ := strconv.ParseUint(u.Gid, 10, 32)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

// askVersion runs the service's version argv and returns its first line.
func (sv Service) askVersion(ctx context.Context) (Version, error) {
	path, err := exec.LookPath(sv.Version[0])
	if err != nil {
		return Version{}, fmt.Errorf("service %s: version: %s not found on PATH: install it first", sv.Name, sv.Version[0])
	}
	out, err := command(ctx, append([]string{path}, sv.Version[1:]...)).CombinedOutput()
	if err != nil {
		return Version{}, fmt.Errorf("service %s: version %q: %v\n%s", sv.Name, sv.Version, err, out)
	}
	first, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return Version{Path: path, Version: strings.TrimSpace(first), Asked: sv.Version}, nil
}

// startService starts sv and waits for it to be ready, then seeds it.
func startService(ctx context.Context, sv Service, base string) (*runningService, ServiceRecord, error) {
	rec := ServiceRecord{Name: sv.Name}
	cred, err := sv.credential()
	if err != nil {
		return nil, rec, err
	}
	rs := &runningService{Service: sv, cred: cred}
	if rs.port, err = claimPort(sv.Port); err != nil {
		return nil, rec, fmt.Errorf("service %s: %w", sv.Name, err)
	}
	rec.Port = rs.port
	if rs.scratch, err = os.MkdirTemp("", "fairbench-service-"+sv.Name+"-"); err != nil {
		return nil, rec, err
	}
	if cred != nil {
		if err := os.Chown(rs.scratch, int(cred.Uid), int(cred.Gid)); err != nil {
			rs.stop()
			return nil, rec, err
		}
	}
	dir := sv.Dir
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(base, dir)
	}
	if len(sv.Init) > 0 {
		if err := rs.runOnce(ctx, "init", sv.Init, dir); err != nil {
			rs.stop()
			return nil, rec, err
		}
	}
	if rs.proc, err = startProcess(sv.Name, rs.expand(sv.Start), dir, rs.env(), cred); err != nil {
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
// here or on its host, and records both times.
func (rs *runningService) readyAndSeed(ctx context.Context, rec *ServiceRecord, dir string) error {
	timeout := serviceTimeout
	if rs.ReadyTimeout > 0 {
		timeout = rs.ReadyTimeout.Std()
	}
	startup, err := rs.proc.WaitReady(ctx, timeout, commandProbe, func(ctx context.Context) bool { return rs.ready(ctx, dir) })
	if err != nil {
		return fmt.Errorf("service %s%s: %w", rs.Name, rs.where(), err)
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

// where is " on host <name>" for a service on a host, else "".
func (rs *runningService) where() string {
	if rs.host == nil {
		return ""
	}
	return " on host " + rs.host.spec.Name
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
	for _, k := range sortedKeys(rs.Env) {
		env = append(env, k+"="+rs.expand([]string{rs.Env[k]})[0])
	}
	return env
}

// command builds one of the service's argvs as its user, in its own
// process group, killed whole when ctx ends.
func (rs *runningService) command(ctx context.Context, argv []string, dir string) *exec.Cmd {
	argv = rs.expand(argv)
	cmd := command(ctx, argv)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), rs.env()...)
	cmd.SysProcAttr.Credential = rs.cred
	return cmd
}

// runOnce runs an init or seed argv to completion, here or on the host.
func (rs *runningService) runOnce(ctx context.Context, step string, argv []string, dir string) error {
	ctx, cancel := context.WithTimeout(ctx, serviceTimeout)
	defer cancel()
	if rs.host != nil {
		return rs.runOnceOn(ctx, step, argv, dir)
	}
	if out, err := rs.command(ctx, argv, dir).CombinedOutput(); err != nil {
		return fmt.Errorf("service %s: %s %q: %v\n%s", rs.Name, step, rs.expand(argv), err, out)
	}
	return nil
}

// ready runs the readiness argv, or connects to the port (on the host,
// see readyOn).
func (rs *runningService) ready(ctx context.Context, dir string) bool {
	if rs.host != nil {
		return rs.readyOn(ctx, dir)
	}
	if len(rs.Ready) == 0 {
		conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", "127.0.0.1:"+strconv.Itoa(rs.port))
		if err != nil {
			return false
		}
		conn.Close()
		return true
	}
	return rs.command(ctx, rs.Ready, dir).Run() == nil
}

// stop ends the service's process group and removes its scratch folder.
func (rs *runningService) stop() {
	if rs.proc != nil {
		rs.proc.Stop(10 * time.Second)
	}
	switch {
	case rs.scratch == "":
	case rs.host != nil:
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		rs.host.output(ctx, "rm -rf "+shellQuote(rs.scratch))
	default:
		os.RemoveAll(rs.scratch)
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
