package collect

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// binDir is the scratch folder of t's build outputs, {bin}: on the server
// host when there is one.
func (c *collector) binDir(t Target) string {
	if c.server != nil {
		return c.server.path("bin/" + t.Name)
	}
	return filepath.Join(c.bins, t.Name)
}

// remoteDir is where t's files are on the server host: its remote_dir, or
// the copy fairbench made of its dir.
func (c *collector) remoteDir(t Target) string {
	if t.RemoteDir != "" {
		return c.server.path(t.RemoteDir)
	}
	return c.server.path("targets/" + t.Name)
}

// buildOnServer copies t's dir to the server host (unless it is already
// there), runs its build argv there, timed, and measures its artifact there.
func (c *collector) buildOnServer(ctx context.Context, t Target) (buildS float64, artifact int64, err error) {
	h := c.server
	dir := c.remoteDir(t)
	if t.RemoteDir == "" {
		c.opt.Progress.Step(t.Name+": copying to host "+h.spec.Name, 0)
		if err := h.sync(ctx, c.targetDir(t), dir); err != nil {
			return 0, 0, err
		}
	}
	t = c.expanded(t)
	if len(t.Build) > 0 {
		c.opt.Progress.Step(t.Name+": building on host "+h.spec.Name, 0)
		script := "mkdir -p " + shellQuote(c.binDir(t)) + " && cd " + shellQuote(dir) + " && " + strings.Join(quoteAll(t.Build), " ") + " 2>&1"
		start := time.Now()
		if out, err := h.output(ctx, script); err != nil {
			return 0, 0, fmt.Errorf("build %q in %s on host %s: %v\n%s", t.Build, dir, h.spec.Name, err, out)
		}
		buildS = time.Since(start).Seconds()
	}
	if t.Artifact != "" {
		path := t.Artifact
		if !strings.HasPrefix(path, "/") {
			path = dir + "/" + path
		}
		q := shellQuote(path)
		out, err := h.output(ctx, "[ -e "+q+" ] || { echo "+q+": no such file >&2; exit 1; }; find "+q+" -type f -printf '%s\\n' | awk '{ s += $1 } END { print s + 0 }'")
		if err != nil {
			return buildS, 0, fmt.Errorf("artifact on host %s: %w", h.spec.Name, err)
		}
		if artifact, err = strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64); err != nil {
			return buildS, 0, fmt.Errorf("artifact on host %s: %q", h.spec.Name, out)
		}
	}
	return buildS, artifact, nil
}
