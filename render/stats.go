package render

import (
	"sort"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// medianRep is the lower-median repetition of c by metric m: of n
// repetitions sorted by throughput, the ((n+1)/2)-th from the slowest.
// Latency percentiles are shown as this one run printed them. nil for a
// cell without repetitions.
func medianRep(c *verdict.Cell, m verdict.Metric) *parse.Measurement {
	if len(c.Reps) == 0 {
		return nil
	}
	vs := c.Stat(m).Values
	idx := make([]int, len(c.Reps))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return vs[idx[a]] < vs[idx[b]] })
	return c.Reps[idx[(len(idx)-1)/2]]
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
