package loadgen

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

// BombardierModule and BombardierVersion pin the bombardier fairbench runs.
const (
	BombardierModule  = "github.com/codesenberg/bombardier"
	BombardierVersion = "v1.2.6"
)

type bombardier struct{}

func (bombardier) Name() string { return "bombardier" }

// Resolve takes bombardier from PATH when it is the pinned version, and
// otherwise builds the pinned version with the go command into the user's
// cache folder (once).
func (bombardier) Resolve(ctx context.Context) (runjson.Version, error) {
	return goTool("bombardier", BombardierModule, BombardierVersion).resolve(ctx)
}

// Argv asks for JSON on stdout (-o json -p r), with the latency
// distribution (-l). bombardier has no threads setting and cannot pipeline.
func (bombardier) Argv(bin, url string, req suite.Request, l suite.Load, window time.Duration, dir string) ([]string, error) {
	if l.Pipelining > 1 {
		return nil, fmt.Errorf("bombardier cannot pipeline: use wrk or autocannon")
	}
	argv := []string{bin,
		"-c", strconv.Itoa(l.Connections),
		"-d", window.String(),
		"-t", l.Timeout.Std().String(),
		"-l", "-p", "r", "-o", "json",
	}
	if req.Method != "" && req.Method != "GET" {
		argv = append(argv, "-m", req.Method)
	}
	for _, k := range slices.Sorted(maps.Keys(req.Headers)) {
		argv = append(argv, "-H", k+": "+req.Headers[k])
	}
	if l.Rate > 0 {
		argv = append(argv, "-r", strconv.Itoa(l.Rate))
	}
	switch {
	case req.BodyPath != "":
		argv = append(argv, "-f", req.BodyPath)
	case req.Body != "":
		argv = append(argv, "-b", req.Body)
	}
	return append(argv, url), nil
}
