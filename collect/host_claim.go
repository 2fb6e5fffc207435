package collect

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/fairbench/fairbench/collect/machine"
)

// A collect claims its folder of {bin}s on every SSH host it uses, and
// removes what dead collects left there, before it starts anything
// (machine.SSHHost.Claim says how a live collect is told from a dead one).
// A killed collect's folder and servers thus last until the next collect
// or verify to reach that host, or the -resume that finishes its run.

// claimHosts claims c.binRun on every host and says what it removed.
func (c *collector) claimHosts(ctx context.Context) error {
	owner := c.ownerLine()
	for _, h := range c.hosts {
		rep, err := h.Claim(ctx, c.binRun, owner)
		if err != nil {
			return err
		}
		for _, line := range claimNotes(h.Spec.Name, rep) {
			c.opt.Progress.Note(line)
		}
	}
	return nil
}

// ownerLine is what this collect writes of itself on a host, for the
// messages of a collect that finds it gone.
func (c *collector) ownerLine() string {
	here, _ := os.Hostname()
	what := "verify"
	if c.dir != nil {
		what = "collect of " + c.dir.Path
	}
	return fmt.Sprintf("fairbench %s, pid %d on %s, started %s", what, os.Getpid(), here, c.opt.Now().UTC().Format("2006-01-02 15:04:05Z"))
}

// claimNotes words what a claim found on host.
func claimNotes(host string, rep machine.ClaimReport) []string {
	var out []string
	for _, r := range rep.Reaped {
		line := fmt.Sprintf("host %s: removed %s, left by a collect that is gone (%s)", host, r.Folder, r.Owner)
		if len(r.Ended) > 0 {
			line += "; ended what it left running: " + describeEnded(r.Ended)
		}
		out = append(out, line)
	}
	if len(rep.Earlier) > 0 {
		out = append(out, fmt.Sprintf("host %s: ended what an earlier session of this run left running: %s", host, describeEnded(rep.Earlier)))
	}
	if len(rep.Unowned) > 0 {
		out = append(out, fmt.Sprintf("host %s: %s: no owner recorded (left by an older fairbench?): remove by hand when no collect uses the host", host, strings.Join(rep.Unowned, ", ")))
	}
	if rep.NoLock {
		out = append(out, fmt.Sprintf("host %s: no flock there (install util-linux): what a killed collect leaves on it is not found by the next", host))
	}
	return out
}

// describeEnded words Reaped.Ended: process groups and processes.
func describeEnded(ended []string) string {
	var groups, procs []string
	for _, e := range ended {
		if g, ok := strings.CutPrefix(e, "-"); ok {
			groups = append(groups, g)
		}
	}
	for _, e := range ended {
		// a group's leader is named once, as its group
		if !strings.HasPrefix(e, "-") && !slices.Contains(groups, e) && !slices.Contains(procs, e) {
			procs = append(procs, e)
		}
	}
	var parts []string
	if len(groups) > 0 {
		parts = append(parts, "process groups "+strings.Join(groups, ", "))
	}
	if len(procs) > 0 {
		parts = append(parts, "processes "+strings.Join(procs, ", "))
	}
	return strings.Join(parts, " and ")
}
