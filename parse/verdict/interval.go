package verdict

import (
	"fmt"
	"math"
	"sort"

	"github.com/fairbench/fairbench/parse"
)

// The kinds of Interval.
const (
	// IntervalMinMax is the range of the repetitions: shown below the
	// sample size at which a confidence interval of the median exists at
	// the level asked for (6 repetitions at 95%). It has no level.
	IntervalMinMax = "min-max"
	// IntervalCI is the order-statistic confidence interval of the median,
	// with its actual level.
	IntervalCI = "ci"
)

// Interval is the range shown around a cell's median, saying what it is.
// A page labels it with Label, never as "interval" alone.
type Interval struct {
	Kind   string  `json:"kind"` // IntervalMinMax or IntervalCI
	Lo, Hi float64 `json:"-"`
	// Level is the confidence of an IntervalCI; 0 for IntervalMinMax.
	Level float64 `json:"level,omitempty"`
	N     int     `json:"n"`
}

// Interval is the stat's honest interval: the confidence interval of the
// median where the repetitions give a finite one, else the min–max range.
func (s Stat) Interval() Interval {
	if s.N > 0 && !math.IsInf(s.Lo, 0) && !math.IsInf(s.Hi, 0) && s.Confidence > 0 {
		return Interval{Kind: IntervalCI, Lo: s.Lo, Hi: s.Hi, Level: s.Confidence, N: s.N}
	}
	return Interval{Kind: IntervalMinMax, Lo: s.Min, Hi: s.Max, N: s.N}
}

// Label names the interval for a reader: "min–max of 4 repetitions" or
// "95% confidence interval of the median".
func (i Interval) Label() string {
	if i.Kind == IntervalCI {
		return levelLabel(i.Level) + " confidence interval of the median"
	}
	return "min–max of " + parse.Plural(i.N, "repetition")
}

// MedianRep is the lower-median repetition of the cell by metric m: of n
// repetitions sorted by throughput, the ((n+1)/2)-th from the slowest. A
// page showing one repetition's latency percentiles shows this one's, so
// every percentile is one a dump printed, never a mean of two. nil for a
// cell without repetitions.
func (c *Cell) MedianRep(m Metric) *parse.Measurement {
	if len(c.Reps) == 0 {
		return nil
	}
	st := c.Stat(m)
	idx := make([]int, len(c.Reps))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return st.Values[idx[a]] < st.Values[idx[b]] })
	return c.Reps[idx[(len(idx)-1)/2]]
}

// String is "12,345 [12,000, 12,500] (min–max of 4 repetitions)"-like, for
// messages and the command line.
func (i Interval) String() string {
	return fmt.Sprintf("[%s, %s] (%s)", parse.FormatCount(i.Lo), parse.FormatCount(i.Hi), i.Label())
}
