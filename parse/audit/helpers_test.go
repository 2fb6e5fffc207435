package audit

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
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

// simPages is how many pages each null scenario simulates.
func simPages() int {
	if os.Getenv("FAIRBENCH_SOAK") == "1" {
		return 4000
	}
	return 400
}

// binomialBound is α·N + 3·sqrt(α(1−α)N).
func binomialBound(alpha float64, n int) float64 {
	return alpha*float64(n) + 3*math.Sqrt(alpha*(1-alpha)*float64(n))
}

// aaResiduals are the deviations of every repetition from its cell's mean
// log throughput in the committed runs (site/results), each scaled by
// sqrt(n/(n−1)) so that resampled residuals keep the cell's variance.
func aaResiduals(t *testing.T) []float64 {
	t.Helper()
	runs, _ := filepath.Glob("../../site/results/*")
	if len(runs) == 0 {
		t.Skip("no committed runs under site/results")
	}
	set, _ := parse.ReadAll(runs)
	var res []float64
	for _, c := range verdict.Cells(set, verdict.DefaultThresholds) {
		v := c.RPS.Values
		if len(v) < 3 || !(c.RPS.Min > 0) {
			continue
		}
		mean, _ := verdict.LogMeanVar(v)
		scale := math.Sqrt(float64(len(v)) / float64(len(v)-1))
		for _, x := range v {
			res = append(res, (math.Log(x)-mean)*scale)
		}
	}
	if len(res) < 100 {
		t.Fatalf("only %d residuals from %v", len(res), runs)
	}
	return res
}
