package collect

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

// hiSource copies testdata/hiserver into a module of its own, to be built
// by a suite's build argv, and returns its folder.
func hiSource(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile("testdata/hiserver/main.go")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module hi\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// cacheEntries returns the entries below cache that hold a finished
// build, as their out/ folders.
func cacheEntries(t *testing.T, cache string) []string {
	t.Helper()
	built, err := filepath.Glob(filepath.Join(cache, "bin", "*", "built"))
	if err != nil {
		t.Fatal(err)
	}
	var outs []string
	for _, b := range built {
		outs = append(outs, filepath.Join(filepath.Dir(b), "out"))
	}
	return outs
}

// fileSum is the sha256 of a file, failing the test when it cannot be read.
func fileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// TestBuildCacheReused: a collect keeps a target's {bin} build in the
// build cache; the next collect builds against it (run.json says
// build_cached), leaving the same bytes; a change to the sources rebuilds
// it, and -fresh-build starts from an empty entry.
func TestBuildCacheReused(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and collects twice")
	}
	t.Parallel()
	src, cache := hiSource(t), t.TempDir()
	suite, err := suite.ParseSuite([]byte(fmt.Sprintf(`name = "cache"

[load]
tool = "bombardier"
connections = 2
duration = "1s"
warmup = "0s"
repetitions = 1
# capped: plumbing, not speed; uncapped, every window takes both cores
# from the tests running beside it
rate = 1000

[[target]]
name = "hi"
dir = %q
build = ["go", "build", "-o", "{bin}/hi", "."]
start = ["{bin}/hi"]
artifact = "{bin}/hi"
env = { BODY = "Hi" }

[[scenario]]
name = "ping"
request = { method = "GET", path = "/" }
expect = { status = 200, body = "Hi" }
`, src)), "cache.toml")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	collectOnce := func() runjson.Target {
		t.Helper()
		dir, err := Run(ctx, suite, Options{Out: t.TempDir(), buildCache: cache})
		if err != nil {
			t.Fatal(err)
		}
		m := dir.Manifest()
		if len(m.Targets) != 1 || m.Targets[0].Conformance != "pass" {
			t.Fatalf("targets %+v, want hi passing its gate", m.Targets)
		}
		return m.Targets[0]
	}
	first := collectOnce()
	entries := cacheEntries(t, cache)
	if len(entries) != 1 {
		t.Fatalf("build cache entries %q after one collect, want one", entries)
	}
	out := filepath.Join(entries[0], "hi")
	cold := fileSum(t, out)
	second := collectOnce()
	if first.BuildCached || !second.BuildCached {
		t.Errorf("build_cached %v then %v, want false (an empty cache) then true", first.BuildCached, second.BuildCached)
	}
	if fileSum(t, out) != cold || second.ArtifactBytes != first.ArtifactBytes {
		t.Errorf("the second build left other bytes (%d, first %d): want the entry's build as it was", second.ArtifactBytes, first.ArtifactBytes)
	}

	// A change to the sources: the build against the entry relinks.
	main := filepath.Join(src, "main.go")
	b, err := os.ReadFile(main)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(main, []byte(strings.Replace(string(b), "hiserver: waiting", "hiserver: still waiting", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	build := func(opt Options) (built, [32]byte) {
		t.Helper()
		opt.buildCache = cache
		c := newCollector(suite, opt)
		c.here.Dir = t.TempDir()
		b := c.buildAll(ctx, suite.Targets)["hi"]
		if b.err != nil {
			t.Fatal(b.err)
		}
		bin := fileSum(t, filepath.Join(c.binDir(suite.Targets[0]), "hi"))
		if bin != fileSum(t, out) {
			t.Error("the collect's {bin} differs from the cache entry it was copied from")
		}
		return b, bin
	}
	changed, rebuilt := build(Options{})
	if !changed.warm || rebuilt == cold {
		t.Errorf("after a change to main.go: warm %v, the same bytes %v; want a warm entry rebuilt", changed.warm, rebuilt == cold)
	}
	fresh, again := build(Options{FreshBuild: true})
	if fresh.warm || again != rebuilt {
		t.Errorf("-fresh-build: warm %v, the same bytes as the last build %v; want a cold build of the same sources", fresh.warm, again == rebuilt)
	}
}

// TestBuildCacheShared: two collects side by side build one target (one
// cache entry) again and again with a build that writes its binary slowly,
// a line at a time, and run what they built while the other builds.
// Neither ever copies or runs a half-written binary: the entry's lock
// keeps a copy from overlapping a build, and each runs its own copy.
func TestBuildCacheShared(t *testing.T) {
	t.Parallel()
	dir, cache := t.TempDir(), t.TempDir()
	// A build tool without an up-to-date check: it writes the whole
	// binary (a script) every time, over 0.3 s.
	build := `printf '#!/bin/sh\n' > {bin}/server
for i in 1 2 3 4 5; do echo "echo part$i; sleep 0.02" >> {bin}/server; sleep 0.05; done
echo 'echo whole' >> {bin}/server; chmod +x {bin}/server`
	suite := &suite.Suite{Targets: []suite.Target{{Name: "slow", Dir: dir, Build: []string{"sh", "-c", build}, Start: []string{"{bin}/server"}, Artifact: "{bin}/server"}}}
	const want = "part1\npart2\npart3\npart4\npart5\nwhole\n"
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	var mu sync.Mutex
	warm := 0
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := newCollector(suite, Options{buildCache: cache})
			c.here.Dir = t.TempDir()
			for round := range 4 {
				b := c.buildAll(ctx, suite.Targets)["slow"]
				if b.err != nil {
					t.Errorf("round %d: %v", round, b.err)
					return
				}
				mu.Lock()
				if b.warm {
					warm++
				}
				mu.Unlock()
				bin := c.expanded(suite.Targets[0]).Start[0]
				got, err := exec.CommandContext(ctx, bin).CombinedOutput()
				if err != nil || string(got) != want {
					t.Errorf("round %d: %s said %q (%v), want %q: a half-written binary", round, bin, got, err, want)
				}
			}
		}()
	}
	wg.Wait()
	if warm != 7 {
		t.Errorf("%d of 8 builds ran against a finished entry, want 7 (all but the first)", warm)
	}
}

// TestBuildCachePruned: a collect that builds through the cache removes
// the entries whose target dir is gone (test runs' temporary folders) and
// keeps the others.
func TestBuildCachePruned(t *testing.T) {
	t.Parallel()
	cache, kept, gone := t.TempDir(), t.TempDir(), t.TempDir()
	target := func(dir string) suite.Target {
		return suite.Target{Name: "t", Dir: dir, Build: []string{"sh", "-c", "echo x > {bin}/server"}, Artifact: "{bin}/server"}
	}
	ctx := context.Background()
	for _, dir := range []string{kept, gone} {
		suite := &suite.Suite{Targets: []suite.Target{target(dir)}}
		c := newCollector(suite, Options{buildCache: cache})
		c.here.Dir = t.TempDir()
		if err := c.buildAll(ctx, suite.Targets)["t"].err; err != nil {
			t.Fatal(err)
		}
	}
	if n := len(cacheEntries(t, cache)); n != 2 {
		t.Fatalf("%d entries, want 2", n)
	}
	if err := os.RemoveAll(gone); err != nil {
		t.Fatal(err)
	}
	suite := &suite.Suite{Targets: []suite.Target{target(kept)}}
	c := newCollector(suite, Options{buildCache: cache})
	c.here.Dir = t.TempDir()
	if err := c.buildAll(ctx, suite.Targets)["t"].err; err != nil {
		t.Fatal(err)
	}
	entries := cacheEntries(t, cache)
	if len(entries) != 1 || entries[0] != filepath.Join(c.cacheEntry(c.cacheKey(target(kept))), "out") {
		t.Errorf("entries %q, want only %s's", entries, kept)
	}
}

// TestBuildCacheCapped: past its cap, the cache loses the entries least
// recently built, after the builds of a collect; never one of that
// collect's targets, even when they alone are over the cap, nor one whose
// lock another collect holds. Each entry here is a 100 KiB build.
func TestBuildCacheCapped(t *testing.T) {
	t.Parallel()
	cache := t.TempDir()
	ctx := context.Background()
	target := func(name string) suite.Target {
		return suite.Target{Name: name, Dir: t.TempDir(), Build: []string{"sh", "-c", "head -c 102400 /dev/zero > {bin}/server"}, Artifact: "{bin}/server"}
	}
	collectOf := func(max int64, targets ...suite.Target) *collector {
		t.Helper()
		s := &suite.Suite{Targets: targets}
		c := newCollector(s, Options{buildCache: cache, BuildCacheMax: max})
		c.here.Dir = t.TempDir()
		for name, b := range c.buildAll(ctx, targets) {
			if b.err != nil {
				t.Fatalf("%s: %v", name, b.err)
			}
		}
		return c
	}
	entryOf := func(c *collector, tg suite.Target) string {
		return filepath.Join(c.cacheEntry(c.cacheKey(tg)), "out")
	}
	has := func(want ...string) {
		t.Helper()
		got := cacheEntries(t, cache)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("entries\n%q\nwant\n%q", got, want)
		}
	}
	const capKiB = 350 // three entries of 100 KiB and their small files
	a, b, c, d := target("a"), target("b"), target("c"), target("d")
	ca := collectOf(capKiB<<10, a)
	collectOf(capKiB<<10, b)
	cc := collectOf(capKiB<<10, c)
	has(entryOf(ca, a), entryOf(ca, b), entryOf(ca, c))
	// A fourth entry: a, built least recently, goes.
	collectOf(capKiB<<10, d)
	has(entryOf(ca, b), entryOf(ca, c), entryOf(ca, d))
	// b is held by another collect (its lock taken, as during a build):
	// it stays, and c, the next least recently built, goes.
	lock, err := os.OpenFile(filepath.Join(filepath.Dir(entryOf(ca, b)), "lock"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	collectOf(capKiB<<10, a)
	has(entryOf(ca, a), entryOf(ca, b), entryOf(ca, d))
	lock.Close() // lets the lock go
	// A cap below this collect's own two entries: they both stay, every
	// other entry goes.
	collectOf(50<<10, c, d)
	has(entryOf(cc, c), entryOf(cc, d))
	// No cap: nothing goes.
	collectOf(-1, a, b)
	has(entryOf(ca, a), entryOf(ca, b), entryOf(cc, c), entryOf(cc, d))
}
