package hostcheck

// The host speed probe (runjson.HostSpeed): a shell counts to
// speedLoops on the server's CPUs and on the client's, before and after
// each target's turn, and times itself. The run's fastest time on each
// set is the host at speed; a turn around which the probe took
// retake_slow times as long is taken again at once (collect does).

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fairbench/fairbench/collect/machine"
	"github.com/fairbench/fairbench/parse/runjson"
)

// speedLoops takes dash about 250 ms on a current server core: long
// against the clock's and a fork's jitter and against a busy neighbour's
// spells of milliseconds (a 50 ms probe varied by ±30% on an idle VM,
// this one by ±3%), short against a turn.
const speedLoops = 300000

// speedScript prints the clock before and after the loop, in ns, so that
// an SSH round trip is not timed.
var speedScript = `s=$(date +%s%N); i=0; while [ $i -lt ` + strconv.Itoa(speedLoops) + ` ]; do i=$((i+1)); done; echo $s $(date +%s%N)`

// SpeedTimer times the probe on the CPU list cpus of m, in seconds.
type SpeedTimer func(ctx context.Context, m machine.Machine, cpus string) (float64, error)

// TimeSpeed runs speedScript on m, pinned to cpus.
func TimeSpeed(ctx context.Context, m machine.Machine, cpus string) (float64, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := m.Run(ctx, machine.Program{Argv: machine.Pinned(cpus, []string{"sh", "-c", speedScript})})
	if err != nil {
		return 0, fmt.Errorf("host speed probe%s: %v: %s", machine.OnMachine(m), err, strings.TrimSpace(string(out)))
	}
	return parseSpeed(out)
}

// parseSpeed reads the two clock readings speedScript prints.
func parseSpeed(out []byte) (float64, error) {
	f := strings.Fields(string(out))
	if len(f) != 2 {
		return 0, fmt.Errorf("host speed probe printed %q, not two clock readings", out)
	}
	a, err1 := strconv.ParseInt(f[0], 10, 64)
	b, err2 := strconv.ParseInt(f[1], 10, 64)
	if err1 != nil || err2 != nil || b <= a {
		return 0, fmt.Errorf("host speed probe printed %q, not two rising clock readings in ns", out)
	}
	return float64(b-a) / 1e9, nil
}

// Probe times the probe on the CPU lists serverCPUs of server and
// clientCPUs of client, at once when they are different sets; once, for
// both, when they are the same. errs holds each side's failure, where
// the time is 0. A nil timer is TimeSpeed.
func Probe(ctx context.Context, timer SpeedTimer, server, client machine.Machine, serverCPUs, clientCPUs string) (p runjson.Probe, errs [2]error) {
	if timer == nil {
		timer = TimeSpeed
	}
	if server == client && serverCPUs == clientCPUs {
		p.ServerS, errs[0] = timer(ctx, server, serverCPUs)
		p.ClientS = p.ServerS
	} else {
		var wg sync.WaitGroup
		wg.Add(2)
		go func() { defer wg.Done(); p.ServerS, errs[0] = timer(ctx, server, serverCPUs) }()
		go func() { defer wg.Done(); p.ClientS, errs[1] = timer(ctx, client, clientCPUs) }()
		wg.Wait()
	}
	return p, errs
}
