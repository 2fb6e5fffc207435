package collect

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Driver runs one load generator: it finds the binary, asks its version and
// builds its argv from the suite.
type Driver interface {
	// Name is the tool's name as in the suite: wrk, bombardier, autocannon.
	Name() string
	// Resolve finds (or fetches) the binary and asks it its version.
	Resolve(ctx context.Context) (Version, error)
	// Argv is the command line for one run against url. dir is a scratch
	// folder for files the tool needs (a Lua script for wrk).
	Argv(bin, url string, req Request, load Load, window time.Duration, dir string) ([]string, error)
}

// DriverFor returns the driver of a tool named in a suite.
func DriverFor(tool string) (Driver, error) {
	switch tool {
	case "bombardier":
		return bombardier{}, nil
	case "wrk":
		return wrk{}, nil
	}
	return nil, fmt.Errorf("load tool %q is not supported yet (supported: bombardier, wrk)", tool)
}

// BombardierModule and BombardierVersion pin the bombardier fairbench runs.
const (
	BombardierModule  = "github.com/codesenberg/bombardier"
	BombardierVersion = "v1.2.6"
)

type bombardier struct{}

func (bombardier) Name() string { return "bombardier" }

// Resolve takes bombardier from PATH when it is the pinned version, and
// otherwise builds the pinned version with the go command into the user's
// cache folder (once).
func (bombardier) Resolve(ctx context.Context) (Version, error) {
	if path, err := exec.LookPath("bombardier"); err == nil {
		if v, err := goModuleVersion(ctx, path, BombardierModule); err == nil && v.Version == BombardierVersion {
			return v, nil
		}
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	bin := filepath.Join(cache, "fairbench", "bombardier-"+BombardierVersion)
	path := filepath.Join(bin, "bombardier")
	if _, err := os.Stat(path); err != nil {
		goBin, err := exec.LookPath("go")
		if err != nil {
			return Version{}, fmt.Errorf("bombardier not found on PATH and no go command to build it: go install %s@%s", BombardierModule, BombardierVersion)
		}
		cmd := exec.CommandContext(ctx, goBin, "install", BombardierModule+"@"+BombardierVersion)
		cmd.Env = append(os.Environ(), "GOBIN="+bin)
		if out, err := cmd.CombinedOutput(); err != nil {
			return Version{}, fmt.Errorf("go install %s@%s: %v\n%s", BombardierModule, BombardierVersion, err, out)
		}
	}
	return goModuleVersion(ctx, path, BombardierModule)
}

func (bombardier) Argv(bin, url string, req Request, l Load, window time.Duration, dir string) ([]string, error) {
	argv := []string{bin,
		"-c", strconv.Itoa(l.Connections),
		"-d", window.String(),
		"-t", l.Timeout.Std().String(),
		"-l", "-p", "r", "-o", "json",
	}
	if req.Method != "" && req.Method != "GET" {
		argv = append(argv, "-m", req.Method)
	}
	for _, k := range sortedKeys(req.Headers) {
		argv = append(argv, "-H", k+": "+req.Headers[k])
	}
	if req.Body != "" {
		argv = append(argv, "-b", req.Body)
	}
	return append(argv, url), nil
}

// goModuleVersion asks the go command which module version a binary was built from.
func goModuleVersion(ctx context.Context, path, module string) (Version, error) {
	asked := []string{"go", "version", "-m", path}
	out, err := exec.CommandContext(ctx, asked[0], asked[1:]...).Output()
	if err != nil {
		return Version{}, fmt.Errorf("go version -m %s: %w", path, err)
	}
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(l)
		if len(f) >= 3 && f[0] == "mod" && f[1] == module {
			return Version{Path: path, Version: f[2], Asked: asked}, nil
		}
	}
	return Version{}, fmt.Errorf("%s was not built from %s", path, module)
}

type wrk struct{}

func (wrk) Name() string { return "wrk" }

func (wrk) Resolve(ctx context.Context) (Version, error) {
	path, err := exec.LookPath("wrk")
	if err != nil {
		return Version{}, fmt.Errorf("wrk not found on PATH: apt-get install wrk")
	}
	asked := []string{path, "-v"}
	// wrk -v prints its version and usage and exits 1.
	out, _ := exec.CommandContext(ctx, path, "-v").CombinedOutput()
	first, _, _ := bytes.Cut(out, []byte("\n"))
	v := strings.TrimSpace(string(first))
	if !strings.HasPrefix(v, "wrk ") {
		return Version{}, fmt.Errorf("%s -v did not print a wrk version: %q", path, v)
	}
	return Version{Path: path, Version: v, Asked: asked}, nil
}

func (wrk) Argv(bin, url string, req Request, l Load, window time.Duration, dir string) ([]string, error) {
	secs := int(window.Round(time.Second) / time.Second)
	if secs < 1 {
		secs = 1
	}
	argv := []string{bin,
		"-t", strconv.Itoa(l.Threads),
		"-c", strconv.Itoa(l.Connections),
		"-d", strconv.Itoa(secs) + "s",
		"--timeout", strconv.Itoa(max(1, int(l.Timeout.Std()/time.Second))) + "s",
		"--latency",
	}
	if (req.Method != "" && req.Method != "GET") || req.Body != "" || len(req.Headers) > 0 {
		script := filepath.Join(dir, "request.lua")
		if err := os.WriteFile(script, []byte(wrkScript(req)), 0o644); err != nil {
			return nil, err
		}
		argv = append(argv, "-s", script)
	}
	return append(argv, url), nil
}

// wrkScript is a Lua script that sets wrk's method, headers and body.
func wrkScript(req Request) string {
	var b strings.Builder
	if req.Method != "" {
		fmt.Fprintf(&b, "wrk.method = %s\n", luaString(req.Method))
	}
	for _, k := range sortedKeys(req.Headers) {
		fmt.Fprintf(&b, "wrk.headers[%s] = %s\n", luaString(k), luaString(req.Headers[k]))
	}
	if req.Body != "" {
		fmt.Fprintf(&b, "wrk.body = %s\n", luaString(req.Body))
	}
	return b.String()
}

// luaString quotes s as a Lua string literal with decimal escapes.
func luaString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			fmt.Fprintf(&b, "\\%d", c)
			continue
		}
		b.WriteByte(c)
	}
	b.WriteByte('"')
	return b.String()
}
