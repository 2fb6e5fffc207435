package loadgen

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/fairbench/fairbench/collect/machine"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

// Driver runs one load generator: it finds the binary, asks its version and
// builds its argv from the suite.
type Driver interface {
	// Name is the tool's name as in the suite: wrk, bombardier, autocannon.
	Name() string
	// Resolve finds (or fetches) the binary and asks it its version.
	Resolve(ctx context.Context) (runjson.Version, error)
	// Argv is the command line for one run against url. dir is a scratch
	// folder for files the tool needs (a Lua script for wrk). The tool must
	// write its whole result to stdout.
	Argv(bin, url string, req suite.Request, load suite.Load, window time.Duration, dir string) ([]string, error)
}

// DriverFor returns the driver of a tool named in a suite.
func DriverFor(tool string) (Driver, error) {
	switch tool {
	case "bombardier":
		return bombardier{}, nil
	case "wrk":
		return wrk{}, nil
	case "autocannon":
		return autocannon{}, nil
	case "vegeta":
		return Vegeta{}, nil // the [latency] phase's, not a [load] tool
	}
	return nil, fmt.Errorf("load tool %q is not supported (supported: autocannon, bombardier, wrk; vegeta in [latency])", tool)
}

// CopiedTool reports whether a tool is the binary pinned here, copied to a
// client host (the Go tools), rather than the host's own.
func CopiedTool(name string) bool { return name == "bombardier" || name == "vegeta" }

// goModuleVersion asks the go command which module version a binary was built from.
func goModuleVersion(ctx context.Context, path, module string) (runjson.Version, error) {
	asked := []string{"go", "version", "-m", path}
	out, err := machine.Command(ctx, asked).Output()
	if err != nil {
		return runjson.Version{}, fmt.Errorf("go version -m %s: %w", path, err)
	}
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(l)
		if len(f) >= 3 && f[0] == "mod" && f[1] == module {
			return runjson.Version{Path: path, Version: f[2], Asked: asked}, nil
		}
	}
	return runjson.Version{}, fmt.Errorf("%s was not built from %s", path, module)
}

// pinnedTool describes a load generator fairbench runs at one version: found on
// PATH when it is that version, otherwise installed once into the cache.
type pinnedTool struct {
	name    string                                                          // the binary's name on PATH
	version string                                                          // as ask reports it
	cached  string                                                          // the binary's path once installed in the cache
	ask     func(ctx context.Context, path string) (runjson.Version, error) // asks a binary its version
	install func(ctx context.Context) error                                 // installs the pinned version at cached
}

// resolve finds the pinned binary, installing it when needed, and returns
// what it says of itself.
func (p pinnedTool) resolve(ctx context.Context) (runjson.Version, error) {
	if path, err := exec.LookPath(p.name); err == nil {
		if v, err := p.ask(ctx, path); err == nil && v.Version == p.version {
			return v, nil
		}
	}
	if _, err := os.Stat(p.cached); err != nil {
		if err := p.install(ctx); err != nil {
			return runjson.Version{}, err
		}
	}
	return p.ask(ctx, p.cached)
}

// goTool is a load generator written in Go, pinned to module@version: its
// version is asked with `go version -m`, and it is installed with
// `go install` into the cache folder <name>-<version>.
func goTool(name, module, version string) pinnedTool {
	bin := filepath.Join(cacheDir(), name+"-"+version)
	return pinnedTool{
		name:    name,
		version: version,
		cached:  filepath.Join(bin, name),
		ask: func(ctx context.Context, path string) (runjson.Version, error) {
			return goModuleVersion(ctx, path, module)
		},
		install: func(ctx context.Context) error {
			goBin, err := exec.LookPath("go")
			if err != nil {
				return fmt.Errorf("%s not found on PATH and no go command to build it: go install %s@%s", name, module, version)
			}
			cmd := machine.Command(ctx, []string{goBin, "install", module + "@" + version})
			cmd.Env = append(os.Environ(), "GOBIN="+bin)
			if out, err := cmd.CombinedOutput(); err != nil {
				return fmt.Errorf("go install %s@%s: %v\n%s", module, version, err, out)
			}
			return nil
		},
	}
}

// cacheDir is fairbench's folder in the user's cache, where pinned tools
// are installed on first use.
func cacheDir() string {
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	return filepath.Join(cache, "fairbench")
}

// wholeSeconds rounds a window to whole seconds, at least one, for tools
// that take seconds.
func wholeSeconds(d time.Duration) int {
	return max(1, int(d.Round(time.Second)/time.Second))
}

// ToolEnv is the environment variable that names a load tool's binary
// instead of the one Resolve finds: FAIRBENCH_BOMBARDIER, FAIRBENCH_WRK,
// FAIRBENCH_AUTOCANNON. It is meant for trying a build of the tool and for
// fault injection in tests; run.json records the path and whatever version
// the binary gives of itself.
func ToolEnv(tool string) string { return "FAIRBENCH_" + strings.ToUpper(tool) }

// OverriddenTool checks the binary named by ToolEnv and asks its version the
// way the tool's driver does; a binary that cannot tell its version is
// recorded as "unknown".
func OverriddenTool(ctx context.Context, tool, path string) (runjson.Version, error) {
	info, err := os.Stat(path)
	if err != nil {
		return runjson.Version{}, fmt.Errorf("%s=%s: %w", ToolEnv(tool), path, err)
	}
	if !info.Mode().IsRegular() || info.Mode().Perm()&0o111 == 0 {
		return runjson.Version{}, fmt.Errorf("%s=%s: not an executable file: chmod +x it or unset %s", ToolEnv(tool), path, ToolEnv(tool))
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	var v runjson.Version
	switch tool {
	case "bombardier":
		v, err = goModuleVersion(ctx, path, BombardierModule)
	case "wrk":
		v, err = wrkVersion(ctx, path)
	case "autocannon":
		v, err = autocannonVersion(ctx, path)
	case "vegeta":
		v, err = goModuleVersion(ctx, path, VegetaModule)
	default:
		err = fmt.Errorf("no version asker for %s", tool)
	}
	if err != nil {
		return runjson.Version{Path: path, Version: "unknown"}, nil
	}
	return v, nil
}
