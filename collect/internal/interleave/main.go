// Command interleave measures, on this host, how far apart two schedules
// put identical targets and how well each shows a planted difference, side
// by side in one run, so that the collector's schedule is chosen on
// evidence:
//
//   - turns: what fairbench collect does: in each round, targets in a
//     random order, each a fresh server process, warmed up, then one
//     window, then stopped;
//   - interleaved: every target's server started at once and kept for
//     the block, each warmed up, then the same number of windows visiting
//     the targets in a random order each round, so that windows compared
//     with each other are seconds apart and share the host's state.
//
// With -curve it measures warm-up curves instead (curve.go). Blocks of
// the two schedules alternate. For each schedule it prints the spread, over
// blocks, of the log ratio between the A/A twins (what identical targets
// look like) and between the base and each other target, with the t a
// Welch test over that many blocks would reach. It reads targets from a
// suite (their start argv, env and dir; a build argv is run once, {bin} a
// temporary folder), loads them with the suite's tool and load, and pins
// server and load tool as the suite's [isolation] says. Run it from the
// checkout root on a quiet machine:
//
//	go run ./collect/internal/interleave -suite site/suites/planted.toml \
//	    -only node-base,node-base-aa,node-plus10 -blocks 6 -rounds 4
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/fairbench/fairbench/collect/loadgen"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse"
)

func main() {
	suitePath := flag.String("suite", "", "suite file whose targets, first scenario and load are measured")
	only := flag.String("only", "", "comma-separated targets, the base first (default: all)")
	blocks := flag.Int("blocks", 6, "blocks of each schedule, alternated")
	rounds := flag.Int("rounds", 4, "windows per target in a block")
	seed := flag.Uint64("seed", 1, "seed of the orders")
	curve := flag.Int("curve", 0, "measure warm-up curves instead (curve.go): this many windows on each fresh process, no warm-up")
	flag.Parse()
	var err error
	if *curve > 0 {
		err = runCurve(*suitePath, *only, *blocks, *curve, *seed)
	} else {
		err = run(*suitePath, *only, *blocks, *rounds, *seed)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "interleave: %v\n", err)
		os.Exit(1)
	}
}

// bench is what both schedules share.
type bench struct {
	st        *suite.Suite
	targets   []suite.Target
	scenario  suite.Scenario
	load      suite.Load
	tool      string
	bin       string
	scratch   string
	serverCPU string
	clientCPU string
	driver    loadgen.Driver
}

// newBench reads the suite, picks the targets (no fewer than least),
// resolves the load tool and builds the targets into a scratch folder,
// which done removes.
func newBench(suitePath, only string, least int) (b *bench, done func(), err error) {
	if suitePath == "" {
		return nil, nil, errors.New("-suite FILE is required")
	}
	st, err := suite.LoadSuite(suitePath)
	if err != nil {
		return nil, nil, err
	}
	b = &bench{st: st, scenario: st.Scenarios[0], serverCPU: st.Isolation.ServerCPUs, clientCPU: st.Isolation.ClientCPUs}
	b.load = st.LoadFor(b.scenario)
	for _, name := range strings.Split(only, ",") {
		for _, t := range st.Targets {
			if t.Name == name || only == "" {
				b.targets = append(b.targets, t)
			}
		}
	}
	if len(b.targets) < least {
		return nil, nil, fmt.Errorf("-only %q: fewer than %d targets of %s", only, least, suitePath)
	}
	if b.scratch, err = os.MkdirTemp("", "fairbench-interleave-"); err != nil {
		return nil, nil, err
	}
	done = func() { os.RemoveAll(b.scratch) }
	if b.driver, err = loadgen.DriverFor(b.load.Tool); err != nil {
		done()
		return nil, nil, err
	}
	v, err := b.driver.Resolve(context.Background())
	if err != nil {
		done()
		return nil, nil, err
	}
	b.tool = v.Path
	if err := b.build(); err != nil {
		done()
		return nil, nil, err
	}
	return b, done, nil
}

func run(suitePath, only string, blocks, rounds int, seed uint64) error {
	b, done, err := newBench(suitePath, only, 2)
	if err != nil {
		return err
	}
	defer done()
	r := rand.New(rand.NewPCG(seed, 7))
	logs := map[string][][]float64{} // schedule → block → per target mean log req/s
	for blk := range blocks {
		for _, sched := range []string{"turns", "interleaved"} {
			start := time.Now()
			means, err := b.block(r, sched, rounds)
			if err != nil {
				return fmt.Errorf("%s block %d: %w", sched, blk+1, err)
			}
			logs[sched] = append(logs[sched], means)
			fmt.Fprintf(os.Stderr, "%s block %d of %d: %s (%s)\n", sched, blk+1, blocks, formatRates(b.targets, means), time.Since(start).Round(time.Second))
		}
	}
	for _, sched := range []string{"turns", "interleaved"} {
		report(sched, b.targets, logs[sched])
	}
	return nil
}

// build runs each target's build argv once, {bin} the scratch folder.
func (b *bench) build() error {
	for _, t := range b.targets {
		if len(t.Build) == 0 {
			continue
		}
		cmd := exec.Command(t.Build[0], expand(t.Build[1:], b.scratch)...)
		cmd.Dir = b.dir(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("build %s: %w\n%s", t.Name, err, out)
		}
	}
	return nil
}

