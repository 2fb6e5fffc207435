package render

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/fairbench/fairbench/parse"
	runhist "github.com/fairbench/fairbench/parse/history"
	"github.com/fairbench/fairbench/parse/verdict"
)

// Input is what a site is built from, read a run at a time so that memory
// does not grow with the number of dumps: the runs on show (the newest run
// of each suite, and dumps from outside run dirs) in full, every measurement
// kept; of every run, its facts (runFacts); and, spooled to a temporary
// file, every run's summary per cell for history and the repetitions
// results.json and results.csv list. Close removes that file.
//
// What stays in memory grows with the cells on show (targets × scenarios ×
// repetitions of the runs on show, and the dumps read from outside run
// dirs) and, by about 200 bytes, with each run (its ID, path, start and
// load, and its place in the spool) and by its history entry (a float per
// repetition of each cell, for the changes across runs); not with the
// dumps' bytes, nor with the older runs' measurements.
type Input struct {
	th     verdict.Thresholds
	metric verdict.Metric

	runs   []runFacts // every run read, in the order read
	detail map[string]*runRecords
	loose  runRecords         // records from outside run dirs, or naming no run read
	newest map[string]string  // suite → the run on show
	cells  map[cellID]int32   // every distinct (scenario, target, runtime) of any run, numbered for the spool
	envs   map[string]*runEnv // the runs' environments, each kept once
	spool  *spool
	hist   []histEntry // the run being read's, reused
	// history is every run's entry of its suite's history, in the order
	// read (histories sorts them).
	history []historyRun
	// What found searched, once.
	findOnce sync.Once
	steps    map[string]runhist.Steps

	cur      *runRecords // the run being read
	runtimes map[string]map[string]bool
	names    map[string]string // interned target, runtime and scenario names
	counts   struct{ runs, targets, measurements int }
	err      error
}

// historyRun is one run's entry of its suite's history.
type historyRun struct {
	suite string
	start time.Time
	entry runhist.Entry
}

// found is what parse/history finds across each suite's runs, searched
// once for History and results.json both.
func (in *Input) found() map[string]runhist.Steps {
	in.findOnce.Do(func() { in.steps = runhist.FindAll(in.histories()) })
	return in.steps
}

// histories are the suites' histories of every run read, each suite's
// entries in the order its runs started (ties by ID), as
// runhist.Histories gives them for a set.
func (in *Input) histories() map[string][]runhist.Entry {
	runs := slices.Clone(in.history)
	slices.SortStableFunc(runs, func(a, b historyRun) int {
		return cmp.Or(a.start.Compare(b.start), cmp.Compare(a.entry.Run.ID, b.entry.Run.ID))
	})
	out := map[string][]runhist.Entry{}
	for _, r := range runs {
		out[r.suite] = append(out[r.suite], r.entry)
	}
	return out
}

// runRecords are one run's records as read.
type runRecords struct {
	run     *parse.Run
	targets []*parse.Target
	ms      []*parse.Measurement
}

// cellID is a cell of some run, named by target and runtime so that the
// cell names the runs on show use can find it.
type cellID struct{ scenario, target, runtime string }

// cellOf is the number of a cell of any run, false if no run has it.
func (in *Input) cellOf(scenario, target, runtime string) (int32, bool) {
	c, ok := in.cells[cellID{scenario, target, runtime}]
	return c, ok
}

// histOf reads back the history statistics of the run at runs[i], into
// buf.
func (in *Input) histOf(i int, buf []histEntry) ([]histEntry, error) {
	out, err := in.spool.getHist(in.runs[i].hist, buf)
	if err != nil {
		return nil, fmt.Errorf("render: spool of run %s: %w", in.runs[i].id, err)
	}
	return out, nil
}

