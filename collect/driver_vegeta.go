package collect

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
)

// VegetaModule and VegetaVersion pin the vegeta fairbench runs for the
// open-model latency phase.
const (
	VegetaModule  = "github.com/tsenart/vegeta/v12"
	VegetaVersion = "v12.13.0"
)

// VegetaHist is the histogram report kept with vegeta's JSON report: its
// buckets run from 100 µs to 5 s, so that a loopback answer and a request
// that waited out most of a timeout both land in a bucket of their own.
const VegetaHist = "hist[0,100us,250us,500us,1ms,2.5ms,5ms,10ms,25ms,50ms,100ms,250ms,500ms,1s,2.5s,5s]"

// vegeta drives the open model: requests go out on a schedule (Load.Rate
// per second) whatever the answers do. Load.Connections bounds its
// workers and connections.
type vegeta struct{}

func (vegeta) Name() string { return "vegeta" }

// Resolve takes vegeta from PATH when it is the pinned version, and
// otherwise builds the pinned version with the go command into the user's
// cache folder (once), like bombardier.
func (vegeta) Resolve(ctx context.Context) (runjson.Version, error) {
	return goTool("vegeta", VegetaModule, VegetaVersion).resolve(ctx)
}

// vegetaTarget is one target of vegeta's -format=json.
type vegetaTarget struct {
	Method string              `json:"method"`
	URL    string              `json:"url"`
	Body   string              `json:"body,omitempty"` // base64
	Header map[string][]string `json:"header,omitempty"`
}

// Argv is `vegeta attack` at l.Rate requests a second for window (0: as
// fast as l.Connections workers go, each sending as soon as it has its
// answer: the ceiling calibration, PhaseCeiling), the
// request written as a JSON target in dir. It keeps no response bodies
// (-max-body 0) and writes its binary results next to dir (vegetaResults),
// outside the scratch folder a client host removes after the run.
// Workers start at min(10, l.Connections) and never pass l.Connections;
// each worker has one request in flight on its own connection, so the
// connections are bounded alike.
func (vegeta) Argv(bin, url string, req suite.Request, l suite.Load, window time.Duration, dir string) ([]string, error) {
	if l.Rate < 0 {
		return nil, fmt.Errorf("vegeta: rate %d req/s: give a rate, or 0 for as fast as its workers go", l.Rate)
	}
	if l.Pipelining > 1 {
		return nil, fmt.Errorf("vegeta cannot pipeline")
	}
	t := vegetaTarget{Method: cmpOr(req.Method, "GET"), URL: url}
	if req.Body != "" {
		t.Body = base64.StdEncoding.EncodeToString([]byte(req.Body))
	}
	for _, k := range slices.Sorted(maps.Keys(req.Headers)) {
		if t.Header == nil {
			t.Header = map[string][]string{}
		}
		t.Header[k] = []string{req.Headers[k]}
	}
	b, err := json.Marshal(t)
	if err != nil {
		return nil, err
	}
	targets := filepath.Join(dir, "targets.json")
	if err := WriteFileAtomic(targets, append(b, '\n')); err != nil {
		return nil, err
	}
	workers := strconv.Itoa(vegetaWorkers(l))
	start := strconv.Itoa(min(10, vegetaWorkers(l)))
	rate := strconv.Itoa(l.Rate) + "/1s"
	if l.Rate == 0 {
		rate, start = "0", workers // every worker sends as soon as it has its answer
	}
	return []string{bin, "attack",
		"-format=json", "-targets=" + targets,
		"-rate=" + rate,
		"-duration=" + window.String(),
		"-timeout=" + l.Timeout.Std().String(),
		"-max-body=0",
		"-workers=" + start, "-max-workers=" + workers,
		"-connections=" + workers, "-max-connections=" + workers,
		"-output=" + vegetaResults(dir),
	}, nil
}

// vegetaWorkers is the most workers (and connections) an attack with load
// l runs: -max-workers.
func vegetaWorkers(l suite.Load) int { return max(1, l.Connections) }

// vegetaResults is where an attack with scratch folder dir writes its
// binary results: beside the folder, so that it outlives the folder's
// removal on a client host until the reports are made.
func vegetaResults(dir string) string { return dir + ".vegeta" }

// vegetaReportArgvs are the two reports kept as the dump, in order: the
// JSON report and the histogram.
func vegetaReportArgvs(bin, results string) [][]string {
	return [][]string{
		{bin, "report", "-type=json", results},
		{bin, "report", "-type=" + VegetaHist, results},
	}
}

// vegetaEncodeArgv writes every result as CSV, for the schedule check.
func vegetaEncodeArgv(bin, results string) []string {
	return []string{bin, "encode", "-to=csv", results}
}

// vegetaReports runs the reports on the results of the attack tr (on the
// client machine), concatenates their stdouts byte for byte as the dump,
// measures how sending kept its schedule (when the attack and the reports
// succeeded), and removes the results: they
// take about 100 bytes a request (20 MB for a 4 s window at 50k req/s),
// and what they say is kept in the reports and in run.json.
func (c *collector) vegetaReports(ctx context.Context, bin, results, there string, rate, workers int, limit time.Duration, tr toolRun) (toolRun, schedule) {
	defer c.client.run(context.WithoutCancel(ctx), program{argv: []string{"rm", "-f", results}})
	// An attack that failed or was killed may have left results: they are
	// reported too, and its error stays the measurement's.
	failed := tr.err != nil
	var stdout, stderr bytes.Buffer
	stderr.Write(tr.stderr)
	for _, argv := range vegetaReportArgvs(bin, results) {
		r := c.client.runTool(ctx, argv, "", there, limit)
		stdout.Write(r.stdout)
		stderr.Write(r.stderr)
		if r.err != nil {
			if !failed {
				tr.err, tr.exit = fmt.Errorf("vegeta %s: %w", argv[2], r.err), r.exit
			}
			failed = true
			break
		}
	}
	tr.stdout, tr.stderr = stdout.Bytes(), stderr.Bytes()
	if failed {
		return tr, schedule{}
	}
	r := c.client.runTool(ctx, vegetaEncodeArgv(bin, results), "", there, limit)
	if r.err != nil {
		tr.err = fmt.Errorf("vegeta encode: %w", r.err)
		return tr, schedule{}
	}
	s, err := readSchedule(bytes.NewReader(r.stdout), "vegeta encode -to=csv "+results, float64(rate), workers)
	if err != nil {
		tr.err = err
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
