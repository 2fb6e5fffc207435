package audit

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// RuleProcess fires for a repetition of one target that ran slow (or fast)
// on every scenario, beyond what the target's other repetitions show.
const RuleProcess = "process-rep"

// processMinScenarios and processMinReps are the least a target needs for
// the rule: a repetition seen in several scenarios, and enough other
// repetitions to say how far processes differ by themselves (the test
// has processMinReps−2 degrees of freedom).
const (
	processMinScenarios = 3
	processMinReps      = 5
)

// processAgree is the share of its scenarios a repetition must lie on the
// same side of the other repetitions' median in, for its offset to be the
// process's and not one or two stalled cells pulling its mean.
const processAgree = 0.9

// processRow is one repetition of one target across the scenarios it ran.
type processRow struct {
	rep   int
	level float64 // mean over the scenarios of log req/s
	cells []*parse.Measurement
}

// processTest is one repetition's test against the target's others.
type processTest struct {
	cells  []*verdict.Cell // the target's cells, by scenario
	rows   []processRow
	i      int     // the tested row
	ratio  float64 // its level against the others' mean, as a ratio
	lo, hi float64 // the others' lowest and highest, as ratios to their mean
	t, p   float64
	agree  int // scenarios on the side of ratio
}

// processFindings looks, in each run collected by fairbench (one server
// process per target and repetition, serving every scenario of that
// repetition in turn), for a repetition whose level across its scenarios
// stands apart from the target's other repetitions. Each repetition's
// level is the mean of log req/s over the target's scenarios (a
// repetition missing from one of them, or failed there, is left out); under "processes differ only as much as the others do" its
// distance from the mean of the others, over their standard deviation ×
// sqrt(1+1/k), is Student's t with k−1 degrees of freedom (a prediction
// test: it allows for processes that differ by themselves, so it fires
// only beyond that). The p-values of every repetition of every target of a
// run are Holm-adjusted together, so a run (a page) sees a false finding at
// most α of the time; a finding also needs the repetition on the same side
// in at least processAgree of the scenarios.
func processFindings(set *parse.Set, cells []*verdict.Cell, pairs [][2]string, th verdict.Thresholds) []Finding {
	collected := map[string]bool{}
	for _, m := range set.Measurements {
		collected[m.Run] = collected[m.Run] || (m.Run != "" && m.Order > 0)
	}
	runs := map[string]*parse.Run{}
	for _, r := range set.Runs {
		runs[r.ID] = r
	}
	floors := map[string]map[verdict.ScenarioKey]verdict.Floor{}
	ids, byRun := runGroups(cells)
	var fs []Finding
	for _, id := range ids {
		if !collected[id] {
			continue // foreign dumps: a repetition need not be one process
		}
		var tests []processTest
		for _, target := range targetCells(byRun[id]) {
			tests = append(tests, processTests(target)...)
		}
		ps := make([]float64, len(tests))
		for i, pt := range tests {
			ps[i] = pt.p
		}
		adj, _ := verdict.Holm(ps, th.Alpha)
		for i, pt := range tests {
			if !(adj[i] < th.Alpha) || float64(pt.agree) < processAgree*float64(len(pt.cells)) {
				continue
			}
			if floors[id] == nil {
				floors[id] = verdict.NoiseFloors(set.Runs, byRun[id], verdict.MetricRPS, pairs, th)
			}
			fs = append(fs, pt.finding(runs[id], id, adj[i], len(tests), byRun[id], floors[id], th))
		}
	}
	return fs
}

// targetCells splits one run's cells by target name, in name order.
func targetCells(cells []*verdict.Cell) [][]*verdict.Cell {
	names, by := groupCells(cells, func(c *verdict.Cell) string { return c.Name })
	out := make([][]*verdict.Cell, len(names))
	for i, n := range names {
		out[i] = by[n]
	}
	return out
}

