// Command overhead measures the two costs the collector is held to, side
// by side in one run, and prints them:
//
//   - collector overhead: the wall time of `fairbench collect` on a suite of
//     4 targets × 3 scenarios × 3 repetitions with 2 s windows and 1 s
//     warm-ups, divided by the sum of its warm-up and measurement windows
//     (aim ≤ 1.05), with where the rest went, read from run.json and the
//     progress lines: before the run dir (preflight), before the first
//     window (builds, gates; builds are the wall time while a target was
//     building, from its progress lines),
//     between windows on one server, between servers (stop, start,
//     readiness), and the tool's own start and exit around its window;
//   - transparency: req/s of the stdlib server measured through `fairbench
//     collect`, divided by req/s of the same bombardier argv run by hand on
//     the same server, in alternated pairs (aim ≥ 0.98); with -baseline,
//     the baseline's collector is a third arm of each round.
//
// Both are measured in several rounds and printed as the median with the
// lowest and highest round, so that one noisy round neither passes nor
// fails them. Run it from the checkout root, on a quiet machine (it prints
// the load average before and after); it takes about three minutes a round:
//
//	go run ./collect/internal/overhead
//	go run ./collect/internal/overhead -rounds 1 -reps 1 -pairs 3    # a quicker look
//	go run ./collect/internal/overhead -baseline ../main             # this collector against another's, alternated in both
//
// The machine is shared with whatever else runs: the numbers say how this
// run went, not a bound.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fairbench/fairbench/collect/loadgen"
	"github.com/fairbench/fairbench/parse/runjson"
)

func main() {
	reps := flag.Int("reps", 3, "repetitions of the overhead suite (0: measure transparency alone)")
	window := flag.Duration("window", 2*time.Second, "measurement window")
	warmup := flag.Duration("warmup", time.Second, "warm-up window")
	pairs := flag.Int("pairs", 5, "alternated pairs (collector, by hand; with -baseline, triples) for transparency, each round")
	rounds := flag.Int("rounds", 3, "rounds of both measurements")
	baseline := flag.String("baseline", "", "another fairbench checkout (e.g. the main branch's) whose collector is alternated with this one's in every round")
	flag.Parse()
	if err := run(*rounds, *reps, *window, *warmup, *pairs, *baseline); err != nil {
		fmt.Fprintf(os.Stderr, "overhead: %v\n", err)
		os.Exit(1)
	}
}

// bench is what both measurements share.
type bench struct {
	root, work, fairbench, server string
	// baseline is the fairbench built from -baseline's checkout, or "".
	baseline   string
	bombardier string
	isolate    bool
}

