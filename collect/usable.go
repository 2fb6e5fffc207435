package collect

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse"
)

// countProblem says why a load tool's stdout holds no count a table can
// use, read as parse reads it: no result at all (nothing printed, bytes no
// reader takes, a JSON object without its result), or a result of 0
// requests and 0 errors, which no tool that sent a request prints (a
// server that answered nothing leaves errors: refused, timed out). It is
// "" when the dump holds a count. Such a measurement fails: recorded as
// 0 req/s it would be a result the server never earned.
func countProblem(tool string, stdout []byte) string {
	r := parse.NewReader(bytes.NewReader(stdout), "stdout")
	found := false
	for r.Scan() {
		m, ok := r.Result().(*parse.Measurement)
		if !ok {
			continue
		}
		if m.Requests > 0 || m.Errors.Total() > 0 {
			return ""
		}
		found = true
	}
	if found {
		return fmt.Sprintf("%s reported 0 requests and no errors: nothing was measured; its dump is kept but not counted", tool)
	}
	why := "no output"
	if err := r.Err(); err != nil && len(stdout) > 0 {
		why = err.Error()
	}
	return fmt.Sprintf("%s printed no result: %s (%d bytes); its dump is kept but not counted", tool, why, len(stdout))
}

// usable counts the measurements of targets in the run dir that can be
// counted: taken to the end, not warm-ups, recorded without an error.
func (c *collector) usable(targets []suite.Target) int {
	want := map[string]bool{}
	for _, t := range targets {
		want[t.Name] = true
	}
	n := 0
	for _, mr := range c.dir.Manifest().Measurements {
		if want[mr.Target] && !mr.Warmup && mr.Error == "" && mr.SHA256 != "" {
			n++
		}
	}
	return n
}

// ErrGateFailed is wrapped by Run's error when a run is complete but some
// target failed the gate in some scenario: that target was not measured
// there, the others were, and every dump and transcript is kept. The run
// is a failure to its caller (fairbench exits 1), not bad usage.
var ErrGateFailed = errors.New("gate failed")

// gateFailures names the targets whose recorded gate verdict is a fail,
// with their failed scenarios, wrapped in ErrGateFailed; nil when every
// target passed. It reads run.json, so a -resume of such a run says it
// again.
func (c *collector) gateFailures(targets []suite.Target) error {
	var failed []string
	for _, t := range targets {
		if rec, ok := c.targetRecord(t.Name); ok && rec.Conformance == "fail" {
			failed = append(failed, fmt.Sprintf("%s (%s)", t.Name, strings.Join(rec.Failed, ", ")))
		}
	}
	if len(failed) == 0 {
		return nil
	}
	return fmt.Errorf("%w for %d of %d targets: %s; they were not measured there, the rest was (see conformance/ in %s)",
		ErrGateFailed, len(failed), len(targets), strings.Join(failed, "; "), c.dir.Path)
}