// processRows are the repetitions of one target that ran every one of its
// scenarios with a positive req/s, each with its level.
func processRows(cells []*verdict.Cell) []processRow {
	byRep := map[int][]*parse.Measurement{}
	scenarios := map[int]map[string]bool{}
	bad := map[int]bool{}
	for _, c := range cells {
		for _, m := range c.Reps {
			if scenarios[m.Rep] == nil {
				scenarios[m.Rep] = map[string]bool{}
			}
			bad[m.Rep] = bad[m.Rep] || !(verdict.ReqPerSec(m) > 0) || scenarios[m.Rep][c.Scenario]
			scenarios[m.Rep][c.Scenario] = true
			byRep[m.Rep] = append(byRep[m.Rep], m)
		}
	}
	var rows []processRow
	for rep, ms := range byRep {
		if bad[rep] || len(ms) != len(cells) {
			continue // a repetition missing, failed or doubled in some scenario
		}
		sum := 0.0
		for _, m := range ms {
			sum += math.Log(verdict.ReqPerSec(m))
		}
		rows = append(rows, processRow{rep: rep, level: sum / float64(len(ms)), cells: ms})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].rep < rows[j].rep })
	return rows
}

// processTests tests each repetition of one target against its others.
func processTests(cells []*verdict.Cell) []processTest {
	rows := processRows(cells)
	if len(cells) < processMinScenarios || len(rows) < processMinReps {
		return nil
	}
	var out []processTest
	for i, r := range rows {
		others := make([]float64, 0, len(rows)-1)
		for j, o := range rows {
			if j != i {
				others = append(others, o.level)
			}
		}
		mean, sd := meanSD(others)
		k := float64(len(others))
		pt := processTest{cells: cells, rows: rows, i: i, ratio: math.Exp(r.level - mean),
			lo: math.Exp(slices.Min(others) - mean), hi: math.Exp(slices.Max(others) - mean)}
		pt.t = (r.level - mean) / (sd * math.Sqrt(1+1/k))
		pt.p = verdict.StudentTwoSided(pt.t, k-1)
		if sd == 0 {
			pt.p = 1 // the others alike to the last digit: nothing to scale by
		}
		pt.agree = len(pt.sideScenarios())
		out = append(out, pt)
	}
	return out
}

// meanSD is the mean and the sample standard deviation of v (len ≥ 2).
func meanSD(v []float64) (mean, sd float64) {
	mean, variance := verdict.MeanVar(v)
	return mean, math.Sqrt(variance)
}

// scenarioRatio is the tested repetition's req/s in cell c over the median
// of the other tested repetitions there.
func (pt processTest) scenarioRatio(c *verdict.Cell) float64 {
	var mine float64
	var others []float64
	for _, r := range pt.rows {
		for _, m := range r.cells {
			if m.Scenario != c.Scenario {
				continue
			}
			if r.rep == pt.rows[pt.i].rep {
				mine = verdict.ReqPerSec(m)
			} else {
				others = append(others, verdict.ReqPerSec(m))
			}
		}
	}
	sort.Float64s(others)
	return mine / verdict.MedianSorted(others)
}

// sideScenarios are the cells where the tested repetition lies on the side
// of its overall offset.
func (pt processTest) sideScenarios() []*verdict.Cell {
	var out []*verdict.Cell
	for _, c := range pt.cells {
		if r := pt.scenarioRatio(c); (pt.ratio < 1) == (r < 1) && r != 1 {
			out = append(out, c)
		}
	}
	return out
}

// finding words one significant repetition.
func (pt processTest) finding(manifest *parse.Run, run string, p float64, family int, runCells []*verdict.Cell, floors map[verdict.ScenarioKey]verdict.Floor, th verdict.Thresholds) Finding {
	row := pt.rows[pt.i]
	way := "slower"
	if pt.ratio > 1 {
		way = "faster"
	}
	var per []string
	var dumps []string
	for _, c := range pt.cells {
		per = append(per, fmt.Sprintf("%s %.2f×", c.Scenario, pt.scenarioRatio(c)))
	}
	for _, m := range row.cells {
		dumps = append(dumps, m.Source.File)
	}
	name := pt.cells[0].Name
	msg := fmt.Sprintf("repetition %d ran at %.2f× the level of the other %d repetitions (geometric mean over its %d scenarios; theirs lie from %.2f× to %.2f×), %s in %d of %d scenarios (%s; t=%.1f, p=%.2g Holm-adjusted over the run's %d repetitions of all targets): %s",
		row.rep, pt.ratio, len(pt.rows)-1, len(pt.cells), pt.lo, pt.hi, way, pt.agree, len(pt.cells),
		strings.Join(per, ", "), pt.t, p, family, pt.cause(manifest))
	msg += pt.cpuNote() + pt.factsNote(manifest) + pt.timeNote(way)
	msg += "; " + pt.effect(runCells, floors, th)
	msg += "; look at what that process did (its dumps, its CPU seconds and RSS in run.json), and run more repetitions so that one process weighs less"
	return Finding{Rule: RuleProcess, Level: LevelWarning, Run: run, Target: name, Message: msg, Dumps: uniqueSorted(dumps)}
}

