package collect

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fairbench/fairbench/collect/machine"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

// built is what building one target left: the build's wall time, its
// artifact's size, or why it failed (with the build's output); warm when
// it ran against a build cache entry that held a finished build.
type built struct {
	seconds  float64
	artifact int64
	warm     bool
	err      error
}

// buildAll builds targets on the server machine before any of them is
// gated or measured, as many at a time as the machine has CPUs online:
// nothing is measured while a build runs. A build whose argv names {bin}
// writes its output there, a folder of its own, and runs beside any other;
// builds that do not (tsc -p nest) may write into their dir, so targets
// sharing a dir build one after another, in suite order. Targets whose
// build is the same argv in the same dir with the same artifact (five
// NestJS targets of one tsc build) build once and share what it left.
// Each target's time is its own build's wall time, taken while the others
// ran. A build naming {bin} goes through the server machine's build cache
// (build_cache.go), whose entries for dirs that are gone are pruned first,
// and which is trimmed to its cap after the builds.
func (c *collector) buildAll(ctx context.Context, targets []suite.Target) map[string]built {
	out := make(map[string]built, len(targets))
	if len(targets) == 0 {
		return out
	}
	if slices.ContainsFunc(targets, cached) {
		c.pruneBuildCache(ctx)
	}
	own, same := c.sameBuilds(targets)
	lanes := buildLanes(own, c.targetDir)
	width := min(len(lanes), onlineCPUs(ctx, c.server))
	// Progress is told from this goroutine alone, as it asks.
	steps := make(chan string)
	var mu sync.Mutex
	var wg sync.WaitGroup
	slots := make(chan struct{}, width)
	for _, lane := range lanes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, t := range lane {
				slots <- struct{}{}
				steps <- fmt.Sprintf("%s: building%s (%d at a time)", t.Name, machine.OnMachine(c.server), width)
				b := c.build(ctx, t)
				<-slots
				mu.Lock()
				out[t.Name] = b
				mu.Unlock()
			}
		}()
	}
	go func() {
		wg.Wait()
		close(steps)
	}()
	for step := range steps {
		c.opt.Progress.Step(step, 0)
	}
	for _, t := range targets {
		if first, ok := same[t.Name]; ok {
			c.opt.Progress.Step(fmt.Sprintf("%s: built by %s's build, the same argv in the same dir", t.Name, first), 0)
			out[t.Name] = out[first]
		}
	}
	if slices.ContainsFunc(targets, cached) {
		c.evictBuildCache(ctx, targets)
	}
	return out
}

// sameBuilds splits targets into those that build (own) and those whose
// build is one of theirs (same: target → the target that builds it): the
// same argv, in the same dir on the server machine, measuring the same
// artifact.
func (c *collector) sameBuilds(targets []suite.Target) (own []suite.Target, same map[string]string) {
	same = map[string]string{}
	first := map[string]string{} // build → the target that runs it
	for _, t := range targets {
		if len(t.Build) > 0 {
			x := c.expanded(t)
			key := strings.Join(append([]string{c.dirOn(t), x.Artifact}, x.Build...), "\x00")
			if f, ok := first[key]; ok {
				same[t.Name] = f
				continue
			}
			first[key] = t.Name
		}
		own = append(own, t)
	}
	return own, same
}

// buildLanes groups targets into lanes that may build side by side: a
// target whose build argv names {bin} is a lane of its own; the others
// share one lane per dir (dirOf), in their order.
func buildLanes(targets []suite.Target, dirOf func(suite.Target) string) [][]suite.Target {
	var lanes [][]suite.Target
	shared := map[string]int{} // dir → its lane
	for _, t := range targets {
		if cached(t) {
			lanes = append(lanes, []suite.Target{t})
			continue
		}
		dir := dirOf(t)
		if i, ok := shared[dir]; ok {
			lanes[i] = append(lanes[i], t)
			continue
		}
		shared[dir] = len(lanes)
		lanes = append(lanes, []suite.Target{t})
	}
	return lanes
}

// onlineCPUs is how many CPUs m has online, 1 when it cannot be read.
func onlineCPUs(ctx context.Context, m machine.Machine) int {
	const online = "/sys/devices/system/cpu/online"
	files, err := m.ReadFiles(ctx, []string{online})
	if err != nil {
		return 1
	}
	cpus, err := runjson.ParseCPUList(strings.TrimSpace(files[online]))
	if err != nil || len(cpus) == 0 {
		return 1
	}
	return len(cpus)
}

// build copies t's dir to the server machine (unless it is there
// already), runs its build argv there, timed, through the build cache
// when it names {bin}, and measures its artifact there. It tells
// progress nothing: buildAll runs it beside others.
func (c *collector) build(ctx context.Context, t suite.Target) (b built) {
	m := c.server
	dir := c.dirOn(t)
	if t.RemoteDir == "" { // remote_dir: the files are there already
		if b.err = m.Sync(ctx, c.targetDir(t), dir); b.err != nil {
			return b
		}
	}
	switch {
	case cached(t):
		if b.seconds, b.warm, b.err = c.buildCached(ctx, t, dir); b.err != nil {
			return b
		}
	case len(t.Build) > 0:
		argv := c.expandAll(t, t.Build)
		if out, err := m.Run(ctx, machine.Program{Argv: []string{"mkdir", "-p", c.binDir(t)}}); err != nil {
			b.err = fmt.Errorf("build: make %s%s: %v\n%s", c.binDir(t), machine.OnMachine(m), err, out)
			return b
		}
		start := time.Now()
		if out, err := m.Run(ctx, machine.Program{Dir: dir, Argv: argv}); err != nil {
			b.err = fmt.Errorf("build %q in %s%s: %v\n%s", argv, dir, machine.OnMachine(m), err, out)
			return b
		}
		b.seconds = time.Since(start).Seconds()
	}
	if t = c.expanded(t); t.Artifact != "" {
		path := t.Artifact
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		if b.artifact, b.err = m.Size(ctx, path); b.err != nil {
			b.err = fmt.Errorf("artifact%s: %w", machine.OnMachine(m), b.err)
		}
	}
	return b
}
