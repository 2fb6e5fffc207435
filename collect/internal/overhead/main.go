// Command overhead measures the two costs of the collector that issue 4
// bounds, side by side in one run, and prints them:
//
//   - collector overhead: the wall time of `fairbench collect` on a suite of
//     4 targets × 3 scenarios × 3 repetitions with 2 s windows and 1 s
//     warm-ups, divided by the sum of its warm-up and measurement windows
//     (aim ≤ 1.05), with where the rest went, read from run.json: before
//     the run dir (preflight), before the first window (builds, gates),
//     between windows on one server, between servers (stop, start,
//     readiness), and the tool's own start and exit around its window;
//   - transparency: req/s of the stdlib server measured through `fairbench
//     collect`, divided by req/s of the same bombardier argv run by hand on
//     the same server, in alternated pairs (aim ≥ 0.98).
//
// Both are measured in several rounds and printed as the median with the
// lowest and highest round, so that one noisy round neither passes nor
// fails them. Run it from the checkout root, on a quiet machine (it prints
// the load average before and after); it takes about three minutes a round:
//
//	go run ./collect/internal/overhead
//	go run ./collect/internal/overhead -rounds 1 -reps 1 -pairs 3    # a quicker look
//	go run ./collect/internal/overhead -baseline ../main             # this collector against another's, alternated
//
// The machine is shared with whatever else runs: the numbers say how this
// run went, not a bound.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/fairbench/fairbench/collect"
	"github.com/fairbench/fairbench/parse/manifest"
)

func main() {
	reps := flag.Int("reps", 3, "repetitions of the overhead suite (0: measure transparency alone)")
	window := flag.Duration("window", 2*time.Second, "measurement window")
	warmup := flag.Duration("warmup", time.Second, "warm-up window")
	pairs := flag.Int("pairs", 5, "alternated pairs (collector, by hand) for transparency, each round")
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
	var ratios, ownRatios, transparencies []float64
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
		fmt.Fprintf(os.Stderr, "overhead: round %d/%d: %d alternated pairs for transparency…\n", r, rounds, pairs)
		viaCollect, byHand, err := b.transparency(pairs, window, warmup)
		if err != nil {
			return err
		}
		mc, mh := median(viaCollect), median(byHand)
		transparencies = append(transparencies, mc/mh)
		fmt.Fprintf(os.Stderr, "overhead: round %d: transparency %.3f (req/s via collect %s; by hand %s)\n", r, mc/mh, rates(viaCollect), rates(byHand))
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

func mustDriver(tool string) collect.Driver {
	d, err := collect.DriverFor(tool)
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
	suite := filepath.Join(b.work, "overhead.toml")
	if err := os.WriteFile(suite, []byte(s.String()), 0o644); err != nil {
		return spent{}, err
	}
	start := time.Now()
	runDir, err := b.collect(bin, suite, "overhead")
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
	return account(m, start, wall, window, warmup), nil
}

// collect runs `fairbench collect` and returns the run dir it printed.
func (b *bench) collect(bin, suite, out string) (string, error) {
	cmd := exec.Command(bin, "collect", "-suite", suite, "-out", filepath.Join(b.work, out), "-base", b.root)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("fairbench collect %s: %v\n%s", suite, err, stderr.String())
	}
	return strings.TrimSpace(stdout.String()), nil
}

func readManifest(runDir string) (manifest.Manifest, error) {
	var m manifest.Manifest
	b, err := os.ReadFile(filepath.Join(runDir, "run.json"))
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	return m, err
}

