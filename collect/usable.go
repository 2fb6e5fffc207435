package collect

import (
	"bytes"
	"fmt"

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
