package verdict

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/fairbench/fairbench/parse"

	"golang.org/x/perf/benchmath"
)

// Metric names the per-repetition number a statistic summarises.
type Metric int

const (
	// MetricRPS is requests per second as the tool printed it (or
	// requests/duration when it printed none). It counts error responses.
	MetricRPS Metric = iota
	// MetricGoodRPS is 2xx and 3xx responses per second.
	MetricGoodRPS
	// MetricEfficiency is completed requests per second of server CPU:
	// what a target serves for the CPU it burns, a number the load
	// generator cannot cap. Higher is better, as for the other metrics.
	MetricEfficiency
)

// String names the metric's unit as tables show it.
func (m Metric) String() string {
	switch m {
	case MetricGoodRPS:
		return "good req/s"
	case MetricEfficiency:
		return "req per CPU s"
	}
	return "req/s"
}

// madScale turns a median absolute deviation into an estimate of the
// standard deviation for normally distributed data.
const madScale = 1.4826

// Stat summarises the repetitions of one cell for one metric.
type Stat struct {
	N      int
	Values []float64 // one per repetition, in the order they ran
	Median float64
	// GeoMean is the geometric mean of Values: the estimator a Verdict
	// tests and shows the ratio of. NaN unless every value is positive.
	GeoMean float64
	Min     float64
	Max     float64
	// Lo and Hi bound the confidence interval of the median (benchmath's
	// order-statistic interval); one or both are infinite when n is too
	// small for the requested confidence (fewer than 6 values at 95%).
	Lo, Hi float64
	// Confidence is the interval's actual level, at least the one asked for.
	Confidence float64
	// CV is the robust coefficient of variation: 1.4826 × the median absolute
	// deviation from the median, divided by the median. 0 when n < 2.
	CV float64
	// Warnings are benchmath's remarks on the interval, with their fix.
	Warnings []string
}

// NewStat summarises values (one per repetition, in run order) at the
// thresholds' confidence level. values is not modified.
func NewStat(values []float64, th Thresholds) Stat {
	s := Stat{N: len(values), Values: slices.Clone(values)}
	if s.N == 0 {
		s.Median, s.Min, s.Max, s.GeoMean = math.NaN(), math.NaN(), math.NaN(), math.NaN()
		s.Lo, s.Hi = math.Inf(-1), math.Inf(1)
		return s
	}
	sorted := slices.Clone(values)
	sample := benchmath.NewSample(sorted, &benchmath.Thresholds{CompareAlpha: th.Alpha})
	sum := benchmath.AssumeNothing.Summary(sample, th.Confidence)
	s.Median, s.Lo, s.Hi, s.Confidence = sum.Center, sum.Lo, sum.Hi, sum.Confidence
	for _, w := range sum.Warnings {
		s.Warnings = append(s.Warnings, w.Error())
	}
	s.Min, s.Max = sorted[0], sorted[len(sorted)-1]
	s.CV = robustCV(sorted, s.Median)
	s.GeoMean = math.NaN()
	if s.Min > 0 {
		mean, _ := LogMeanVar(sorted)
		s.GeoMean = math.Exp(mean)
	}
	return s
}

// robustCV is 1.4826 × MAD / median of sorted values.
func robustCV(sorted []float64, median float64) float64 {
	if len(sorted) < 2 || median == 0 {
		return 0
	}
	dev := make([]float64, len(sorted))
	for i, v := range sorted {
		dev[i] = math.Abs(v - median)
	}
	sort.Float64s(dev)
	return madScale * MedianSorted(dev) / math.Abs(median)
}

// MedianOf is the median of v in any order: the middle value for an odd
// count, the mean of the middle two for an even one, NaN for none. v is
// not modified (a sorted copy is taken). Every median the audit and the
// site compute from raw values is this one, so a page and a finding quote
// the same figure.
func MedianOf(v []float64) float64 {
	s := slices.Clone(v)
	sort.Float64s(s)
	return MedianSorted(s)
}