// Read reads paths (run dirs, dumps, folders of them) with parse.Walk, a
// run at a time, into the input of a site: see Input. opt gives the site's
// metric and the thresholds its statistics use; BuildInput must get the
// same. Problems with single files are returned, as parse.Walk returns
// them; the error is for the spool file.
func Read(paths []string, opt Options) (*Input, []error, error) {
	sp, err := newSpool()
	if err != nil {
		return nil, nil, err
	}
	in := newInput(opt, sp)
	errs := parse.Walk(paths, func(r parse.Record) error {
		in.add(r)
		return in.err
	})
	if err := in.finish(); err != nil {
		in.Close()
		return nil, errs, err
	}
	return in, errs, nil
}

// fromSet is the input of a set read before: its records go through the
// same steps as Read's, a run at a time, the spool kept in memory.
func fromSet(set *parse.Set, opt Options) *Input {
	in := newInput(opt, &spool{at: map[string]span{}})
	byRun := map[string]*runRecords{}
	for _, r := range set.Runs {
		byRun[r.ID] = &runRecords{run: r}
	}
	var other []parse.Record
	for _, t := range set.Targets {
		if rr := byRun[t.Run]; rr != nil && t.Run != "" {
			rr.targets = append(rr.targets, t)
		} else {
			other = append(other, t)
		}
	}
	for _, m := range set.Measurements {
		if rr := byRun[m.Run]; rr != nil && m.Run != "" {
			rr.ms = append(rr.ms, m)
		} else {
			other = append(other, m)
		}
	}
	for _, r := range set.Runs {
		rr := byRun[r.ID]
		byRun[r.ID] = &runRecords{} // a second run.json with the same ID adds no records
		in.add(r)
		for _, t := range rr.targets {
			in.add(t)
		}
		for _, m := range rr.ms {
			in.add(m)
		}
	}
	for _, rec := range other {
		in.add(rec)
	}
	in.finish() // an in-memory spool does not fail
	return in
}

func newInput(opt Options, sp *spool) *Input {
	th := opt.Thresholds
	if th == (verdict.Thresholds{}) {
		th = verdict.DefaultThresholds
	}
	in := &Input{th: th, detail: map[string]*runRecords{}, newest: map[string]string{},
		cells: map[cellID]int32{}, envs: map[string]*runEnv{}, runtimes: map[string]map[string]bool{}, names: map[string]string{}}
	if opt.Site != nil && opt.Site.Metric == "good_rps" {
		in.metric = verdict.MetricGoodRPS
	}
	in.spool = sp
	return in
}

// Close removes the spool file.
func (in *Input) Close() error {
	if in == nil || in.spool == nil {
		return nil
	}
	return in.spool.close()
}

// String counts what was read, for progress lines.
func (in *Input) String() string {
	return fmt.Sprintf("%d runs, %d targets, %d measurements", in.counts.runs, in.counts.targets, in.counts.measurements)
}

// Measurements is how many measurements were read.
func (in *Input) Measurements() int { return in.counts.measurements }

// add takes one record as parse.Walk yields it: a run, then its targets
// and measurements.
func (in *Input) add(rec parse.Record) {
	switch r := rec.(type) {
	case *parse.Run:
		in.counts.runs++
		in.endRun()
		in.cur = &runRecords{run: r}
	case *parse.Target:
		in.counts.targets++
		if in.cur != nil && r.Run == in.cur.run.ID && r.Run != "" {
			in.cur.targets = append(in.cur.targets, r)
		} else {
			in.loose.targets = append(in.loose.targets, r)
		}
	case *parse.Measurement:
		in.counts.measurements++
		if !r.Warmup {
			rt := in.runtimes[r.Target]
			if rt == nil {
				rt = map[string]bool{}
				in.runtimes[r.Target] = rt
			}
			rt[r.Runtime] = true
		}
		if in.cur != nil && r.Run == in.cur.run.ID && r.Run != "" {
			in.cur.ms = append(in.cur.ms, r)
		} else {
			in.loose.ms = append(in.loose.ms, r)
		}
	}
}

func (in *Input) finish() error {
	in.endRun()
	return in.err
}