func (b *bench) dir(t suite.Target) string {
	if filepath.IsAbs(t.Dir) {
		return t.Dir
	}
	return t.Dir // relative to the checkout root, where this runs
}

func expand(argv []string, bin string) []string {
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = strings.ReplaceAll(a, "{bin}", bin)
	}
	return out
}

// server is one running target.
type server struct {
	cmd  *exec.Cmd
	addr string
}

func (b *bench) start(t suite.Target) (*server, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	argv := expand(t.Start, b.scratch)
	if b.serverCPU != "" {
		argv = append([]string{"taskset", "-c", b.serverCPU}, argv...)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = b.dir(t)
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port), "HOST=127.0.0.1")
	for k, v := range t.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &server{cmd: cmd, addr: "127.0.0.1:" + strconv.Itoa(port)}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if c, err := net.Dial("tcp", s.addr); err == nil {
			c.Close()
			return s, nil
		}
		if time.Now().After(deadline) {
			s.stop()
			return nil, fmt.Errorf("%s did not listen within 20 s", t.Name)
		}
	}
}

func (s *server) stop() {
	syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	s.cmd.Wait()
}

// window loads s for d and returns the log of its req/s, read by parse
// from the tool's output as fairbench reads every dump.
func (b *bench) window(s *server, d time.Duration) (float64, error) {
	url := "http://" + s.addr + b.scenario.Request.Path
	argv, err := b.driver.Argv(b.tool, url, b.scenario.Request, b.load, d, b.scratch)
	if err != nil {
		return 0, err
	}
	if b.clientCPU != "" {
		argv = append([]string{"taskset", "-c", b.clientCPU}, argv...)
	}
	out, err := exec.Command(argv[0], argv[1:]...).Output()
	if err != nil {
		return 0, fmt.Errorf("%q: %w", argv, err)
	}
	rd := parse.NewReader(strings.NewReader(string(out)), "window")
	for rd.Scan() {
		if m, ok := rd.Result().(*parse.Measurement); ok && m.Throughput() > 0 {
			return math.Log(m.Throughput()), nil
		}
	}
	return 0, fmt.Errorf("no throughput in the tool's output: %v", rd.Err())
}

// block measures every target rounds times under one schedule and
// returns each target's mean log req/s.
func (b *bench) block(r *rand.Rand, sched string, rounds int) ([]float64, error) {
	k := len(b.targets)
	sum := make([]float64, k)
	warm, win := b.load.WarmupWindow(), b.load.Duration.Std()
	order := func() []int {
		p := r.Perm(k)
		return p
	}
	switch sched {
	case "turns":
		for range rounds {
			for _, i := range order() {
				s, err := b.start(b.targets[i])
				if err != nil {
					return nil, err
				}
				if warm > 0 {
					if _, err := b.window(s, warm); err != nil {
						s.stop()
						return nil, err
					}
				}
				x, err := b.window(s, win)
				s.stop()
				if err != nil {
					return nil, err
				}
				sum[i] += x
			}
		}
	case "interleaved":
		servers := make([]*server, k)
		defer func() {
			for _, s := range servers {
				if s != nil {
					s.stop()
				}
			}
		}()
		for _, i := range order() {
			s, err := b.start(b.targets[i])
			if err != nil {
				return nil, err
			}
			servers[i] = s
			if warm > 0 {
				if _, err := b.window(s, warm); err != nil {
					return nil, err
				}
			}
		}
		for range rounds {
			for _, i := range order() {
				x, err := b.window(servers[i], win)
				if err != nil {
					return nil, err
				}
				sum[i] += x
			}
		}
	}
	for i := range sum {
		sum[i] /= float64(rounds)
	}
	return sum, nil
}

func formatRates(targets []suite.Target, means []float64) string {
	var parts []string
	for i, t := range targets {
		parts = append(parts, fmt.Sprintf("%s %.0f", t.Name, math.Exp(means[i])))
	}
	return strings.Join(parts, ", ")
}

// report prints, for one schedule, each target's log ratio to the base
// (the first target) over the blocks: mean, spread, and the t of a Welch
// test on that many blocks a side.
func report(sched string, targets []suite.Target, blocks [][]float64) {
	fmt.Printf("%s (%d blocks):\n", sched, len(blocks))
	for i := 1; i < len(targets); i++ {
		var d []float64
		for _, m := range blocks {
			d = append(d, m[0]-m[i])
		}
		mean, sd := meanSD(d)
		t := mean / (sd / math.Sqrt(float64(len(d))))
		fmt.Printf("  %s ÷ %s: %+.2f%% mean, %.2f%% sd over blocks, paired t %.1f\n", targets[0].Name, targets[i].Name, 100*math.Expm1(mean), 100*sd, t)
	}
	b, _ := json.Marshal(blocks)
	fmt.Printf("  blocks (mean log req/s per target): %s\n", b)
}

func meanSD(v []float64) (float64, float64) {
	m := 0.0
	for _, x := range v {
		m += x
	}
	m /= float64(len(v))
	s := 0.0
	for _, x := range v {
		s += (x - m) * (x - m)
	}
	return m, math.Sqrt(s / math.Max(float64(len(v)-1), 1))
}