// MedianSorted is the median of sorted values, NaN for none.
func MedianSorted(sorted []float64) float64 {
	n := len(sorted)
	switch {
	case n == 0:
		return math.NaN()
	case n%2 == 1:
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

// Valid reports whether the stat has at least one positive, finite median.
func (s Stat) Valid() bool {
	return s.N > 0 && s.Median > 0 && !math.IsInf(s.Median, 0)
}

// Cell is the repetitions of one target in one scenario of one run,
// warm-ups excluded, summarised.
type Cell struct {
	Run      string
	Target   string
	Runtime  string
	Scenario string
	// Name is the target as tables show it: the target name, followed by the
	// runtime in parentheses when the set holds that target on more than one
	// runtime ("hono (bun)").
	Name string
	// Tool is the load generator, or the tools joined by "+" when they differ.
	Tool string
	// Hosts is the host pair the repetitions ran on, "server→client" ("" when
	// unnamed), or the pairs joined by " + " when they ran on several.
	Hosts string
	// Reps are the measurements, in the order they ran (Order, then Rep).
	Reps    []*parse.Measurement
	RPS     Stat // MetricRPS
	GoodRPS Stat // MetricGoodRPS
	// Efficiency is MetricEfficiency, with no values (N 0) unless every
	// repetition recorded its server's CPU seconds.
	Efficiency Stat
}

// Stat returns the cell's summary of metric m.
func (c *Cell) Stat(m Metric) Stat {
	switch m {
	case MetricGoodRPS:
		return c.GoodRPS
	case MetricEfficiency:
		return c.Efficiency
	}
	return c.RPS
}

// Dumps lists the source files of the cell's repetitions, sorted, each once.
func (c *Cell) Dumps() []string {
	return DumpsOf(c.Reps)
}

// String names the cell for messages: run/name/scenario, without empty parts.
func (c *Cell) String() string {
	s := c.Name + "/" + c.Scenario
	if c.Run != "" {
		s = c.Run + "/" + s
	}
	return s
}

// CellKey identifies a cell.
type CellKey struct{ run, target, runtime, scenario string }

// Cells groups the set's measurements of the closed-loop pass (warm-ups,
// latency and sweep points excluded: Phase throughput) by run, target,
// runtime and scenario, and summarises each group. The result is sorted by
// run, scenario, name.
func Cells(set *parse.Set, th Thresholds) []*Cell {
	groups := map[CellKey][]*parse.Measurement{}
	runtimes := map[string]map[string]bool{}
	for _, m := range set.Measurements {
		if m.Warmup || m.Phase != parse.PhaseThroughput {
			continue
		}
		k := CellKey{m.Run, m.Target, m.Runtime, m.Scenario}
		groups[k] = append(groups[k], m)
		if runtimes[m.Target] == nil {
			runtimes[m.Target] = map[string]bool{}
		}
		runtimes[m.Target][m.Runtime] = true
	}
	cells := make([]*Cell, 0, len(groups))
	for k, ms := range groups {
		name := k.target
		if len(runtimes[k.target]) > 1 && k.runtime != "" {
			name = fmt.Sprintf("%s (%s)", k.target, k.runtime)
		}
		cells = append(cells, newCell(k, name, ms, th))
	}
	sort.Slice(cells, func(i, j int) bool {
		a, b := cells[i], cells[j]
		return PlaceLess(a.Run, a.Scenario, a.Name, b.Run, b.Scenario, b.Name)
	})
	return cells
}

// PlaceLess orders cells by run, then scenario, then name.
func PlaceLess(runA, scenarioA, nameA, runB, scenarioB, nameB string) bool {
	if runA != runB {
		return runA < runB
	}
	if scenarioA != scenarioB {
		return scenarioA < scenarioB
	}
	return nameA < nameB
}

func newCell(k CellKey, name string, ms []*parse.Measurement, th Thresholds) *Cell {
	ms = slices.Clone(ms)
	sort.SliceStable(ms, func(i, j int) bool {
		if ms[i].Order != ms[j].Order {
			return ms[i].Order < ms[j].Order
		}
		return ms[i].Rep < ms[j].Rep
	})
	c := &Cell{Run: k.run, Target: k.target, Runtime: k.runtime, Scenario: k.scenario, Name: name, Reps: ms}
	var tools []string
	rps := make([]float64, len(ms))
	good := make([]float64, len(ms))
	for i, m := range ms {
		rps[i], good[i] = ReqPerSec(m), m.GoodRPS()
		if !slices.Contains(tools, m.Tool) {
			tools = append(tools, m.Tool)
		}
	}
	sort.Strings(tools)
	for i, t := range tools {
		if i > 0 {
			c.Tool += "+"
		}
		c.Tool += t
	}
	c.Hosts = hostsOf(ms)
	c.RPS, c.GoodRPS, c.Efficiency = NewStat(rps, th), NewStat(good, th), NewStat(efficiency(ms), th)
	return c
}

// efficiency is each repetition's completed requests per server CPU
// second, or nil unless every repetition recorded its server's CPU.
func efficiency(ms []*parse.Measurement) []float64 {
	out := make([]float64, len(ms))
	for i, m := range ms {
		served := m.Throughput() * RanFor(m).Seconds()
		if !(m.ServerCPU > 0) || !(served > 0) {
			return nil
		}
		out[i] = served / m.ServerCPU
	}
	return out
}

// DumpsOf lists the distinct source files of ms, sorted.
func DumpsOf(ms []*parse.Measurement) []string {
	var files []string
	for _, m := range ms {
		if m.Source.File != "" {
			files = append(files, m.Source.File)
		}
	}
	slices.Sort(files)
	return slices.Compact(files)
}

// ReqPerSec is the one req/s of a repetition that every statistic here
// summarises, the same for every tool: completed requests ÷ the measured
// window (parse.Measurement.Throughput; RPSBasis says which window).
func ReqPerSec(m *parse.Measurement) float64 { return m.Throughput() }

// ToolMedian is the median of the tool's own req/s figures over a cell's
// repetitions (what a table built from the tools' printouts shows), 0 when
// a repetition printed none.
func (c *Cell) ToolMedian() float64 {
	v := make([]float64, 0, len(c.Reps))
	for _, m := range c.Reps {
		if m.ToolRPS <= 0 {
			return 0
		}
		v = append(v, m.ToolRPS)
	}
	if len(v) == 0 {
		return 0
	}
	slices.Sort(v)
	return MedianSorted(v)
}