// endRun summarises the run just read for history and the exports, in the
// spool, and keeps it in full when it is the newest of its suite so far,
// dropping the run it replaces.
func (in *Input) endRun() {
	rr := in.cur
	in.cur = nil
	if rr == nil || in.err != nil {
		return
	}
	closed := closedOnly(rr.ms)
	cells := verdict.Cells(&parse.Set{Measurements: closed}, in.th)
	// Each run's entry of its suite's history (a few floats a cell),
	// kept for every run read: the changes across runs need them all,
	// where the pages keep only the runs on show.
	for suite, es := range runhist.Histories(&parse.Set{Runs: []*parse.Run{rr.run}, Targets: rr.targets, Measurements: closed}) {
		for _, e := range es {
			in.history = append(in.history, historyRun{suite: suite, start: rr.run.Start, entry: e})
		}
	}
	in.hist = in.hist[:0]
	for _, c := range cells {
		id := cellID{in.intern(c.Scenario), in.intern(c.Target), in.intern(c.Runtime)}
		n, ok := in.cells[id]
		if !ok {
			n = int32(len(in.cells))
			in.cells[id] = n
		}
		st := c.Stat(in.metric)
		in.hist = append(in.hist, histEntry{cell: n, stat: histStat{N: st.N, Median: st.Median, Lo: st.Lo, Hi: st.Hi, Min: st.Min, Max: st.Max, Confidence: st.Confidence}})
	}
	facts := in.factsOf(rr.run)
	var err error
	if facts.hist, err = in.spool.putHist(in.hist); err == nil {
		err = in.spool.put(rr.run.ID, cells)
	}
	if err == nil {
		err = in.spool.putPoints(rr.run.ID, pointsOf(rr.ms))
	}
	if err != nil {
		in.err = fmt.Errorf("render: spool: %w", err)
		return
	}
	in.runs = append(in.runs, facts)
	if len(cells) == 0 {
		return // a run without a counted measurement is never the one on show
	}
	suite := rr.run.Suite
	if suite == "" {
		suite = "run " + rr.run.ID
	}
	if id, ok := in.newest[suite]; ok {
		if !newer(rr.run, in.detail[id].run) {
			return
		}
		delete(in.detail, id)
	}
	in.newest[suite] = rr.run.ID
	in.detail[rr.run.ID] = rr
}

// newer reports whether run a started after b (the later ID on a tie).
func newer(a, b *parse.Run) bool {
	if !a.Start.Equal(b.Start) {
		return a.Start.After(b.Start)
	}
	return a.ID > b.ID
}

func (in *Input) intern(s string) string {
	if v, ok := in.names[s]; ok {
		return v
	}
	in.names[s] = s
	return s
}

// set is the runs on show with every record, and the records from outside
// run dirs: what the pages, statistics and audit are made from.
func (in *Input) set() *parse.Set {
	s := &parse.Set{}
	ids := slices.Sorted(maps.Keys(in.detail))
	for _, id := range ids {
		rr := in.detail[id]
		s.Runs = append(s.Runs, rr.run)
		s.Targets = append(s.Targets, rr.targets...)
		s.Measurements = append(s.Measurements, rr.ms...)
	}
	s.Targets = append(s.Targets, in.loose.targets...)
	s.Measurements = append(s.Measurements, in.loose.ms...)
	parse.SortMeasurements(s.Measurements)
	return s
}

// inputs are the paths the input was read from: every run dir, and every
// dump read from outside run dirs.
func (in *Input) inputs() []string {
	var out []string
	for _, r := range in.runs {
		out = append(out, r.path)
	}
	for _, m := range in.loose.ms {
		out = append(out, m.Source.File)
	}
	return out
}

// runOrder is the places in in.runs of every run read, sorted by start,
// then ID.
func (in *Input) runOrder() []int {
	order := make([]int, len(in.runs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return in.runs[order[j]].after(&in.runs[order[i]]) })
	return order
}

// cellName is how tables name a target: with its runtime when the input
// holds the target on more than one runtime, as audit.Cells names cells.
func (in *Input) cellName(target, runtime string) string {
	if len(in.runtimes[target]) > 1 && runtime != "" {
		return fmt.Sprintf("%s (%s)", target, runtime)
	}
	return target
}
