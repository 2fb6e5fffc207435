package collect

import (
	"context"
	"path"
	"strings"

	"github.com/fairbench/fairbench/collect/machine"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

// runtimeFlags is how each runtime is asked its version.
var runtimeFlags = map[string]string{"go": "version", "node": "--version", "bun": "--version", "deno": "--version"}

// runtimeVersion asks a target's runtime ("go", "node", "bun", "deno") on
// m for its version.
func runtimeVersion(ctx context.Context, m machine.Machine, t suite.Target, dir string) (runjson.Version, bool) {
	argv, ok := runtimeArgv(t, dir)
	if !ok {
		return runjson.Version{}, false
	}
	v, err := m.Version(ctx, argv)
	return v, err == nil
}

// askRuntimes asks the runtime of each target on m its version, which m
// remembers, each binary once: four Go targets ask `go version` once.
func askRuntimes(ctx context.Context, m machine.Machine, targets []suite.Target, dir func(suite.Target) string) {
	asked := map[string]bool{}
	for _, t := range targets {
		argv, ok := runtimeArgv(t, dir(t))
		key := strings.Join(argv, "\x00")
		if !ok || asked[key] {
			continue
		}
		asked[key] = true
		if v, err := m.Version(ctx, argv); err == nil {
			m.Remember(t.Runtime, v)
		}
	}
}

// runtimeArgv is how a target's runtime is asked its version. When the
// target starts the runtime by a path of its own (node_modules/.bin/bun,
// relative to dir), that binary is asked; otherwise the one on the
// machine's PATH. ok is false for a target without a known runtime.
func runtimeArgv(t suite.Target, dir string) (argv []string, ok bool) {
	flag := runtimeFlags[t.Runtime]
	if flag == "" {
		return nil, false
	}
	bin := t.Runtime
	if len(t.Start) > 0 && strings.Contains(t.Start[0], "/") && path.Base(t.Start[0]) == t.Runtime {
		bin = t.Start[0]
		if !path.IsAbs(bin) {
			bin = path.Join(dir, bin)
		}
	}
	return []string{bin, flag}, true
}
