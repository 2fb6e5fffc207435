package machine

import (
	"context"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"github.com/fairbench/fairbench/collect/pinning"
	"github.com/fairbench/fairbench/parse/runjson"
)

// Local is this machine; its work folder is the run's scratch
// folder, its tools the ones found by preflight, its CPU topology read
// below Roots (pinning.DefaultRoots; tests give a recorded tree), its
// cache folder Cache ("": fairbench's in os.UserCacheDir), its HTTP
// client Client (collect's gate client).
type Local struct {
	Dir    string                     // the work folder
	Tools  map[string]runjson.Version // tools, runtimes and services found here
	Roots  pinning.Roots              // where the CPU topology is read
	Cache  string                     // the cache folder; "": the user's
	Client *http.Client               // the client for targets here
}

// Tool is the tool found here by that name.
func (l *Local) Tool(name string) runjson.Version { return l.Tools[name] }

// Remember keeps v as the tool found here by that name.
func (l *Local) Remember(name string, v runjson.Version) { l.Tools[name] = v }

// Name is "": this machine has no name in the suite.
func (l *Local) Name() string { return "" }

// Address is loopback: targets here listen on it.
func (l *Local) Address() string { return "127.0.0.1" }

// Path is rel inside the work folder Dir; absolute paths stay.
func (l *Local) Path(rel string) string {
	if filepath.IsAbs(rel) {
		return rel
	}
	return filepath.Join(l.Dir, rel)
}

// CachePath is rel inside Cache, or inside fairbench's folder in the
// user's cache folder when Cache is "".
func (l *Local) CachePath(rel string) string {
	dir := l.Cache
	if dir == "" {
		user, err := os.UserCacheDir()
		if err != nil { // no $HOME: a cache no one shares
			user = os.TempDir()
		}
		dir = filepath.Join(user, "fairbench")
	}
	return filepath.Join(dir, rel)
}

// ClaimPort returns port when it is free here, or a free one when it is 0.
func (l *Local) ClaimPort(_ context.Context, port int) (int, error) { return claimPort(port) }

// Start starts p here as a process group of its own.
func (l *Local) Start(name string, p Program) (*Server, error) {
	cred, err := credential(p.User)
	if err != nil {
		return nil, err
	}
	return startProcess(name, p.Argv, p.Dir, p.Env, cred)
}

// Run runs p here to its end and returns its stdout and stderr.
func (l *Local) Run(ctx context.Context, p Program) ([]byte, error) {
	cred, err := credential(p.User)
	if err != nil {
		return nil, err
	}
	cmd := Command(ctx, p.Argv)
	cmd.Dir = p.Dir
	if len(p.Env) > 0 {
		cmd.Env = append(os.Environ(), p.Env...)
	}
	cmd.SysProcAttr.Credential = cred
	return cmd.CombinedOutput()
}

// Version finds argv[0] on PATH, runs argv and returns its first line.
func (l *Local) Version(ctx context.Context, argv []string) (runjson.Version, error) {
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return runjson.Version{}, fmt.Errorf("%s not found on PATH: install it first", argv[0])
	}
	out, err := Command(ctx, append([]string{path}, argv[1:]...)).CombinedOutput()
	if err != nil {
		return runjson.Version{}, fmt.Errorf("%v\n%s", err, out)
	}
	first, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return runjson.Version{Path: path, Version: strings.TrimSpace(first), Asked: append([]string{path}, argv[1:]...)}, nil
}

// Listening reports whether something accepts connections on the loopback port.
func (l *Local) Listening(ctx context.Context, port int) bool {
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		return false
	}
	conn.Close()
	return true
}

// ScratchDir makes the folder in the system's temporary folder, which
// every user may traverse (the run's scratch folder is fairbench's alone).
func (l *Local) ScratchDir(_ context.Context, rel, user string) (string, error) {
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

// HTTPClient is Client.
func (l *Local) HTTPClient() *http.Client { return l.Client }

// Mirror is src itself: the local folder is here already.
func (l *Local) Mirror(src, _ string) string { return src }

// Sync does nothing: the local folder is here already.
func (l *Local) Sync(context.Context, string, string) error { return nil }

// Size is the size of a local file, or of every regular file below a folder.
func (l *Local) Size(_ context.Context, path string) (int64, error) { return sizeOf(path) }

// ReadFiles reads each local file; one that cannot be read is "".
func (l *Local) ReadFiles(_ context.Context, paths []string) (map[string]string, error) {
	files := map[string]string{}
	for _, p := range paths {
		b, _ := os.ReadFile(p)
		files[p] = string(b)
	}
	return files, nil
}

// GoArch is the architecture fairbench was built for.
func (l *Local) GoArch() string { return runtime.GOARCH }

// sizeOf is the size of a file, or of every regular file below a folder.
func sizeOf(path string) (int64, error) {
	var total int64
	err := filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			total += info.Size()
		}
		return nil
	})
	return total, err
}
