package audit_test

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/audit"
	"github.com/fairbench/fairbench/parse/verdict"
)

func ExampleDecide() {
	set := &parse.Set{}
	for name, rps := range map[string][]float64{
		"express": {42100, 42900, 42500, 43300},
		"fastify": {101200, 99800, 100900, 101500},
		"koa":     {42600, 43100, 42200, 42800},
	} {
		for rep, v := range rps {
			set.Measurements = append(set.Measurements, &parse.Measurement{Tool: parse.ToolWrk, Target: name,
				Scenario: "ping", Rep: rep + 1, RPS: v, Requests: int64(v * 10), Duration: 10 * time.Second})
		}
	}
	th := verdict.DefaultThresholds
	d := verdict.Decide(set, verdict.Cells(set, th), verdict.MetricRPS, verdict.DecideOptions{Thresholds: th})
	for _, v := range d.All() {
		fmt.Printf("%s vs %s: %s (%s)\n", v.A, v.B, v.Verdict, v.Reason)
	}
	for _, r := range d.Scenarios[0].Ranks {
		fmt.Printf("%s ranks %d–%d\n", r.Cell.Name, r.Lo, r.Hi)
	}
	// Output:
	// express vs fastify: b (differs)
	// express vs koa: = (equivalent)
	// fastify vs koa: a (differs)
	// fastify ranks 1–1
	// express ranks 2–3
	// koa ranks 2–3
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
	findings := audit.Audit(set, audit.AuditOptions{})
	audit.WriteFindingsText(os.Stdout, findings)
	// Output:
	// 0 errors, 2 warnings, 0 infos
	//
	// WARNING timeouts at gin/ping
	//   6 of 20,100 requests (0.03%) timed out: their latency is missing from the percentiles (censored), so the tail looks better than it was; lower the load or raise the tool's timeout and report the timeouts beside the latency
	//   dumps: gin-1.txt gin-2.txt
	//
	// WARNING too-few-reps at gin/ping
	//   2 repetitions behind this number: no difference with it can be claimed, and its noise is unknown; run at least 3 repetitions
	//   dumps: gin-1.txt gin-2.txt
}

func ExampleAuditTable() {
	set := &parse.Set{}
	for rep, p99 := range []time.Duration{1200 * time.Microsecond, 1500 * time.Microsecond, 3000 * time.Microsecond} {
		set.Measurements = append(set.Measurements, &parse.Measurement{
			Tool: parse.ToolWrk, Target: "gin", Scenario: "ping", Rep: rep + 1, RPS: 1000,
			Latency: parse.Latency{Percentiles: []parse.Percentile{{P: 50, Value: time.Millisecond}, {P: 99, Value: p99}}},
			Source:  parse.Source{File: fmt.Sprintf("gin-%d.txt", rep+1)},
		})
	}
	table := `| Framework | p99 (ms) |
|-----------|---------:|
| gin       |     1.90 |
`
	findings, err := audit.AuditTable(strings.NewReader(table), "results.md", set)
	if err != nil {
		fmt.Println(err)
		return
	}
	audit.WriteFindingsText(os.Stdout, findings)
	// Output:
	// 0 errors, 1 warning, 0 infos
	//
	// WARNING table-averaged-percentile at gin/ping
	//   results.md:3: gin p99 (ms) says 1.90, the mean of the 3 repetitions' p99s (1.20, 1.50, 3.00 ms → mean 1.90 ms): a mean of percentiles is not a percentile; the p99 of all the requests together lies somewhere between the repetitions' p99s, where depends on how many requests each served; publish the median of the repetitions' p99s, 1.50 ms (range 1.20–3.00 ms; 3 repetitions are too few for a 95% interval, run more), or the p99 of the merged latency histogram where the tool keeps one (wrk2's detailed percentile spectrum, an HdrHistogram log)
	//   dumps: gin-1.txt gin-2.txt gin-3.txt
}