func run(rounds, reps int, window, warmup time.Duration, pairs int, baseline string) error {
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(root, "site", "apps", "go", "go.mod")); err != nil {
		return fmt.Errorf("run it from the fairbench checkout root: %w", err)
	}
	work, err := os.MkdirTemp("", "fairbench-overhead-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	b := &bench{root: root, work: work, isolate: runtime.NumCPU() >= 2}
	b.fairbench = filepath.Join(work, "fairbench")
	if err := goBuild(root, b.fairbench, "./cmd/fairbench"); err != nil {
		return err
	}
	if baseline != "" {
		b.baseline = filepath.Join(work, "fairbench-baseline")
		if err := goBuild(baseline, b.baseline, "./cmd/fairbench"); err != nil {
			return err
		}
	}
	b.server = filepath.Join(work, "stdlib")
	if err := goBuild(filepath.Join(root, "site", "apps", "go"), b.server, "./stdlib"); err != nil {
		return err
	}
	v, err := mustDriver("bombardier").Resolve(context.Background())
	if err != nil {
		return err
	}
	b.bombardier = v.Path

	loadBefore := loadAvg()
	// this and base are the rounds of this collector and of the baseline's.
	var this, base tally
	var ratios, ownRatios, transparencies, baseTransparencies, thisOverBase []float64
	for r := 1; r <= rounds; r++ {
		if reps > 0 {
			// With a baseline, the two collectors take turns going first.
			bins := []string{b.fairbench}
			if b.baseline != "" {
				bins = append(bins, b.baseline)
				if r%2 == 0 {
					bins[0], bins[1] = bins[1], bins[0]
				}
			}
			for _, bin := range bins {
				fmt.Fprintf(os.Stderr, "overhead: round %d/%d: %s collecting 4 targets × 3 scenarios × %d reps (%v windows, %v warm-ups)…\n", r, rounds, bin, reps, window, warmup)
				sp, err := b.overhead(bin, reps, window, warmup)
				if err != nil {
					return err
				}
				fmt.Fprintf(os.Stderr, "overhead: round %d: %s %.3f (%.3f without the builds)\n%s", r, bin, sp.ratio(), sp.ownRatio(), sp)
				if bin == b.baseline {
					base.add(sp)
				} else {
					this.add(sp)
				}
			}
			if b.baseline != "" {
				ratios = append(ratios, this.all[r-1]/base.all[r-1])
				ownRatios = append(ownRatios, this.own[r-1]/base.own[r-1])
			}
		}
		fmt.Fprintf(os.Stderr, "overhead: round %d/%d: %d alternated rounds of %s for transparency…\n", r, rounds, pairs, strings.Join(b.arms(), ", "))
		rps, err := b.transparency(pairs, window, warmup)
		if err != nil {
			return err
		}
		mc, mh := median(rps[armCollect]), median(rps[armHand])
		transparencies = append(transparencies, mc/mh)
		fmt.Fprintf(os.Stderr, "overhead: round %d: transparency %.3f (req/s via collect %s; by hand %s)\n", r, mc/mh, rates(rps[armCollect]), rates(rps[armHand]))
		if b.baseline != "" {
			mb := median(rps[armBaseline])
			baseTransparencies, thisOverBase = append(baseTransparencies, mb/mh), append(thisOverBase, mc/mb)
			fmt.Fprintf(os.Stderr, "overhead: round %d: baseline's transparency %.3f (req/s %s)\n", r, mb/mh, rates(rps[armBaseline]))
		}
	}
	if reps > 0 {
		fmt.Printf("collector overhead  %s   wall ÷ windows, %d rounds of 4 targets × 3 scenarios × %d reps (%v + %v warm-up); aim ≤ 1.05\n",
			spread(this.all), rounds, reps, window, warmup)
		fmt.Printf("  without the builds %s   (wall − the targets' go build) ÷ windows: the collector's own part\n", spread(this.own))
		fmt.Printf("  where the last round's time went:\n%s", this.last)
		if b.baseline != "" {
			fmt.Printf("baseline overhead   %s   the same, collected by %s's fairbench, alternated with this one\n", spread(base.all), baseline)
			fmt.Printf("  without the builds %s\n", spread(base.own))
			fmt.Printf("  where the last round's time went:\n%s", base.last)
			fmt.Printf("this ÷ baseline     %s   overhead ratio of each round's pair (under 1: this collector wastes less)\n", spread(ratios))
			fmt.Printf("  without the builds %s   (the first collector of a round warms Go's build cache for the second)\n", spread(ownRatios))
		}
	}
	fmt.Printf("transparency        %s   median req/s via collect ÷ by hand, %d rounds of %d alternated pairs (stdlib ping, bombardier); aim ≥ 0.98\n",
		spread(transparencies), rounds, pairs)
	if b.baseline != "" {
		fmt.Printf("baseline's          %s   the same through %s's fairbench, alternated with both\n", spread(baseTransparencies), baseline)
		fmt.Printf("this ÷ baseline     %s   median req/s through this collector ÷ through the baseline's\n", spread(thisOverBase))
	}
	fmt.Printf("load average        %s before, %s after (1, 5, 15 min); %d CPUs\n", loadBefore, loadAvg(), runtime.NumCPU())
	return nil
}

// spread is the median of xs with the lowest and highest.
func spread(xs []float64) string {
	return fmt.Sprintf("%.3f [%.3f … %.3f]", median(xs), slices.Min(xs), slices.Max(xs))
}

// loadAvg is /proc/loadavg's first three fields.
func loadAvg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

