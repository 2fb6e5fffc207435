package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/fairbench/fairbench/parse/verdict"
)

// With -curve N the program measures warm-up instead of schedules: in each
// block, every target in a random order gets a fresh server process and N
// back-to-back windows of the suite's duration with no warm-up, as a
// collect's turn would see them if it counted every window. It prints, per
// target, each window's mean log ratio over the blocks to the same
// process's last half of windows, with its standard error: where the
// first windows run below the last, the process was still warming, and a
// warm-up as long as the windows before the curve meets the last half is
// the one the suite wants. Run it from the checkout root on a quiet
// machine:
//
//	go run ./collect/internal/interleave -suite site/suites/js.toml \
//	    -only hono-node,bun-serve,stdlib -curve 8 -blocks 8

// runCurve measures the warm-up curves of the suite's targets.
func runCurve(suitePath, only string, blocks, windows int, seed uint64) error {
	if windows < 4 {
		return fmt.Errorf("-curve %d: at least 4 windows, the last half of them the reference", windows)
	}
	b, done, err := newBench(suitePath, only, 1)
	if err != nil {
		return err
	}
	defer done()
	r := rand.New(rand.NewPCG(seed, 11))
	gaps := make([][][]float64, len(b.targets)) // target → window → one gap a block
	for i := range gaps {
		gaps[i] = make([][]float64, windows)
	}
	win := b.load.Duration.Std()
	for blk := range blocks {
		start := time.Now()
		for _, i := range r.Perm(len(b.targets)) {
			logs, err := b.curve(i, windows, win)
			if err != nil {
				return fmt.Errorf("block %d: %w", blk+1, err)
			}
			mid := verdict.MedianOf(logs[windows/2:])
			for k, x := range logs {
				gaps[i][k] = append(gaps[i][k], x-mid)
			}
		}
		fmt.Fprintf(os.Stderr, "block %d of %d (%s)\n", blk+1, blocks, time.Since(start).Round(time.Second))
	}
	fmt.Printf("warm-up curves: %d fresh processes a target, %d windows of %v each, no warm-up; each window against the median of the process's last %d:\n", blocks, windows, win, windows-windows/2)
	for i, t := range b.targets {
		var parts []string
		for k := range windows {
			mean, sd := meanSD(gaps[i][k])
			parts = append(parts, fmt.Sprintf("w%d %+.1f%%±%.1f", k+1, 100*math.Expm1(mean), 100*sd/math.Sqrt(float64(len(gaps[i][k])))))
		}
		fmt.Printf("  %s: %s\n", t.Name, strings.Join(parts, "  "))
	}
	return nil
}

// curve starts target i afresh and loads it for windows windows of win
// back to back; it returns each window's log req/s.
func (b *bench) curve(i, windows int, win time.Duration) ([]float64, error) {
	s, err := b.start(b.targets[i])
	if err != nil {
		return nil, err
	}
	defer s.stop()
	logs := make([]float64, windows)
	for k := range logs {
		if logs[k], err = b.window(s, win); err != nil {
			return nil, err
		}
	}
	return logs, nil
}
