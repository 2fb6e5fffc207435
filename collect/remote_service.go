package collect

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/fairbench/fairbench/parse/manifest"
)

// Services of a suite with hosts run on the server host, beside the
// targets, so that a target reaches them as it would here: on 127.0.0.1 at
// {<service>.port}. Their argvs run there under the service's user (with
// runuser, when the login is root), their dir is copied there like a
// target's, and {dir} is a scratch folder in the host's work folder.

// startServiceOn starts sv on h, waits for it to be ready and seeds it.
func (c *collector) startServiceOn(ctx context.Context, h *sshHost, sv Service) (*runningService, manifest.Service, error) {
	rec := manifest.Service{Name: sv.Name}
	rs := &runningService{Service: sv, host: h}
	v, err := rs.askVersionOn(ctx)
	if err != nil {
		return nil, rec, err
	}
	h.tools[sv.Name] = v
	rec.Version = v.Version
	if rs.port, err = remotePort(ctx, h, sv.Port); err != nil {
		return nil, rec, fmt.Errorf("service %s: %w", sv.Name, err)
	}
	rec.Port = rs.port
	rs.scratch = h.path("services/" + sv.Name)
	prepare := "rm -rf " + shellQuote(rs.scratch) + " && mkdir -p " + shellQuote(rs.scratch)
	if sv.User != "" && h.root {
		prepare += " && chown " + shellQuote(sv.User) + " " + shellQuote(rs.scratch)
	}
	if _, err := h.output(ctx, prepare); err != nil {
		return nil, rec, fmt.Errorf("service %s: scratch folder on host %s: %w", sv.Name, h.spec.Name, err)
	}
	dir := h.dir
	if sv.Dir != "" {
		dir = h.path("services/" + sv.Name + "-files")
		c.opt.Progress.Step("service "+sv.Name+": copying to host "+h.spec.Name, 0)
		if err := h.sync(ctx, c.serviceDir(sv), dir); err != nil {
			rs.stop()
			return nil, rec, err
		}
	}
	if len(sv.Init) > 0 {
		if err := rs.runOnce(ctx, "init", sv.Init, dir); err != nil {
			rs.stop()
			return nil, rec, err
		}
	}
	if rs.proc, err = startRemote(h, sv.Name, dir, rs.env(), rs.asUser(rs.expand(sv.Start)), c); err != nil {
		rs.stop()
		return nil, rec, err
	}
	if err := rs.readyAndSeed(ctx, &rec, dir); err != nil {
		rs.stop()
		return nil, rec, err
	}
	return rs, rec, nil
}

// asUser runs argv as the service's user when the host's login is root.
func (rs *runningService) asUser(argv []string) []string {
	if rs.User == "" || !rs.host.root {
		return argv
	}
	return append([]string{"runuser", "-u", rs.User, "--"}, argv...)
}

// script is argv in dir with the service's environment, as a shell command.
func (rs *runningService) script(argv []string, dir string) string {
	return "cd " + shellQuote(dir) + " && exec env " + strings.Join(quoteAll(rs.env()), " ") + " " +
		strings.Join(quoteAll(rs.asUser(rs.expand(argv))), " ")
}

// askVersionOn runs the version argv on the host; its first line is the version.
func (rs *runningService) askVersionOn(ctx context.Context) (manifest.Version, error) {
	h := rs.host
	out, err := h.output(ctx, "command -v "+shellQuote(rs.Version[0])+" && "+strings.Join(quoteAll(rs.Version), " ")+" 2>&1")
	if err != nil {
		return manifest.Version{}, fmt.Errorf("service %s: version %q on host %s: %w", rs.Name, rs.Version, h.spec.Name, err)
	}
	path, rest, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	first, _, _ := strings.Cut(strings.TrimSpace(rest), "\n")
	return manifest.Version{Path: path, Version: strings.TrimSpace(first), Asked: append([]string{"ssh", h.spec.Name}, rs.Version...)}, nil
}

// runOnceOn runs an init or seed argv on the host to completion.
func (rs *runningService) runOnceOn(ctx context.Context, step string, argv []string, dir string) error {
	if out, err := rs.host.output(ctx, rs.script(argv, dir)+" 2>&1"); err != nil {
		return fmt.Errorf("service %s: %s %q on host %s: %v\n%s", rs.Name, step, rs.expand(argv), rs.host.spec.Name, err, out)
	}
	return nil
}

// readyOn runs the readiness argv on the host, or asks its `ss` whether
// the port is listened on.
func (rs *runningService) readyOn(ctx context.Context, dir string) bool {
	if len(rs.Ready) == 0 {
		out, err := rs.host.output(ctx, `ss -Hltn "sport = :`+strconv.Itoa(rs.port)+`"`)
		return err == nil && len(strings.TrimSpace(string(out))) > 0
	}
	_, err := rs.host.output(ctx, rs.script(rs.Ready, dir))
	return err == nil
}
