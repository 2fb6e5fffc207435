package collect

import (
	"context"
	"fmt"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/fairbench/fairbench/collect/loadgen"
	"github.com/fairbench/fairbench/collect/machine"
	"github.com/fairbench/fairbench/collect/pinning"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

// machine is where targets are built and run and load tools run: this
// one (localMachine) or an SSH host (*sshHost). A collector always holds
// a server machine and a client machine, the same local one when the
// suite names no hosts, and asks them the same things either way.
type Machine interface {
	// name is the host's name in the suite; "" here.
	name() string
	// address is where the client machine reaches a server on this one,
	// and the address the server listens on ($HOST).
	address() string
	// path is rel inside the machine's work folder; absolute paths stay.
	path(rel string) string
	// cachePath is rel inside the machine's cache folder, which outlives
	// collects: fairbench's folder in the user's cache folder here, the
	// work folder's cache/ on a host.
	cachePath(rel string) string
	// claimPort returns port when it is free there, or a free one when it is 0.
	claimPort(ctx context.Context, port int) (int, error)
	// start starts p as a process group of its own there and returns it
	// running.
	start(name string, p program) (*Server, error)
	// run runs p to its end and returns what it wrote to stdout and stderr.
	run(ctx context.Context, p program) ([]byte, error)
	// version runs a version argv there and returns its first line, with
	// the path of the program asked.
	version(ctx context.Context, argv []string) (runjson.Version, error)
	// listening reports whether something listens on port there.
	listening(ctx context.Context, port int) bool
	// scratchDir makes an empty folder for rel there, owned by user when
	// one is given and fairbench may give it away, and returns its path.
	scratchDir(ctx context.Context, rel, user string) (string, error)
	// mirror is where sync puts the local folder src: rel in the work
	// folder on a host, src itself here.
	mirror(src, rel string) string
	// sync copies the local folder src to dst there (mirror's path); here,
	// where dst is src, it does nothing.
	sync(ctx context.Context, src, dst string) error
	// readFiles returns the text of each file there; a file that cannot
	// be read is "" (a machine that cannot be asked is an error).
	readFiles(ctx context.Context, paths []string) (map[string]string, error)
	// goarch is the machine's architecture as Go names it (amd64, arm64).
	goarch() string
	// size is the size of a file there, or of every regular file below a folder.
	size(ctx context.Context, path string) (int64, error)
	// httpClient is an HTTP client whose connections start there.
	httpClient() *http.Client
	// tool is a load tool, runtime or service as found there; remember
	// keeps one found later.
	tool(name string) runjson.Version
	remember(name string, v runjson.Version)
	// provideTool makes the load tool name runnable there and says which
	// it is: here the one fairbench found (local); on an SSH host the
	// binary fairbench pins (bombardier, vegeta) copied there and checked
	// by sha256, or the host's own (wrk, autocannon) found on its PATH.
	provideTool(ctx context.Context, name string, local runjson.Version) (runjson.Version, error)
	// runTool runs a load tool's argv there, killed after limit. scratch
	// is the local folder of the files it needs, which argv names as
	// there (mirror's path).
	runTool(ctx context.Context, argv []string, scratch, there string, limit time.Duration) toolRun
}

// program is an argv to run on a machine: in dir (the machine's own when
// ""), with env added to the machine's, as user when one is given and
// fairbench runs as root there (services such as PostgreSQL refuse root).
type program struct {
	dir  string
	env  []string
	user string
	argv []string
}

// onMachine is " on host <name>" for an SSH host, "" here, for messages.
func onMachine(m Machine) string {
	if m.name() == "" {
		return ""
	}
	return " on host " + m.name()
}

// localMachine is this machine; its work folder is the run's scratch
// folder, its tools the ones found by preflight, its CPU topology read
// below roots (pinning.DefaultRoots; tests give a recorded tree), its
// cache folder cache ("": fairbench's in os.UserCacheDir).
type localMachine struct {
	dir   string
	tools map[string]runjson.Version
	roots pinning.Roots
	cache string
}

func (l *localMachine) tool(name string) runjson.Version        { return l.tools[name] }
func (l *localMachine) remember(name string, v runjson.Version) { l.tools[name] = v }

func (l *localMachine) provideTool(_ context.Context, _ string, local runjson.Version) (runjson.Version, error) {
	return local, nil
}

func (l *localMachine) name() string    { return "" }
func (l *localMachine) address() string { return "127.0.0.1" }

func (l *localMachine) path(rel string) string {
	if filepath.IsAbs(rel) {
		return rel
	}
	return filepath.Join(l.dir, rel)
}

func (l *localMachine) cachePath(rel string) string {
	dir := l.cache
	if dir == "" {
		user, err := os.UserCacheDir()
		if err != nil { // no $HOME: a cache no one shares
			user = os.TempDir()
		}
		dir = filepath.Join(user, "fairbench")
	}
	return filepath.Join(dir, rel)
}

func (l *localMachine) claimPort(_ context.Context, port int) (int, error) { return claimPort(port) }

func (l *localMachine) start(name string, p program) (*Server, error) {
	cred, err := credential(p.user)
	if err != nil {
		return nil, err
	}
	return startProcess(name, p.argv, p.dir, p.env, cred)
}

func (l *localMachine) run(ctx context.Context, p program) ([]byte, error) {
	cred, err := credential(p.user)
	if err != nil {
		return nil, err
	}
	cmd := machine.Command(ctx, p.argv)
	cmd.Dir = p.dir
	if len(p.env) > 0 {
		cmd.Env = append(os.Environ(), p.env...)
	}
	cmd.SysProcAttr.Credential = cred
	return cmd.CombinedOutput()
}

func (l *localMachine) version(ctx context.Context, argv []string) (runjson.Version, error) {
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return runjson.Version{}, fmt.Errorf("%s not found on PATH: install it first", argv[0])
	}
	out, err := machine.Command(ctx, append([]string{path}, argv[1:]...)).CombinedOutput()
	if err != nil {
		return runjson.Version{}, fmt.Errorf("%v\n%s", err, out)
	}
	first, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return runjson.Version{Path: path, Version: strings.TrimSpace(first), Asked: append([]string{path}, argv[1:]...)}, nil
}

