// Command schedules collects the planted suite (site/suites/planted.toml:
// one plain server, copies of it at known added CPU costs, A/A twins) with
// the collector itself, quiet and under a noisy neighbour
// (collect/internal/noisy), and prints for each collect what the verdicts
// resolved, so that the collector's schedule and its precision are judged
// on this host's evidence:
//
//   - rounds spent, wall time, the noise pilot's noise per window (the
//     hour's host noise) and the 1-minute load average before it;
//   - each planted pair: its ratio and whether it was claimed, the right
//     way or the wrong one; the twins;
//   - the twins' paired sd: the sd of their log differences over the
//     rounds, what the schedule's pairing leaves of the host's noise.
//
// -scenarios 2 adds a copy of the ping scenario, so that the two orders of
// a round differ: scenario by scenario (every target's window of ping back
// to back) or target by target (each target's ping and ping2 on one
// process, so a pair's ping windows lie a ping2 window apart). Run it from
// the checkout root on an otherwise quiet machine:
//
//	go run ./collect/internal/schedules -noisy both -order both -scenarios 2 -resolve off -reps 12
//	go run ./collect/internal/schedules -noisy both -resolve 10% -budget 15m -collects 5
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/fairbench/fairbench/collect"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// options are the command's flags.
type options struct {
	suite, noisy, order, resolve, budget, out string
	reps, scenarios, collects                 int
	maxDuty, retake                           float64
	only                                      string
	progress                                  collect.Progress // nil: none
}

func main() {
	var o options
	flag.StringVar(&o.suite, "suite", "site/suites/planted.toml", "the planted suite")
	flag.StringVar(&o.noisy, "noisy", "both", "with the noisy neighbour: off, on or both (quiet first)")
	flag.StringVar(&o.order, "order", "scenario", "a round's order: scenario, target or both")
	flag.StringVar(&o.resolve, "resolve", "", "[load] resolve for the collects (\"off\" for a fixed count); default the suite's")
	flag.StringVar(&o.budget, "budget", "", "[load] budget for the collects; default the suite's")
	flag.IntVar(&o.reps, "reps", 0, "[load] repetitions (the fewest rounds); 0: the suite's")
	flag.IntVar(&o.scenarios, "scenarios", 1, "1, or 2 to add a copy of the ping scenario")
	flag.IntVar(&o.collects, "collects", 1, "collects of each configuration")
	flag.Float64Var(&o.maxDuty, "max", 0.7, "the noisy neighbour's largest duty per second")
	flag.Float64Var(&o.retake, "retake", -1, "[isolation] retake_slow for the collects (0: never wait for the host nor take a turn again); below 0 the suite's")
	flag.StringVar(&o.only, "only", "", "comma-separated targets (default all)")
	flag.StringVar(&o.out, "out", "", "folder for the run dirs (default a temporary one, removed)")
	flag.Parse()
	o.progress = collect.ProgressFor(os.Stderr)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "schedules: %v\n", err)
		os.Exit(1)
	}
}