// processFacts are what run.json recorded of each repetition's server
// process: its startup times (one per measurement) and its peak RSS.
type processFacts struct {
	startups []float64
	rssPeak  int64
}

// facts reads the tested target's processes from run.json, by rep.
func (pt processTest) facts(run *parse.Run) map[int]*processFacts {
	if run == nil {
		return nil
	}
	out := map[int]*processFacts{}
	for _, m := range run.Measurements {
		if m.Warmup || m.Phase != parse.PhaseThroughput || m.Target != pt.cells[0].Target {
			continue
		}
		f := out[m.Rep]
		if f == nil {
			f = &processFacts{}
			out[m.Rep] = f
		}
		f.startups = append(f.startups, m.StartupS)
		f.rssPeak = max(f.rssPeak, m.RSSPeak)
	}
	return out
}

// cause is what the repetition's scenarios shared: one server process
// when run.json gives each of its measurements the same startup (the
// collector starts one per target and repetition), else the time they ran.
func (pt processTest) cause(run *parse.Run) string {
	f := pt.facts(run)[pt.rows[pt.i].rep]
	if f != nil && len(f.startups) > 1 && f.startups[0] > 0 && !slices.ContainsFunc(f.startups, func(s float64) bool { return s != f.startups[0] }) {
		return "one server process served every scenario of this repetition, so this is that process (its JIT, its garbage collector's sizing, the CPU it got), not the scenarios' noise"
	}
	return "its scenarios shared something the other repetitions did not (a server process, or the host at that time), not the scenarios' noise"
}

// factsNote compares the repetition's startup and peak RSS with the
// others', where run.json recorded them.
func (pt processTest) factsNote(run *parse.Run) string {
	facts := pt.facts(run)
	mine := facts[pt.rows[pt.i].rep]
	if mine == nil || len(mine.startups) == 0 || !(mine.startups[0] > 0) || mine.rssPeak <= 0 {
		return ""
	}
	var startups, rss []float64
	for j, r := range pt.rows {
		f := facts[r.rep]
		if j == pt.i {
			continue
		}
		if f == nil || len(f.startups) == 0 || !(f.startups[0] > 0) || f.rssPeak <= 0 {
			return ""
		}
		startups, rss = append(startups, f.startups[0]), append(rss, float64(f.rssPeak)/(1<<20))
	}
	return fmt.Sprintf("; it started in %.2f s (the others %.2f to %.2f s) and peaked at %.0f MiB RSS (the others %.0f to %.0f MiB)",
		mine.startups[0], slices.Min(startups), slices.Max(startups), float64(mine.rssPeak)/(1<<20), slices.Min(rss), slices.Max(rss))
}

// timeNote says whether the repetition stayed apart from its first
// scenario to its last, which tells a process from a short warm-up.
func (pt processTest) timeNote(way string) string {
	first, last := pt.ends()
	r := pt.scenarioRatio(last)
	stayed := (r < 1) == (pt.ratio < 1)
	switch {
	case pt.rows[pt.i].rep == 1 && stayed:
		return fmt.Sprintf("; it is the target's first process, still %s at its last scenario (%s %.2f×), so a longer warm-up would not have removed it", way, last.Scenario, r)
	case pt.rows[pt.i].rep == 1:
		return fmt.Sprintf("; it is the target's first process and was back to the others' level by its last scenario (%s %.2f×): it was still warming, so a longer warm-up (or a discarded first round) should remove it", last.Scenario, r)
	case stayed && first != last:
		return fmt.Sprintf("; it was %s from its first scenario (%s) to its last (%s)", way, first.Scenario, last.Scenario)
	}
	return ""
}

