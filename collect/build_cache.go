package collect

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fairbench/fairbench/collect/machine"
	"github.com/fairbench/fairbench/collect/suite"
)

// The build cache keeps the {bin} of a target's build on the server
// machine from one collect to the next, so that a collect whose sources
// did not change pays the build tool's own up-to-date check (go build's
// build IDs, cargo's fingerprints) instead of a full link into an empty
// folder. The build still runs every time: the cache decides nothing, it
// only keeps what the build tool needs to see that it has nothing to do.
//
// An entry is a folder under the machine's cache folder, named by a hash
// of what decides the output: the target's dir there, its build argv and
// its artifact, with {bin} left as written (services' ports filled in):
//
//	<cache>/bin/<key>/lock   flock(1)'s lock file
//	<cache>/bin/<key>/key    what the key was made of, the dir first
//	<cache>/bin/<key>/built  there when out/ holds a finished build
//	<cache>/bin/<key>/out/   {bin} of the build
//
// Two collects that share an entry (tests side by side, two terminals)
// take its lock for the build and for copying out/ into the collect's own
// scratch {bin}, which is what start, env and the artifact name. So no
// collect ever runs or reads a binary another one is writing: a build
// writes only into out/, under the lock, and out/ is read only under it.
// The lock is flock(1) on the machine, held by the one command that
// builds and copies: local and SSH alike, it goes when that command ends,
// killed or not. A build that did not finish (killed, failed) leaves no
// built marker, and the next one starts from an empty out/.

// buildCacheScript runs under the entry's lock, in the target's dir:
// $1 the entry, $2 the collect's {bin}, $3 1 to start cold, $4 the key's
// text, then the build argv. Its first line says whether out/ held a
// finished build before (warm) or not (cold).
const buildCacheScript = `entry=$1 bin=$2 fresh=$3 key=$4; shift 4
if [ "$fresh" = 0 ] && [ -e "$entry/built" ]; then echo warm; else echo cold; rm -rf "$entry/out"; fi
rm -f "$entry/built" && mkdir -p "$entry/out" && printf '%s\n' "$key" > "$entry/key" || exit
"$@" || exit
touch "$entry/built" && rm -rf "$bin" && mkdir -p "$bin" && cp -pR "$entry/out/." "$bin/"`

// pruneCacheScript removes the entries below $1 whose target dir is gone
// (test runs' temporary folders), each only when no one holds its lock.
const pruneCacheScript = `[ -d "$1" ] || exit 0
for e in "$1"/*; do
	[ -f "$e/key" ] || continue
	d=$(head -n 1 "$e/key")
	[ -d "$d" ] || flock -n "$e/lock" rm -rf "$e"
done; exit 0`

// DefaultBuildCacheMax is the build cache's size cap on a machine when
// Options.BuildCacheMax is 0: a hundred Go servers of 20 MB (the site's
// suites hold about 20), so a cache that serves every suite of a project
// is never trimmed, and one fed by years of temporary folders stops at a
// size a disk does not notice.
const DefaultBuildCacheMax = 2 << 30

// evictCacheScript trims the cache below $2 to $1 KiB: while the entries
// (du -sk) take more, it removes the one least recently built (the mtime of
// its key file, written at every build), skipping the entries named after
// $2 (the current collect's) and any whose lock someone holds (a build or
// a copy under way). It prints what it removed, one "<KiB> <entry>" a line.
const evictCacheScript = `cap=$1 dir=$2; shift 2
[ -d "$dir" ] || exit 0
total=0
for e in "$dir"/*/; do [ -d "$e" ] && total=$((total + $(du -sk "$e" | cut -f1))); done
[ "$total" -gt "$cap" ] || exit 0
ls -tr "$dir"/*/key 2>/dev/null | {
while IFS= read -r k && [ "$total" -gt "$cap" ]; do
	e=${k%/key} keep=
	for x in "$@"; do [ "$x" = "$e" ] && keep=1; done
	[ -n "$keep" ] && continue
	s=$(du -sk "$e" | cut -f1)
	flock -n "$e/lock" rm -rf "$e" && total=$((total - s)) && echo "$s $e"
done; }; exit 0`

