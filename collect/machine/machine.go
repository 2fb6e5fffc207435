package machine

import (
	"context"
	"maps"
	"net"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

// Machine is where targets are built and run and load tools run: this
// one (*Local) or an SSH host (*SSHHost). A collector always holds
// a server machine and a client machine, the same local one when the
// suite names no hosts, and asks them the same things either way.
type Machine interface {
	// Name is the host's name in the suite; "" here.
	Name() string
	// Address is where the client machine reaches a server on this one,
	// and the address the server listens on ($HOST).
	Address() string
	// Path is rel inside the machine's work folder; absolute paths stay.
	Path(rel string) string
	// CachePath is rel inside the machine's cache folder, which outlives
	// collects: fairbench's folder in the user's cache folder here, the
	// work folder's cache/ on a host.
	CachePath(rel string) string
	// ClaimPort returns port when it is free there, or a free one when it is 0.
	ClaimPort(ctx context.Context, port int) (int, error)
	// Start starts p as a process group of its own there and returns it
	// running.
	Start(name string, p Program) (*Server, error)
	// Run runs p to its end and returns what it wrote to stdout and stderr.
	Run(ctx context.Context, p Program) ([]byte, error)
	// Version runs a version argv there and returns its first line, with
	// the path of the program asked.
	Version(ctx context.Context, argv []string) (runjson.Version, error)
	// Listening reports whether something listens on port there.
	Listening(ctx context.Context, port int) bool
	// ScratchDir makes an empty folder for rel there, owned by user when
	// one is given and fairbench may give it away, and returns its path.
	ScratchDir(ctx context.Context, rel, user string) (string, error)
	// Mirror is where Sync puts the local folder src: rel in the work
	// folder on a host, src itself here.
	Mirror(src, rel string) string
	// Sync copies the local folder src to dst there (Mirror's path); here,
	// where dst is src, it does nothing.
	Sync(ctx context.Context, src, dst string) error
	// ReadFiles returns the text of each file there; a file that cannot
	// be read is "" (a machine that cannot be asked is an error).
	ReadFiles(ctx context.Context, paths []string) (map[string]string, error)
	// GoArch is the machine's architecture as Go names it (amd64, arm64).
	GoArch() string
	// Size is the size of a file there, or of every regular file below a folder.
	Size(ctx context.Context, path string) (int64, error)
	// HTTPClient is an HTTP client whose connections start there.
	HTTPClient() *http.Client
	// Tool is a load tool, runtime or service as found there.
	Tool(name string) runjson.Version
	// Remember keeps one found later.
	Remember(name string, v runjson.Version)
	// RunTool runs a load tool's argv there, killed after limit. scratch
	// is the local folder of the files it needs, which argv names as
	// there (Mirror's path).
	RunTool(ctx context.Context, argv []string, scratch, there string, limit time.Duration) ToolRun
}

// Program is an argv to run on a machine: in dir (the machine's own when
// ""), with env added to the machine's, as user when one is given and
// fairbench runs as root there (services such as PostgreSQL refuse root).
type Program struct {
	Dir  string   // where it runs; "" is the machine's own folder
	Env  []string // KEY=value added to the machine's environment
	User string   // whom it runs as, when fairbench is root there
	Argv []string // the command and its arguments
}

// OnMachine is " on host <name>" for an SSH host, "" here, for messages.
func OnMachine(m Machine) string {
	if m.Name() == "" {
		return ""
	}
	return " on host " + m.Name()
}

// StartServer starts t on m in dir (a path there) with PORT set, and HOST,
// the address to listen on: the one the client machine reaches. Port 0
// picks a port that is free there.
func StartServer(ctx context.Context, m Machine, t suite.Target, dir string, port int, cpus string) (*Server, error) {
	port, err := m.ClaimPort(ctx, port)
	if err != nil {
		return nil, err
	}
	env := []string{"PORT=" + strconv.Itoa(port), "HOST=" + m.Address()}
	for _, k := range slices.Sorted(maps.Keys(t.Env)) {
		env = append(env, k+"="+t.Env[k])
	}
	s, err := m.Start(t.Name, Program{Dir: dir, Env: env, Argv: Pinned(cpus, t.Start)})
	if err != nil {
		return nil, err
	}
	s.Target, s.Port, s.addr = t, port, net.JoinHostPort(m.Address(), strconv.Itoa(port))
	return s, nil
}