func mustDriver(tool string) loadgen.Driver {
	d, err := loadgen.DriverFor(tool)
	if err != nil {
		panic(err)
	}
	return d
}

func goBuild(dir, out, pkg string) error {
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %v\n%s", pkg, err, b)
	}
	return nil
}

// isolation is the suite's [isolation] table: server on CPU 0, client on 1.
func (b *bench) isolation() string {
	if !b.isolate {
		return ""
	}
	return "[isolation]\nserver_cpus = \"0\"\nclient_cpus = \"1\"\n"
}

// ping is the scenario transparency measures; scenarios are the three of
// the overhead suite.
const ping = `
[[scenario]]
name = "ping"
request = { method = "GET", path = "/" }
expect = { status = 200, body = "Hi" }
`

const scenarios = ping + `
[[scenario]]
name = "query"
request = { method = "GET", path = "/id/1?name=bun" }
expect = { status = 200, body = "1 bun" }

[[scenario]]
name = "body"
request = { method = "POST", path = "/json", headers = { content-type = "application/json" }, body = '{"hello":"world"}' }
expect = { status = 200, body = '{"hello":"world"}' }
`

// overhead collects the 4 × 3 × reps suite and says where its wall time went.
func (b *bench) overhead(bin string, reps int, window, warmup time.Duration) (spent, error) {
	var s strings.Builder
	fmt.Fprintf(&s, "name = \"overhead\"\n[load]\ntool = \"bombardier\"\nconnections = 32\nduration = %q\nwarmup = %q\nrepetitions = %d\n%s",
		window, warmup, reps, b.isolation())
	for _, t := range []struct{ name, pkg, env string }{
		{"stdlib", "./stdlib", ""}, {"chi", "./chi", ""}, {"gin", "./gin", ""},
		{"stdlib-1proc", "./stdlib", `env = { GOMAXPROCS = "1" }`},
	} {
		fmt.Fprintf(&s, "\n[[target]]\nname = %q\nruntime = \"go\"\ndir = \"site/apps/go\"\nbuild = [\"go\", \"build\", \"-o\", \"{bin}/server\", %q]\nstart = [\"{bin}/server\"]\nartifact = \"{bin}/server\"\n%s\n",
			t.name, t.pkg, t.env)
	}
	s.WriteString(scenarios)
	st := filepath.Join(b.work, "overhead.toml")
	if err := os.WriteFile(st, []byte(s.String()), 0o644); err != nil {
		return spent{}, err
	}
	start := time.Now()
	runDir, lines, err := b.collect(bin, st, "overhead")
	wall := time.Since(start)
	if err != nil {
		return spent{}, err
	}
	m, err := readManifest(runDir)
	if err != nil {
		return spent{}, err
	}
	if want := 4 * 3 * reps * 2; len(m.Measurements) != want {
		return spent{}, fmt.Errorf("%s: %d windows, want %d", runDir, len(m.Measurements), want)
	}
	sp := account(m, start, wall, window, warmup)
	sp.build = buildSpan(lines)
	return sp, nil
}

// collect runs `fairbench collect` and returns the run dir it printed,
// with its progress lines, each stamped with when it came.
func (b *bench) collect(bin, st, out string) (string, []stamped, error) {
	cmd := exec.Command(bin, "collect", "-suite", st, "-out", filepath.Join(b.work, out), "-base", b.root)
	var stdout bytes.Buffer
	stderr := &stampWriter{}
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	if err := cmd.Run(); err != nil {
		return "", nil, fmt.Errorf("fairbench collect %s: %v\n%s", st, err, stderr.all.String())
	}
	return strings.TrimSpace(stdout.String()), stderr.lines, nil
}

func readManifest(runDir string) (runjson.Manifest, error) {
	var m runjson.Manifest
	b, err := os.ReadFile(filepath.Join(runDir, "run.json"))
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	return m, err
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func rates(xs []float64) string {
	var parts []string
	for _, x := range xs {
		parts = append(parts, strconv.FormatFloat(x, 'f', 0, 64))
	}
	return strings.Join(parts, " ")
}
