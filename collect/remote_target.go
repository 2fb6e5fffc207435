package collect

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/fairbench/fairbench/collect/machine"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

// binDir is the collect's own scratch folder of t's build outputs, {bin},
// on the server machine: what start, env and the artifact name. A build
// through the cache (build_cache.go) fills it with a copy of its entry.
func (c *collector) binDir(t suite.Target) string {
	return c.server.Path("bin/" + c.binRun + "/" + t.Name)
}

// randomName names a verify's folder of {bin}s on the server machine,
// apart from any other collect's there.
func randomName() string { return fmt.Sprintf("%016x", rand.Uint64()) }

// binRunOf names a run's folder of {bin}s on the server machine after the
// run, the same in every session of it: a collect killed before removeBins
// leaves its folder on a host, and the -resume that finishes the run
// builds into it and removes it. The start's nanoseconds keep apart two
// runs of one id (one second, one hostname) sharing a host.
func binRunOf(m runjson.Manifest) string {
	return fmt.Sprintf("%s-%09d", m.ID, m.Start.Nanosecond())
}

// removeBins removes the collect's {bin}s from the server machine, once
// its targets have stopped, and gives up its claim on every host
// (host_claim.go). Here they are in the run's scratch folder, which goes
// anyway; on a host they would stay. A second call (the deferred one on
// an error path) does nothing.
func (c *collector) removeBins() {
	if c.binsRemoved {
		return
	}
	c.binsRemoved = true
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c.server.Run(ctx, machine.Program{Argv: []string{"rm", "-rf", c.server.Path("bin/" + c.binRun)}})
	for _, h := range c.hosts {
		if strays := h.Release(ctx); len(strays) > 0 {
			c.opt.Progress.Note(fmt.Sprintf("host %s: still running when the run ended, left by a target or service outside its process group (setsid, a daemon): ended %s", h.Spec.Name, describeEnded(strays)))
		}
	}
}

// dirOn is where t's files are on the server machine: its remote_dir, or
// where they are copied to (here: where they are).
func (c *collector) dirOn(t suite.Target) string {
	if t.RemoteDir != "" {
		return c.server.Path(t.RemoteDir)
	}
	return c.server.Mirror(c.targetDir(t), "targets/"+t.Name)
}