func (l *localMachine) listening(ctx context.Context, port int) bool {
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		return false
	}
	conn.Close()
	return true
}

// scratchDir makes the folder in the system's temporary folder, which
// every user may traverse (the run's scratch folder is fairbench's alone).
func (l *localMachine) scratchDir(_ context.Context, rel, user string) (string, error) {
	dir, err := os.MkdirTemp("", "fairbench-"+strings.ReplaceAll(rel, "/", "-")+"-")
	if err != nil {
		return "", err
	}
	cred, err := credential(user)
	if err == nil && cred != nil {
		err = os.Chown(dir, int(cred.Uid), int(cred.Gid))
	}
	if err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}

// credential resolves user, nil when none is given or when fairbench does
// not run as root (it can then only run as itself).
func credential(name string) (*syscall.Credential, error) {
	if name == "" || os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("user %s: %w", name, err)
	}
	uid, _ := strconv.ParseUint(u.Uid, 10, 32)
	gid, _ := strconv.ParseUint(u.Gid, 10, 32)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

func (l *localMachine) httpClient() *http.Client { return gateClient }

func (l *localMachine) mirror(src, _ string) string { return src }

func (l *localMachine) sync(context.Context, string, string) error { return nil }

func (l *localMachine) size(_ context.Context, path string) (int64, error) { return sizeOf(path) }

func (l *localMachine) readFiles(_ context.Context, paths []string) (map[string]string, error) {
	files := map[string]string{}
	for _, p := range paths {
		b, _ := os.ReadFile(p)
		files[p] = string(b)
	}
	return files, nil
}

func (l *localMachine) goarch() string { return runtime.GOARCH }

// The SSH host as a machine; the rest of *sshHost is in remote.go.

func (h *sshHost) name() string { return h.spec.Name }

func (h *sshHost) tool(name string) runjson.Version        { return h.tools[name] }
func (h *sshHost) remember(name string, v runjson.Version) { h.tools[name] = v }

func (h *sshHost) provideTool(ctx context.Context, name string, local runjson.Version) (runjson.Version, error) {
	var v runjson.Version
	var err error
	if loadgen.CopiedTool(name) {
		v, err = h.copyTool(ctx, name, local)
	} else {
		v, err = askToolOnHost(ctx, h, name)
	}
	if err != nil {
		return v, fmt.Errorf("host %s: %w", h.spec.Name, err)
	}
	return v, nil
}

func (h *sshHost) cachePath(rel string) string { return h.path("cache/" + rel) }

func (h *sshHost) claimPort(ctx context.Context, port int) (int, error) {
	return remotePort(ctx, h, port)
}

func (h *sshHost) start(name string, p program) (*Server, error) {
	return startRemote(h, name, p.dir, p.env, h.asUser(p.user, p.argv), h.track)
}

