package collect

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"time"

	"github.com/fairbench/fairbench/collect/loadgen"
	"github.com/fairbench/fairbench/collect/machine"
	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
)

// vegetaReports runs the reports on the results of the attack tr (on the
// client machine), concatenates their stdouts byte for byte as the dump,
// measures how sending kept its schedule (when the attack and the reports
// succeeded), and removes the results: they
// take about 100 bytes a request (20 MB for a 4 s window at 50k req/s),
// and what they say is kept in the reports and in run.json.
func (c *collector) vegetaReports(ctx context.Context, bin, results, there string, rate, workers int, limit time.Duration, tr machine.ToolRun) (machine.ToolRun, schedule) {
	defer c.client.Run(context.WithoutCancel(ctx), machine.Program{Argv: []string{"rm", "-f", results}})
	// An attack that failed or was killed may have left results: they are
	// reported too, and its error stays the measurement's.
	failed := tr.Err != nil
	var stdout, stderr bytes.Buffer
	stderr.Write(tr.Stderr)
	for _, argv := range loadgen.VegetaReportArgvs(bin, results) {
		r := c.client.RunTool(ctx, argv, "", there, limit)
		stdout.Write(r.Stdout)
		stderr.Write(r.Stderr)
		if r.Err != nil {
			if !failed {
				tr.Err, tr.Exit = fmt.Errorf("vegeta %s: %w", argv[2], r.Err), r.Exit
			}
			failed = true
			break
		}
	}
	tr.Stdout, tr.Stderr = stdout.Bytes(), stderr.Bytes()
	if failed {
		return tr, schedule{}
	}
	r := c.client.RunTool(ctx, loadgen.VegetaEncodeArgv(bin, results), "", there, limit)
	if r.Err != nil {
		tr.Err = fmt.Errorf("vegeta encode: %w", r.Err)
		return tr, schedule{}
	}
	s, err := readSchedule(bytes.NewReader(r.Stdout), "vegeta encode -to=csv "+results, float64(rate), workers)
	if err != nil {
		tr.Err = err
	}
	return tr, s
}

// schedule is how an open-model attack kept its schedule.
type schedule struct {
	// Sent is the number of requests sent; SendRate their rate, req/s:
	// (Sent − 1) ÷ the time from the first send to the last, which is the
	// offered rate exactly when every request left on time.
	Sent     int
	SendRate float64
	// Behind is the latest any request left after its scheduled time, s:
	// first send + seq ÷ rate. vegeta times a request from when it leaves,
	// not from when it was due, so a window that fell behind understates
	// latency: it measures the client, not the server.
	Behind float64
	// FromSchedule is the latency timed from when each request was due
	// (parse.FromSchedule), as run.json keeps it; nil without results.
	FromSchedule *runjson.ScheduleLatency
	// Late counts the requests that went out late and those of them held
	// back by answers (parse.HeldBack) against the attack's workers; nil
	// without results.
	Late *runjson.LateSending
}

// readSchedule reads vegeta's CSV encoding of results with package
// parse's reader and measures the schedule at rate req/s of an attack
// with at most workers workers.
func readSchedule(r io.Reader, name string, rate float64, workers int) (schedule, error) {
	results, err := parse.ReadVegetaCSV(r, name)
	if err != nil {
		return schedule{}, err
	}
	s := schedule{Sent: len(results)}
	if len(results) == 0 {
		return s, nil
	}
	first, last := results[0].Timestamp, results[0].Timestamp
	for _, x := range results[1:] {
		first, last = minTime(first, x.Timestamp), maxTime(last, x.Timestamp)
	}
	if span := last.Sub(first).Seconds(); span > 0 {
		s.SendRate = float64(len(results)-1) / span
	}
	sched := parse.ScheduleOf(results, rate, workers)
	s.Behind = sched.Behind.Seconds()
	s.FromSchedule = parse.ScheduleRecord(sched.FromSchedule)
	s.Late = parse.LateRecord(sched.Late)
	return s, nil
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
