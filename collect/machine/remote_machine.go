package machine

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/fairbench/fairbench/parse/runjson"
)

// The SSH host as a Machine; the rest of *SSHHost is in remote.go.

// Name is the host's name in the suite.
func (h *SSHHost) Name() string { return h.Spec.Name }

// Tool is the tool found on the host by that name.
func (h *SSHHost) Tool(name string) runjson.Version { return h.Tools[name] }

// Remember keeps v as the tool found on the host by that name.
func (h *SSHHost) Remember(name string, v runjson.Version) { h.Tools[name] = v }

// CachePath is rel inside the work folder's cache/.
func (h *SSHHost) CachePath(rel string) string { return h.Path("cache/" + rel) }

// ClaimPort returns port when it is free on the host, or a free one
// when it is 0, asking the host's own `ss`.
func (h *SSHHost) ClaimPort(ctx context.Context, port int) (int, error) {
	return remotePort(ctx, h, port)
}

// Start starts p on the host as a process group of its own, tracked
// by Track until it ends.
func (h *SSHHost) Start(name string, p Program) (*Server, error) {
	return startRemote(h, name, p.Dir, p.Env, h.asUser(p.User, p.Argv), h.Track)
}

// Run runs p on the host to its end and returns its stdout and stderr.
func (h *SSHHost) Run(ctx context.Context, p Program) ([]byte, error) {
	script := "exec"
	if len(p.Env) > 0 {
		script += " env " + strings.Join(quoteAll(p.Env), " ")
	}
	script += " " + strings.Join(quoteAll(h.asUser(p.User, p.Argv)), " ") + " 2>&1"
	if p.Dir != "" {
		script = "cd " + shellQuote(p.Dir) + " && " + script
	}
	return h.Output(ctx, script)
}

// asUser runs argv as user when one is given and the login is root.
func (h *SSHHost) asUser(user string, argv []string) []string {
	if user == "" || !h.root {
		return argv
	}
	return append([]string{"runuser", "-u", user, "--"}, argv...)
}

// Version finds argv[0] on the host's PATH, runs argv there and
// returns its first line.
func (h *SSHHost) Version(ctx context.Context, argv []string) (runjson.Version, error) {
	out, err := h.Output(ctx, "command -v "+shellQuote(argv[0])+" && "+strings.Join(quoteAll(argv), " ")+" 2>&1")
	if err != nil {
		return runjson.Version{}, err
	}
	path, rest, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	first, _, _ := strings.Cut(strings.TrimSpace(rest), "\n")
	return runjson.Version{Path: path, Version: strings.TrimSpace(first), Asked: append([]string{"ssh", h.Spec.Name}, argv...)}, nil
}

// Listening reports whether something listens on port on the host.
func (h *SSHHost) Listening(ctx context.Context, port int) bool {
	out, err := h.Output(ctx, `ss -Hltn "sport = :`+strconv.Itoa(port)+`"`)
	return err == nil && len(strings.TrimSpace(string(out))) > 0
}

// ScratchDir empties or makes rel in the work folder, owned by user when
// one is given and the login is root.
func (h *SSHHost) ScratchDir(ctx context.Context, rel, user string) (string, error) {
	dir := h.Path(rel)
	script := "rm -rf " + shellQuote(dir) + " && mkdir -p " + shellQuote(dir)
	if user != "" && h.root {
		script += " && chown " + shellQuote(user) + " " + shellQuote(dir)
	}
	_, err := h.Output(ctx, script)
	return dir, err
}

// HTTPClient is a client whose connections start on the host (viaHost).
func (h *SSHHost) HTTPClient() *http.Client { return viaHost(h) }

// ReadFiles cats every file in one command, each after a marker line.
func (h *SSHHost) ReadFiles(ctx context.Context, paths []string) (map[string]string, error) {
	var b strings.Builder
	for _, p := range paths {
		b.WriteString("echo '==> " + p + "'; cat " + shellQuote(p) + " 2>/dev/null; ")
	}
	out, err := h.Output(ctx, b.String())
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

// GoArch is the host's architecture as Go names it.
func (h *SSHHost) GoArch() string { return goArch(h.arch) }

// Mirror is rel in the host's work folder.
func (h *SSHHost) Mirror(_, rel string) string { return h.Path(rel) }

// Size is the size of a file on the host, or of every regular file
// below a folder.
func (h *SSHHost) Size(ctx context.Context, path string) (int64, error) {
	q := shellQuote(path)
	out, err := h.Output(ctx, "[ -e "+q+" ] || { echo "+q+": no such file >&2; exit 1; }; find "+q+" -type f -printf '%s\\n' | awk '{ s += $1 } END { print s + 0 }'")
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("size of %s: %q", path, out)
	}
	return n, nil
}