// cacheKey is the key of a target's build in the cache: the target's
// dir there, its artifact and build argv with {bin} as written.
func (c *collector) cacheKey(t suite.Target) string {
	parts := []string{c.dirOn(t), c.expandIn(t.Artifact, "{bin}")}
	for _, a := range t.Build {
		parts = append(parts, c.expandIn(a, "{bin}"))
	}
	return strings.Join(parts, "\n")
}

// cacheEntry is the folder of key's entry on the server machine.
func (c *collector) cacheEntry(key string) string {
	sum := sha256.Sum256([]byte(key))
	return c.server.CachePath("bin/" + hex.EncodeToString(sum[:12]))
}

// cached reports whether t's build goes through the cache: its argv
// names {bin}, the folder it writes into. A build that writes into its
// dir (tsc -p nest) keeps its output there already.
func cached(t suite.Target) bool {
	return slices.ContainsFunc(t.Build, func(a string) bool { return strings.Contains(a, "{bin}") })
}

// buildCached runs t's build (t as written, dir its dir there) into its
// cache entry under the entry's lock and copies the entry's out/ into the
// collect's {bin}. It returns the wall time of all that, the lock's wait
// included, and whether the entry held a finished build before.
func (c *collector) buildCached(ctx context.Context, t suite.Target, dir string) (seconds float64, warm bool, err error) {
	m := c.server
	key := c.cacheKey(t)
	entry := c.cacheEntry(key)
	if out, err := m.Run(ctx, machine.Program{Argv: []string{"mkdir", "-p", entry}}); err != nil {
		return 0, false, fmt.Errorf("build cache: make %s%s: %v\n%s", entry, machine.OnMachine(m), err, out)
	}
	fresh := "0"
	if c.opt.FreshBuild {
		fresh = "1"
	}
	build := make([]string, len(t.Build))
	for i, a := range t.Build {
		build[i] = c.expandIn(a, entry+"/out")
	}
	argv := append([]string{"flock", entry + "/lock", "sh", "-c", buildCacheScript, "fairbench-build", entry, c.binDir(t), fresh, key}, build...)
	start := time.Now()
	out, err := m.Run(ctx, machine.Program{Dir: dir, Argv: argv})
	seconds = time.Since(start).Seconds()
	said, rest, _ := strings.Cut(string(out), "\n")
	if err != nil {
		if said != "warm" && said != "cold" { // flock or sh did not start
			return seconds, false, fmt.Errorf("build cache: flock %s%s: %v\n%s(flock(1) is in util-linux: apt-get install util-linux)", entry, machine.OnMachine(m), err, out)
		}
		return seconds, false, fmt.Errorf("build %q in %s%s: %v\n%s", build, dir, machine.OnMachine(m), err, rest)
	}
	return seconds, said == "warm", nil
}

// pruneBuildCache removes the server machine's cache entries whose target
// dir is gone; an entry in use is left alone. It is best effort: a cache
// that cannot be pruned still serves.
func (c *collector) pruneBuildCache(ctx context.Context) {
	c.server.Run(ctx, machine.Program{Argv: []string{"sh", "-c", pruneCacheScript, "fairbench-prune", c.server.CachePath("bin")}})
}

// evictBuildCache trims the server machine's build cache to its cap
// (Options.BuildCacheMax), the entries least recently built first, once
// the builds of targets are done; their entries, which the next collect
// of this suite builds against, are never removed, nor an entry another
// collect holds. Best effort, as pruneBuildCache: it says what it removed.
func (c *collector) evictBuildCache(ctx context.Context, targets []suite.Target) {
	limit := c.opt.BuildCacheMax
	if limit == 0 {
		limit = DefaultBuildCacheMax
	}
	if limit < 0 {
		return
	}
	argv := []string{"sh", "-c", evictCacheScript, "fairbench-evict", strconv.FormatInt(limit>>10, 10), c.server.CachePath("bin")}
	for _, t := range targets {
		if cached(t) {
			argv = append(argv, c.cacheEntry(c.cacheKey(t)))
		}
	}
	out, err := c.server.Run(ctx, machine.Program{Argv: argv})
	if err != nil {
		return
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if kib, entry, ok := strings.Cut(line, " "); ok {
			c.opt.Progress.Step(fmt.Sprintf("build cache: removed %s%s (%s KiB), least recently built, to stay under %d MB", entry, machine.OnMachine(c.server), kib, limit>>20), 0)
		}
	}
}
