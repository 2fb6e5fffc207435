package parse_test

import (
	"fmt"
	"os"
	"time"

	"github.com/fairbench/fairbench/parse"
)

func ExampleCompareStats() {
	th := parse.DefaultThresholds
	express := parse.NewStat([]float64{42100, 42900, 42500, 43300, 42700}, th)
	fastify := parse.NewStat([]float64{101200, 99800, 100900, 101500, 100300}, th)
	c := parse.CompareStats(express, fastify, th)
	fmt.Printf("%s, ratio %.2f [%.2f, %.2f] at %.1f%%\n", c.Delta(), c.Ratio, c.Lo, c.Hi, c.Confidence*100)
	fmt.Println(c.Reason)
	// Output:
	// +136.30%, ratio 2.36 [2.33, 2.40] at 96.8%
	// p=0.008 < 0.05 and the 136.3% change exceeds the 2% noise threshold
}

func ExampleAudit() {
	set := &parse.Set{}
	for rep, rps := range []float64{1000, 1010} {
		set.Measurements = append(set.Measurements, &parse.Measurement{
			Tool: parse.ToolWrk, Target: "gin", Scenario: "ping", Rep: rep + 1,
			Duration: 10 * time.Second, Requests: int64(rps * 10), RPS: rps,
			Errors: parse.Errors{Timeout: 3},
			Source: parse.Source{File: fmt.Sprintf("gin-%d.txt", rep+1)},
		})
	}
	findings := parse.Audit(set, parse.AuditOptions{})
	parse.WriteFindingsText(os.Stdout, findings)
	// Output:
	// 0 errors, 2 warnings, 0 infos
	//
	// WARNING timeouts at gin/ping
	//   6 of 20,100 requests (0.03%) timed out: their latency is missing from the percentiles (censored), so the tail looks better than it was; lower the load or raise the tool's timeout and report the timeouts beside the latency
	//   dumps: gin-1.txt gin-2.txt
	//
	// WARNING too-few-reps at gin/ping
	//   2 repetitions behind this number: no difference with it can be claimed, and its noise is unknown; run at least 3 repetitions (5 or more for a significance test)
	//   dumps: gin-1.txt gin-2.txt
}
