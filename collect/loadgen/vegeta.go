package loadgen

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/rundir"
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

// Vegeta drives the open model: requests go out on a schedule (Load.Rate
// per second) whatever the answers do. Load.Connections bounds its
// workers and connections.
type Vegeta struct{}

func (Vegeta) Name() string { return "vegeta" }

// Resolve takes vegeta from PATH when it is the pinned version, and
// otherwise builds the pinned version with the go command into the user's
// cache folder (once), like bombardier.
func (Vegeta) Resolve(ctx context.Context) (runjson.Version, error) {
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
func (Vegeta) Argv(bin, url string, req suite.Request, l suite.Load, window time.Duration, dir string) ([]string, error) {
	if l.Rate < 0 {
		return nil, fmt.Errorf("vegeta: rate %d req/s: give a rate, or 0 for as fast as its workers go", l.Rate)
	}
	if l.Pipelining > 1 {
		return nil, fmt.Errorf("vegeta cannot pipeline")
	}
	t := vegetaTarget{Method: cmp.Or(req.Method, "GET"), URL: url}
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
	if err := rundir.WriteFileAtomic(targets, append(b, '\n')); err != nil {
		return nil, err
	}
	workers := strconv.Itoa(VegetaWorkers(l))
	start := strconv.Itoa(min(10, VegetaWorkers(l)))
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
		"-output=" + VegetaResults(dir),
	}, nil
}

// VegetaWorkers is the most workers (and connections) an attack with load
// l runs: -max-workers.
func VegetaWorkers(l suite.Load) int { return max(1, l.Connections) }

// VegetaResults is where an attack with scratch folder dir writes its
// binary results: beside the folder, so that it outlives the folder's
// removal on a client host until the reports are made.
func VegetaResults(dir string) string { return dir + ".vegeta" }

// VegetaReportArgvs are the two reports kept as the dump, in order: the
// JSON report and the histogram.
func VegetaReportArgvs(bin, results string) [][]string {
	return [][]string{
		{bin, "report", "-type=json", results},
		{bin, "report", "-type=" + VegetaHist, results},
	}
}

// VegetaEncodeArgv writes every result as CSV, for the schedule check.
func VegetaEncodeArgv(bin, results string) []string {
	return []string{bin, "encode", "-to=csv", results}
}
