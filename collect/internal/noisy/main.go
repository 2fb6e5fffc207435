// Command noisy is a noisy neighbour made to order: it takes random bursts
// of CPU on the CPUs it is pinned to, so that a server sharing them
// serves a varying share of each second, reproducibly from a seed. It is
// how fairbench's tests and its schedules benchmark put a bad day on a
// quiet host.
//
// Each second it draws a duty d, uniform in [0, -max), and in each of ten
// slices of that second spins for d of the slice, then sleeps the rest. A
// server pinned to the same CPU, asking for all of it, shares it while
// the spin lasts, so it loses about d/2 of that second: with -max 0.7 its
// windows of one second vary by about 10% (sd). It runs at the ordinary
// priority, one spinning goroutine per CPU it may use, until -for has
// passed or it is signalled, and prints nothing.
//
//	taskset -c 0 go run ./collect/internal/noisy -max 0.7 -seed 1 -for 20m
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/signal"
	"runtime"
	"sync"
	"syscall"
	"time"
)

func main() {
	maxDuty := flag.Float64("max", 0.7, "the largest share of each second to spin, in [0, 1)")
	seed := flag.Uint64("seed", 1, "seed of the duties")
	length := flag.Duration("for", 20*time.Minute, "how long to run")
	flag.Parse()
	if *maxDuty < 0 || *maxDuty >= 1 || *length <= 0 {
		fmt.Fprintln(os.Stderr, "noisy: -max must be in [0, 1) and -for positive")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, *length)
	defer cancel()
	run(ctx, *maxDuty, *seed, runtime.NumCPU())
}

// run spins on cpus goroutines until ctx ends, each second at a duty drawn
// from seed, the same for all of them.
func run(ctx context.Context, maxDuty float64, seed uint64, cpus int) {
	r := rand.New(rand.NewPCG(seed, 0x6e6f697379))
	var wg sync.WaitGroup
	for second := time.Now(); ctx.Err() == nil; second = second.Add(time.Second) {
		duty := maxDuty * r.Float64()
		for range cpus {
			wg.Add(1)
			go func() {
				defer wg.Done()
				spinSecond(ctx, second, duty)
			}()
		}
		wg.Wait()
	}
}

// spinSecond spins for duty of each tenth of the second from start.
func spinSecond(ctx context.Context, start time.Time, duty float64) {
	const slice = 100 * time.Millisecond
	for i := range 10 {
		at := start.Add(time.Duration(i) * slice)
		busyUntil := at.Add(time.Duration(duty * float64(slice)))
		for time.Now().Before(busyUntil) && ctx.Err() == nil {
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Until(at.Add(slice))):
		}
	}
}