// transparency alternates a one-measurement collect and the same
// bombardier argv run by hand on a fresh server, pair by pair, swapping
// which goes first in every other pair.
func (b *bench) transparency(pairs int, window, warmup time.Duration) (viaCollect, byHand []float64, err error) {
	suite := filepath.Join(b.work, "transparency.toml")
	src := fmt.Sprintf("name = \"transparency\"\n[load]\ntool = \"bombardier\"\nconnections = 32\nduration = %q\nwarmup = %q\nrepetitions = 1\n%s\n[[target]]\nname = \"stdlib\"\nstart = [%q]\n%s",
		window, warmup, b.isolation(), b.server, ping)
	if err := os.WriteFile(suite, []byte(src), 0o644); err != nil {
		return nil, nil, err
	}
	var argv []string
	through := func() error {
		runDir, err := b.collect(b.fairbench, suite, "transparency")
		if err != nil {
			return err
		}
		m, err := readManifest(runDir)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(m.Measurements, func(mr manifest.Measurement) bool { return !mr.Warmup })
		if i < 0 {
			return fmt.Errorf("%s: no measurement", runDir)
		}
		argv = m.Measurements[i].Argv
		dump, err := os.ReadFile(filepath.Join(runDir, m.Measurements[i].Dump))
		if err != nil {
			return err
		}
		rps, err := bombardierRate(dump)
		viaCollect = append(viaCollect, rps)
		return err
	}
	hand := func() error {
		rps, err := b.byHand(argv, warmup)
		byHand = append(byHand, rps)
		return err
	}
	// The first pair starts with collect, which gives the argv to copy.
	for i := 0; i < pairs; i++ {
		steps := []func() error{through, hand}
		if i%2 == 1 {
			steps[0], steps[1] = hand, through
		}
		for _, step := range steps {
			if err := step(); err != nil {
				return nil, nil, err
			}
		}
	}
	return viaCollect, byHand, nil
}

// byHand starts the server as a person would, waits for it, warms it up
// with the same tool, then runs argv against it (its URL's port replaced).
func (b *bench) byHand(argv []string, warmup time.Duration) (float64, error) {
	port, err := freePort()
	if err != nil {
		return 0, err
	}
	server := []string{b.server}
	if b.isolate {
		server = append([]string{"taskset", "-c", "0"}, server...)
	}
	srv := exec.Command(server[0], server[1:]...)
	srv.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	srv.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := srv.Start(); err != nil {
		return 0, err
	}
	defer func() {
		syscall.Kill(-srv.Process.Pid, syscall.SIGKILL)
		srv.Wait()
	}()
	addr := "127.0.0.1:" + strconv.Itoa(port)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			return 0, errors.New("the server did not listen within 10 s")
		}
	}
	run := make([]string, len(argv))
	for i, a := range argv {
		if strings.HasPrefix(a, "http://127.0.0.1:") {
			u := strings.TrimPrefix(a, "http://127.0.0.1:")
			_, path, _ := strings.Cut(u, "/")
			a = "http://" + addr + "/" + path
		}
		run[i] = a
	}
	if warmup > 0 {
		warm := slices.Clone(run)
		for i := range warm {
			if warm[i] == "-d" && i+1 < len(warm) {
				warm[i+1] = warmup.String()
			}
		}
		if err := exec.Command(warm[0], warm[1:]...).Run(); err != nil {
			return 0, fmt.Errorf("warm-up %q: %w", warm, err)
		}
	}
	out, err := exec.Command(run[0], run[1:]...).Output()
	if err != nil {
		return 0, fmt.Errorf("%q: %w", run, err)
	}
	return bombardierRate(out)
}

// bombardierRate is completed requests ÷ the time bombardier took, from its
// JSON: the same arithmetic for both sides.
func bombardierRate(dump []byte) (float64, error) {
	var d struct {
		Result struct {
			Time   float64 `json:"timeTakenSeconds"`
			R1     int64   `json:"req1xx"`
			R2     int64   `json:"req2xx"`
			R3     int64   `json:"req3xx"`
			R4     int64   `json:"req4xx"`
			R5     int64   `json:"req5xx"`
			Others int64   `json:"others"`
		} `json:"result"`
	}
	if err := json.Unmarshal(dump, &d); err != nil {
		return 0, fmt.Errorf("bombardier JSON: %w", err)
	}
	r := d.Result
	if r.Time <= 0 {
		return 0, errors.New("bombardier JSON: no timeTakenSeconds")
	}
	return float64(r.R1+r.R2+r.R3+r.R4+r.R5+r.Others) / r.Time, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
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