// run collects each configuration o asks for, printing to w.
func run(ctx context.Context, o options, w io.Writer) error {
	st, err := loadSuite(o)
	if err != nil {
		return err
	}
	out := o.out
	if out == "" {
		if out, err = os.MkdirTemp("", "fairbench-schedules-"); err != nil {
			return err
		}
		defer os.RemoveAll(out)
	}
	noisy, err := choices(o.noisy, "off", "on")
	if err != nil {
		return fmt.Errorf("-noisy: %w", err)
	}
	orders, err := choices(o.order, "scenario", "target")
	if err != nil {
		return fmt.Errorf("-order: %w", err)
	}
	for _, n := range noisy {
		for i := 1; i <= o.collects; i++ {
			for _, order := range orders {
				if err := collectOnce(ctx, w, st, o, out, n == "on", order, i); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// choices reads a flag of two values or "both".
func choices(v, a, b string) ([]string, error) {
	switch v {
	case a, b:
		return []string{v}, nil
	case "both":
		return []string{a, b}, nil
	}
	return nil, fmt.Errorf("%q: want %s, %s or both", v, a, b)
}

// commentOut turns the suite's first line setting key into a comment, so
// that a flag's key put in [load] in its place is the one TOML reads.
func commentOut(text, key string) string {
	return strings.Replace(text, "\n"+key+" = ", "\n# "+key+" = ", 1)
}

// loadSuite reads the suite with the flags' keys put in its [load] and,
// with -scenarios 2, a copy of its first scenario.
func loadSuite(o options) (*suite.Suite, error) {
	src, err := os.ReadFile(o.suite)
	if err != nil {
		return nil, err
	}
	text := string(src)
	var keys []string
	if o.reps > 0 {
		text = commentOut(text, "repetitions")
		keys = append(keys, fmt.Sprintf("repetitions = %d", o.reps))
	}
	if o.resolve != "" {
		text = commentOut(text, "resolve")
		keys = append(keys, fmt.Sprintf("resolve = %q", o.resolve))
	}
	if o.budget != "" {
		text = commentOut(text, "budget")
		keys = append(keys, fmt.Sprintf("budget = %q", o.budget))
	}
	text = strings.Replace(text, "\n[load]\n", "\n[load]\n"+strings.Join(append(keys, ""), "\n"), 1)
	if o.scenarios == 2 {
		text += "\n[[scenario]]\nname = \"ping2\"\nrequest = { method = \"GET\", path = \"/\" }\nexpect = { status = 200, headers = { content-type = \"text/plain*\" }, body = \"Hi\" }\n"
	}
	if o.retake >= 0 {
		line := fmt.Sprintf("retake_slow = %g", o.retake)
		if re := regexp.MustCompile(`(?m)^retake_slow = .*$`); re.MatchString(text) {
			text = re.ReplaceAllString(text, line)
		} else {
			text = strings.Replace(text, "\n[isolation]\n", "\n[isolation]\n"+line+"\n", 1)
		}
	}
	st, err := suite.ParseSuite([]byte(text), o.suite)
	if err != nil {
		return nil, err
	}
	if o.only != "" {
		keep := strings.Split(o.only, ",")
		st.Targets = slices.DeleteFunc(st.Targets, func(t suite.Target) bool { return !slices.Contains(keep, t.Name) })
	}
	return st, nil
}

// collectOnce collects st once and prints what its verdicts resolved.
func collectOnce(ctx context.Context, w io.Writer, st *suite.Suite, o options, out string, noisy bool, order string, i int) error {
	label := fmt.Sprintf("%s, %s order, collect %d", map[bool]string{false: "quiet", true: "noisy neighbour"}[noisy], order, i)
	load := loadAverage()
	if noisy {
		stopNoise, err := startNoise(ctx, st.Isolation.ServerCPUs, o.maxDuty, uint64(i))
		if err != nil {
			return err
		}
		defer stopNoise()
	}
	start := time.Now()
	dir, err := collect.Run(ctx, st, collect.Options{Out: out, TargetMajor: order == "target", QuietWait: -1, Progress: o.progress})
	if err != nil {
		return fmt.Errorf("%s: %w", label, err)
	}
	took := time.Since(start)
	set, errs := parse.ReadAll([]string{dir.Path})
	for _, err := range errs {
		if _, warn := err.(*parse.Warning); !warn {
			return fmt.Errorf("%s: %w", label, err)
		}
	}
	report(w, label, load, took, set)
	return nil
}

// report prints one collect's line and its planted pairs.
func report(w io.Writer, label, load string, took time.Duration, set *parse.Set) {
	th := verdict.DefaultThresholds
	d := verdict.Decide(set, verdict.Cells(set, th), verdict.MetricRPS, verdict.DecideOptions{Thresholds: th})
	run := set.Runs[0]
	sigma, rounds := "-", 0
	if p := run.Precision; p != nil {
		if len(p.Pilots) > 0 {
			sigma = fmt.Sprintf("%.1f%%", 100*p.Pilots[0].Sigma)
		}
		for _, s := range p.Scenarios {
			rounds = max(rounds, s.Rounds)
		}
	}
	if rounds == 0 {
		rounds = d.Scenarios[0].Cells[0].RPS.N
	}
	fmt.Fprintf(w, "%s: %d rounds in %v; pilot noise per window %s; load average before %s\n", label, rounds, took.Round(time.Second), sigma, load)
	for _, r := range verdict.ResolvingPower(set, d) {
		for _, p := range r.Planted {
			what := "not claimed"
			switch {
			case p.Resolved:
				what = "claimed, right way"
			case p.Wrong:
				what = "CLAIMED THE WRONG WAY"
			}
			fmt.Fprintf(w, "  %s %s vs %s: cost %+.1f%%, base÷copy %.3f: %s\n", p.Scenario, p.Target, p.Base, 100*p.Cost, 1/p.Verdict.Over(p.Cells[0]).Ratio, what)
		}
		fmt.Fprintf(w, "  twins claimed apart in %d of %d scenarios\n", r.TwinsClaimed, r.Twins)
	}
	for _, sv := range d.Scenarios {
		if len(run.AAPair) != 2 {
			break // no twins to pair
		}
		if a, b := verdict.AACells(sv.Cells, [2]string{run.AAPair[0], run.AAPair[1]}); a != nil && b != nil {
			fmt.Fprintf(w, "  %s: twins' paired sd %.4f over %d rounds\n", sv.Scenario, pairedSD(a, b), a.RPS.N)
		}
	}
}

// pairedSD is the sd of a's and b's log differences, round by round.
func pairedSD(a, b *verdict.Cell) float64 {
	byRep := map[int]float64{}
	for i, m := range a.Reps {
		byRep[m.Rep] = math.Log(a.RPS.Values[i])
	}
	var d []float64
	for i, m := range b.Reps {
		if x, ok := byRep[m.Rep]; ok {
			d = append(d, x-math.Log(b.RPS.Values[i]))
		}
	}
	_, v := verdict.MeanVar(d)
	return math.Sqrt(v)
}

// startNoise starts the noisy neighbour on cpus, seeded, and returns what
// ends it.
func startNoise(ctx context.Context, cpus string, maxDuty float64, seed uint64) (func(), error) {
	bin := filepath.Join(os.TempDir(), "fairbench-noisy")
	if out, err := exec.Command("go", "build", "-o", bin, "./collect/internal/noisy").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("build noisy: %v\n%s", err, out)
	}
	argv := []string{bin, "-max", fmt.Sprint(maxDuty), "-seed", fmt.Sprint(seed), "-for", "3h"}
	if cpus != "" {
		argv = append([]string{"taskset", "-c", cpus}, argv...)
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}, nil
}

// loadAverage is /proc/loadavg's three figures.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], "/")
}
