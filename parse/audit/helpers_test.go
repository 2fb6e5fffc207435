package audit

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/parse"
)

// Test fixtures shared by the rule tests; package verdict keeps its own.

// meas is a synthetic measurement: 10 s, every response 2xx.
func meas(run, target, scenario string, rep int, rps float64) *parse.Measurement {
	n := int64(math.Round(rps * 10))
	return &parse.Measurement{
		Tool: parse.ToolWrk, Run: run, Target: target, Scenario: scenario, Rep: rep,
		Connections: 64, Threads: 1, Window: 10 * time.Second, Duration: 10 * time.Second,
		Requests: n, RPS: rps, BytesRead: n * 100,
		Status: parse.StatusCounts{Known: true, C2xx: n},
		Source: parse.Source{File: dumpName(run, target, scenario, rep)},
	}
}

func dumpName(run, target, scenario string, rep int) string {
	return fmt.Sprintf("%s/dumps/%s/%s/%02d.txt", run, target, scenario, rep)
}

// series is one cell's measurements with the given req/s, reps from 1 and
// Order from order0 in steps of step.
func series(run, target, scenario string, order0, step int, rps ...float64) []*parse.Measurement {
	ms := make([]*parse.Measurement, len(rps))
	for i, v := range rps {
		ms[i] = meas(run, target, scenario, i+1, v)
		if step > 0 {
			ms[i].Order = order0 + i*step
		}
	}
	return ms
}

func setOf(groups ...[]*parse.Measurement) *parse.Set {
	s := &parse.Set{}
	for _, g := range groups {
		s.Measurements = append(s.Measurements, g...)
	}
	return s
}

// simPages is how many pages each null scenario simulates: 400, 4,000
// with FAIRBENCH_SOAK=1, 100 under -short.
func simPages() int {
	if os.Getenv("FAIRBENCH_SOAK") == "1" {
		return 4000
	}
	if testing.Short() {
		// each rate is still bounded at 3σ, from fixed seeds
		return 100
	}
	return 400
}

// binomialBound is α·N + 3·sqrt(α(1−α)N).
func binomialBound(alpha float64, n int) float64 {
	return alpha*float64(n) + 3*math.Sqrt(alpha*(1-alpha)*float64(n))
}

// aaResiduals are the A/A residuals of log throughput package verdict's
// null simulations resample (written by its TestResiduals): real
// run-to-run noise, one value a line, '#' lines comments.
func aaResiduals(t *testing.T) []float64 {
	t.Helper()
	const name = "../verdict/testdata/residuals.txt"
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var res []float64
	for i, line := range strings.Split(string(b), "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		x, err := strconv.ParseFloat(line, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			t.Fatalf("%s:%d: %q is not a residual", name, i+1, line)
		}
		res = append(res, x)
	}
	if len(res) < 100 {
		t.Fatalf("%s: only %d residuals", name, len(res))
	}
	return res
}