// ends are the cells of the tested repetition's first and last scenario,
// in the order they ran.
func (pt processTest) ends() (first, last *verdict.Cell) {
	lo, hi := math.MaxInt, math.MinInt
	for _, c := range pt.cells {
		for _, m := range c.Reps {
			if m.Rep != pt.rows[pt.i].rep {
				continue
			}
			if m.Order < lo {
				lo, first = m.Order, c
			}
			if m.Order > hi {
				hi, last = m.Order, c
			}
		}
	}
	return first, last
}

// cpuNote compares the server CPU seconds per request of the tested
// repetition with the others', where run.json recorded them.
func (pt processTest) cpuNote() string {
	perReq := func(r processRow) float64 {
		cpu, n := 0.0, int64(0)
		for _, m := range r.cells {
			if m.ServerCPU <= 0 || m.Requests <= 0 {
				return math.NaN()
			}
			cpu += m.ServerCPU
			n += m.Requests
		}
		return cpu / float64(n)
	}
	mine := perReq(pt.rows[pt.i])
	var others []float64
	for j, r := range pt.rows {
		if j != pt.i {
			others = append(others, perReq(r))
		}
	}
	if math.IsNaN(mine) || slices.ContainsFunc(others, math.IsNaN) {
		return ""
	}
	return fmt.Sprintf("; it used %.0f µs of server CPU per request, the others %.0f to %.0f µs",
		mine*1e6, slices.Min(others)*1e6, slices.Max(others)*1e6)
}

// effect says what the repetition does to the run's claims: to the A/A
// twins' difference, of which the run's margin is made, when the target is
// in one of the run's pairs (the floor pools them all): their median
// difference over the scenarios with and without it; else to the target's
// intervals.
func (pt processTest) effect(runCells []*verdict.Cell, floors map[verdict.ScenarioKey]verdict.Floor, th verdict.Thresholds) string {
	name := pt.cells[0].Name
	var with, without []float64
	for _, c := range pt.cells {
		f := floors[verdict.KeyOf(c)]
		for j, pair := range f.Pairs {
			if (pair[0] != name && pair[1] != name) || math.IsNaN(f.PairDiffs[j]) {
				continue
			}
			if b, ok := pt.pairWithout(c, runCells, pair); ok {
				with, without = append(with, math.Expm1(math.Abs(f.PairDiffs[j]))), append(without, b)
			}
		}
	}
	if len(with) == 0 {
		return "it widens every interval of this target, so its verdicts, and every card it is in, lean to \"~\""
	}
	return fmt.Sprintf("this target is one side of an A/A pair of the run, whose difference sets the margin every claim of the run must clear: over %d scenarios the twins differ by %.0f%% at the median and %.0f%% at most with this repetition, %.0f%% and %.0f%% without it",
		len(with), verdict.MedianOf(with)*100, slices.Max(with)*100, verdict.MedianOf(without)*100, slices.Max(without)*100)
}

// pairWithout is an A/A pair's difference in cell c's scenario with the
// tested repetition left out of c, its side of the pair.
func (pt processTest) pairWithout(c *verdict.Cell, runCells []*verdict.Cell, pair [2]string) (float64, bool) {
	other := pair[0]
	if other == c.Name {
		other = pair[1]
	}
	var twin *verdict.Cell
	for _, t := range runCells {
		if t.Scenario == c.Scenario && t.Name == other {
			twin = t
		}
	}
	rep := pt.rows[pt.i].rep
	var mine []float64
	for i, m := range c.Reps {
		if m.Rep != rep {
			mine = append(mine, c.RPS.Values[i])
		}
	}
	if twin == nil || len(mine) < 2 || len(twin.RPS.Values) < 2 || !(twin.RPS.Min > 0) {
		return 0, false
	}
	return math.Expm1(math.Abs(verdict.WelchLog(mine, twin.RPS.Values).Diff)), true
}
