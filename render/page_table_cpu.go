package render

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/fairbench/fairbench/parse/verdict"
)

// cpuPerRequest is the server's CPU time per completed request of a cell:
// for each repetition the collector's server CPU seconds over the window
// ÷ the requests the tool counted, and the median of those. A repetition
// without both (a dump read outside a run dir) counts for nothing; "—"
// where none has them.
func cpuPerRequest(c *verdict.Cell) Num {
	var per []float64
	for _, r := range c.Reps {
		if r.ServerCPU > 0 && r.Requests > 0 {
			per = append(per, r.ServerCPU/float64(r.Requests))
		}
	}
	if len(per) == 0 {
		return Num{Text: "—", Sort: "-1", Title: "the server's CPU time was not recorded for this cell"}
	}
	slices.Sort(per)
	med := per[(len(per)-1)/2] // the lower median: one repetition's own figure
	return Num{
		Text: CPUTime(med),
		Sort: strconv.FormatFloat(med, 'f', -1, 64),
		Title: fmt.Sprintf("server CPU seconds ÷ completed requests, lower median of %d repetitions (from %s to %s)",
			len(per), CPUTime(per[0]), CPUTime(per[len(per)-1])),
	}
}

// CPUTime is CPU seconds per request as a table shows it, in µs with three
// significant digits: "38.2 µs", "1,204 µs".
func CPUTime(s float64) string {
	us := s * 1e6
	switch {
	case us >= 1000:
		return Grouped(us, 0) + " µs"
	case us >= 100:
		return strconv.FormatFloat(us, 'f', 0, 64) + " µs"
	case us >= 10:
		return strconv.FormatFloat(us, 'f', 1, 64) + " µs"
	}
	return strconv.FormatFloat(us, 'f', 2, 64) + " µs"
}
