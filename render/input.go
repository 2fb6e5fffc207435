package render

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"time"

	"github.com/fairbench/fairbench/parse"
)

// Input is what a site is built from, read a run at a time so that memory
// does not grow with the number of dumps: the runs on show (the newest run
// of each suite, and dumps from outside run dirs) in full, every measurement
// kept; every other run as its run.json facts and one summary per cell for
// history, with the repetitions results.json and results.csv list spooled
// to a temporary file. Close removes that file.
//
// What stays in memory grows with the cells on show (targets × scenarios ×
// repetitions of the runs on show, and the dumps read from outside run
// dirs) and, by a few hundred bytes, with each cell of each older run; not
// with the dumps' bytes, nor with the older runs' measurements.
type Input struct {
	th     parse.Thresholds
	metric parse.Metric

	runs   []*parse.Run // every run read, in the order read; those not on show without their per-dump records
	detail map[string]*runRecords
	loose  runRecords           // records from outside run dirs, or naming no run read
	newest map[string]string    // suite → the run on show
	hist   map[histKey]histStat // every run's cells, the site's metric
	cells  map[cellID]int32     // the distinct (scenario, target, runtime) of hist
	spool  *spool

	cur      *runRecords // the run being read
	runtimes map[string]map[string]bool
	names    map[string]string // interned target, runtime and scenario names
	counts   struct{ runs, targets, measurements int }
	err      error
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

// histKey is a cell of one run: the run's place in Input.runs, the cell's
// in Input.cells. Small, as there is one for every cell of every run.
type histKey struct{ run, cell int32 }

// histStat is what history shows of a cell's statistic.
type histStat struct {
	N                                    int
	Median, Lo, Hi, Min, Max, Confidence float64
}

func (h histStat) stat() parse.Stat {
	return parse.Stat{N: h.N, Median: h.Median, Lo: h.Lo, Hi: h.Hi, Min: h.Min, Max: h.Max, Confidence: h.Confidence}
}

// histOf is the history statistic of a cell of a run, false if none.
func (in *Input) histOf(run int, scenario, target, runtime string) (parse.Stat, bool) {
	c, ok := in.cells[cellID{scenario, target, runtime}]
	if !ok {
		return parse.Stat{}, false
	}
	h, ok := in.hist[histKey{int32(run), c}]
	return h.stat(), ok
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
	in := newInput(opt, &spool{at: map[string][2]int64{}})
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
	if th == (parse.Thresholds{}) {
		th = parse.DefaultThresholds
	}
	in := &Input{th: th, detail: map[string]*runRecords{}, newest: map[string]string{},
		hist: map[histKey]histStat{}, cells: map[cellID]int32{}, runtimes: map[string]map[string]bool{}, names: map[string]string{}}
	if opt.Site != nil && opt.Site.Metric == "good_rps" {
		in.metric = parse.MetricGoodRPS
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

// endRun summarises the run just read for history and the exports, and
// keeps it in full when it is the newest of its suite so far, dropping the
// run it replaces.
func (in *Input) endRun() {
	rr := in.cur
	in.cur = nil
	if rr == nil || in.err != nil {
		return
	}
	cells := parse.Cells(&parse.Set{Measurements: rr.ms}, in.th)
	for _, c := range cells {
		id := cellID{in.intern(c.Scenario), in.intern(c.Target), in.intern(c.Runtime)}
		n, ok := in.cells[id]
		if !ok {
			n = int32(len(in.cells))
			in.cells[id] = n
		}
		st := c.Stat(in.metric)
		in.hist[histKey{int32(len(in.runs)), n}] = histStat{N: st.N, Median: st.Median, Lo: st.Lo, Hi: st.Hi, Min: st.Min, Max: st.Max, Confidence: st.Confidence}
	}
	if err := in.spool.put(rr.run.ID, cells); err != nil {
		in.err = fmt.Errorf("render: spool: %w", err)
		return
	}
	in.runs = append(in.runs, rr.run)
	if len(cells) == 0 {
		in.trim(len(in.runs) - 1)
		return // a run without a counted measurement is never the one on show
	}
	suite := rr.run.Suite
	if suite == "" {
		suite = "run " + rr.run.ID
	}
	if id, ok := in.newest[suite]; ok {
		old := in.detail[id].run
		if !newer(rr.run, old) {
			in.trim(len(in.runs) - 1)
			return
		}
		delete(in.detail, id)
		in.trim(slices.Index(in.runs, old))
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

// trim replaces runs[i] with a copy that keeps only what history and the
// downloads use: the run.json facts, not the per-dump records.
func (in *Input) trim(i int) {
	if i < 0 {
		return
	}
	r := *in.runs[i]
	r.Measurements, r.Targets, r.Orphans, r.Errors = nil, nil, nil, nil
	in.runs[i] = &r
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
	ids := sortedKeys(in.detail)
	for _, id := range ids {
		rr := in.detail[id]
		s.Runs = append(s.Runs, rr.run)
		s.Targets = append(s.Targets, rr.targets...)
		s.Measurements = append(s.Measurements, rr.ms...)
	}
	s.Targets = append(s.Targets, in.loose.targets...)
	s.Measurements = append(s.Measurements, in.loose.ms...)
	sort.SliceStable(s.Measurements, func(i, j int) bool {
		a, b := s.Measurements[i], s.Measurements[j]
		if a.Run != b.Run {
			return a.Run < b.Run
		}
		if a.Target != b.Target {
			return a.Target < b.Target
		}
		if a.Scenario != b.Scenario {
			return a.Scenario < b.Scenario
		}
		if a.Warmup != b.Warmup {
			return a.Warmup
		}
		return a.Rep < b.Rep
	})
	return s
}

// runOrder is the places in in.runs of every run read, sorted by start,
// then ID.
func (in *Input) runOrder() []int {
	order := make([]int, len(in.runs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return newer(in.runs[order[j]], in.runs[order[i]]) })
	return order
}

// cellName is how tables name a target: with its runtime when the input
// holds the target on more than one runtime, as parse.Cells names cells.
func (in *Input) cellName(target, runtime string) string {
	if len(in.runtimes[target]) > 1 && runtime != "" {
		return fmt.Sprintf("%s (%s)", target, runtime)
	}
	return target
}

// spool keeps each run's cells and repetitions in a temporary file, one
// gob stream a run, for the exports; in memory when f is nil.
type spool struct {
	f   *os.File
	mem []byte
	end int64
	at  map[string][2]int64 // run → offset, length
}

// spoolCell is a cell as the exports need it.
type spoolCell struct {
	Target, Runtime, Scenario, Tool string
	RPS, GoodRPS                    parse.Stat
	Reps                            []exportRep
}

// exportRep is one repetition as results.json and results.csv show it.
type exportRep struct {
	Rep               int
	Tool, ToolVersion string
	RPS, GoodRPS      float64 // as printed; good responses per second
	Requests          int64
	Duration          time.Duration
	Mean              time.Duration
	P50, P99          time.Duration
	HasP50, HasP99    bool
	Errors, Non2xx    int64
	Argv              []string
	Source            parse.Source
}

func newExportRep(r *parse.Measurement) exportRep {
	e := exportRep{Rep: r.Rep, Tool: r.Tool, ToolVersion: r.ToolVersion, RPS: r.RPS, GoodRPS: r.GoodRPS(),
		Requests: r.Requests, Duration: r.Duration, Mean: r.Latency.Mean, Errors: r.Errors.Total(), Non2xx: r.Status.Non2xx,
		Argv: r.Argv, Source: r.Source}
	if r.Status.Known {
		e.Non2xx = r.Status.C1xx + r.Status.C3xx + r.Status.C4xx + r.Status.C5xx + r.Status.Other
	}
	for _, p := range r.Latency.Percentiles {
		switch {
		case p.P == 50 && !e.HasP50:
			e.P50, e.HasP50 = p.Value, true
		case p.P == 99 && !e.HasP99:
			e.P99, e.HasP99 = p.Value, true
		}
	}
	return e
}

func newSpool() (*spool, error) {
	f, err := os.CreateTemp("", "fairbench-render-*.spool")
	if err != nil {
		return nil, err
	}
	return &spool{f: f, at: map[string][2]int64{}}, nil
}

func (s *spool) put(run string, cells []*parse.Cell) error {
	out := make([]spoolCell, len(cells))
	for i, c := range cells {
		sc := spoolCell{Target: c.Target, Runtime: c.Runtime, Scenario: c.Scenario, Tool: c.Tool, RPS: c.RPS, GoodRPS: c.GoodRPS}
		for _, r := range c.Reps {
			sc.Reps = append(sc.Reps, newExportRep(r))
		}
		out[i] = sc
	}
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(out); err != nil {
		return err
	}
	if s.f == nil {
		s.mem = append(s.mem, b.Bytes()...)
	} else if _, err := s.f.Write(b.Bytes()); err != nil {
		return err
	}
	s.at[run] = [2]int64{s.end, int64(b.Len())}
	s.end += int64(b.Len())
	return nil
}

// get reads back one run's cells.
func (s *spool) get(run string) ([]spoolCell, error) {
	at, ok := s.at[run]
	if !ok {
		return nil, nil
	}
	var cells []spoolCell
	var r io.Reader
	if s.f == nil {
		r = bytes.NewReader(s.mem[at[0] : at[0]+at[1]])
	} else {
		r = io.NewSectionReader(s.f, at[0], at[1])
	}
	err := gob.NewDecoder(r).Decode(&cells)
	return cells, err
}

func (s *spool) close() error {
	if s.f == nil {
		return nil
	}
	name := s.f.Name()
	err := s.f.Close()
	if rerr := os.Remove(name); err == nil {
		err = rerr
	}
	return err
}