func (h *sshHost) run(ctx context.Context, p program) ([]byte, error) {
	script := "exec"
	if len(p.env) > 0 {
		script += " env " + strings.Join(quoteAll(p.env), " ")
	}
	script += " " + strings.Join(quoteAll(h.asUser(p.user, p.argv)), " ") + " 2>&1"
	if p.dir != "" {
		script = "cd " + shellQuote(p.dir) + " && " + script
	}
	return h.output(ctx, script)
}

// asUser runs argv as user when one is given and the login is root.
func (h *sshHost) asUser(user string, argv []string) []string {
	if user == "" || !h.root {
		return argv
	}
	return append([]string{"runuser", "-u", user, "--"}, argv...)
}

func (h *sshHost) version(ctx context.Context, argv []string) (runjson.Version, error) {
	out, err := h.output(ctx, "command -v "+shellQuote(argv[0])+" && "+strings.Join(quoteAll(argv), " ")+" 2>&1")
	if err != nil {
		return runjson.Version{}, err
	}
	path, rest, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	first, _, _ := strings.Cut(strings.TrimSpace(rest), "\n")
	return runjson.Version{Path: path, Version: strings.TrimSpace(first), Asked: append([]string{"ssh", h.spec.Name}, argv...)}, nil
}

func (h *sshHost) listening(ctx context.Context, port int) bool {
	out, err := h.output(ctx, `ss -Hltn "sport = :`+strconv.Itoa(port)+`"`)
	return err == nil && len(strings.TrimSpace(string(out))) > 0
}

func (h *sshHost) scratchDir(ctx context.Context, rel, user string) (string, error) {
	dir := h.path(rel)
	script := "rm -rf " + shellQuote(dir) + " && mkdir -p " + shellQuote(dir)
	if user != "" && h.root {
		script += " && chown " + shellQuote(user) + " " + shellQuote(dir)
	}
	_, err := h.output(ctx, script)
	return dir, err
}

func (h *sshHost) httpClient() *http.Client { return viaHost(h) }

// readFiles cats every file in one command, each after a marker line.
func (h *sshHost) readFiles(ctx context.Context, paths []string) (map[string]string, error) {
	var b strings.Builder
	for _, p := range paths {
		b.WriteString("echo '==> " + p + "'; cat " + shellQuote(p) + " 2>/dev/null; ")
	}
	out, err := h.output(ctx, b.String())
	if err != nil {
		return nil, err
	}
	files := map[string]string{}
	var name string
	for _, l := range strings.SplitAfter(string(out), "\n") {
		if f, ok := strings.CutPrefix(l, "==> "); ok && slices.Contains(paths, strings.TrimSpace(f)) {
			name = strings.TrimSpace(f)
			continue
		}
		files[name] += l
	}
	delete(files, "")
	return files, nil
}

func (h *sshHost) goarch() string { return goArch(h.arch) }

func (h *sshHost) mirror(_, rel string) string { return h.path(rel) }

func (h *sshHost) size(ctx context.Context, path string) (int64, error) {
	q := shellQuote(path)
	out, err := h.output(ctx, "[ -e "+q+" ] || { echo "+q+": no such file >&2; exit 1; }; find "+q+" -type f -printf '%s\\n' | awk '{ s += $1 } END { print s + 0 }'")
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("size of %s: %q", path, out)
	}
	return n, nil
}

// startServer starts t on m in dir (a path there) with PORT set, and HOST,
// the address to listen on: the one the client machine reaches. Port 0
// picks a port that is free there.
func startServer(ctx context.Context, m Machine, t suite.Target, dir string, port int, cpus string) (*Server, error) {
	port, err := m.claimPort(ctx, port)
	if err != nil {
		return nil, err
	}
	env := []string{"PORT=" + strconv.Itoa(port), "HOST=" + m.address()}
	for _, k := range slices.Sorted(maps.Keys(t.Env)) {
		env = append(env, k+"="+t.Env[k])
	}
	s, err := m.start(t.Name, program{dir: dir, env: env, argv: pinned(cpus, t.Start)})
	if err != nil {
		return nil, err
	}
	s.Target, s.Port, s.addr = t, port, net.JoinHostPort(m.address(), strconv.Itoa(port))
	return s, nil
}

// StartServer starts t here in dir with PORT set (and HOST, the address to
// listen on: loopback), in its own process group. The port must be free;
// a port of 0 picks a free one.
func StartServer(t suite.Target, dir string, port int, cpus string) (*Server, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return startServer(ctx, &localMachine{}, t, dir, port, cpus)
}
