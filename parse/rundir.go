package parse

import (
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/fairbench/fairbench/parse/rundir"
	"github.com/fairbench/fairbench/parse/runjson"
)

// Run is the part of a fairbench run directory's run.json that is not a
// measurement: when, where, with what. Its schema is package runjson's,
// the one collect writes; package rundir reads it.
type Run struct {
	Path string // the run dir as given
	runjson.Manifest
	// DumpSHA256 is the sha256 of each dump as it was read and parsed, by
	// its path in the run dir (filepath.Clean of run.json's dump): the
	// integrity check compares these bytes with run.json without reading
	// the dumps again.
	DumpSHA256 map[string]string `json:"-"`
	// rangeWarnings are run.json's values set to unknown (Manifest.Ranges).
	rangeWarnings []string
}

func (*Run) record() {}

// ReadRun reads the run.json of the run dir at path.
func ReadRun(path string) (*Run, error) {
	run, _, err := readRun(path)
	return run, err
}

// readRun is ReadRun that also returns the sha256 of run.json's bytes,
// which say whether two run dirs of one id hold the same run.
func readRun(path string) (*Run, [sha256.Size]byte, error) {
	name := filepath.Join(path, rundir.RunJSON)
	m, sum, err := rundir.ReadManifest(path)
	var me *runjson.Error
	if errors.As(err, &me) {
		return nil, sum, &SyntaxError{File: name, Line: me.Line, Msg: me.Msg}
	}
	if err != nil {
		return nil, sum, err
	}
	warnings, err := m.Ranges()
	if err != nil {
		errors.As(err, &me)
		return nil, sum, &SyntaxError{File: name, Line: me.Line, Msg: me.Msg}
	}
	return &Run{Path: path, Manifest: *m, rangeWarnings: warnings}, sum, nil
}

// run reads the run dir at path, found in a folder walk or named, unless a
// run of its id was read already (see Walk). It returns false when fn
// says stop.
func (w *walker) run(path string, found bool) bool {
	run, sum, err := readRun(path)
	if err != nil {
		errs := []error{err}
		if found {
			errs = foundIn(filepath.Join(path, "run.json"), errs)
		}
		w.errs = append(w.errs, errs...)
		return true
	}
	if !w.firstTime(run, sum) {
		return true
	}
	for _, msg := range run.rangeWarnings {
		w.errs = append(w.errs, &Warning{Path: filepath.Join(path, "run.json"), Msg: msg})
	}
	if msg := badAAPair(run.AAPair); msg != "" {
		w.errs = append(w.errs, &Warning{Path: filepath.Join(path, "run.json"), Msg: msg})
		run.AAPair = nil
	}
	for _, pair := range run.AAPairs {
		if len(pair) != 2 || pair[0] == pair[1] {
			w.errs = append(w.errs, &Warning{Path: filepath.Join(path, "run.json"), Msg: fmt.Sprintf("aa_pairs: %q is not two different target names: that pair is ignored", pair)})
		}
	}
	errs := walkRun(run, w.yield)
	w.errs = append(w.errs, foundIn(filepath.Join(path, "run.json"), errs)...)
	return !stopped(w.errs)
}

// walkRun yields the run, its targets and its measurements, each dump parsed
// and labelled from run.json. A dump that cannot be read is an error; yield
// returns false to stop.
func walkRun(run *Run, yield func(Record) bool) []error {
	path := run.Path
	if !yield(run) {
		return nil
	}
	var errs []error
	for _, t := range run.Targets {
		rec := &Target{
			Run: run.ID, Name: t.Name, Runtime: t.Runtime,
			Build:         seconds(t.BuildS),
			BuildCached:   t.BuildCached,
			Startup:       seconds(t.StartupS),
			RSSBefore:     t.RSSBefore,
			RSSAfter:      t.RSSAfter,
			RSSPeak:       t.RSSPeak,
			ArtifactBytes: t.ArtifactBytes,
			Conformance:   t.Conformance,
			Failed:        t.Failed,
			Transcript:    t.Transcript,
			Env:           t.Env,
			Source:        Source{File: filepath.Join(path, "run.json")},
		}
		for _, p := range t.Packages {
			rec.Packages = append(rec.Packages, Package{Name: p.Name, Version: p.Version, Source: p.Source})
		}
		if !yield(rec) {
			return errs
		}
	}
	runtimes := map[string]string{}
	for _, t := range run.Targets {
		runtimes[t.Name] = t.Runtime
	}
	runJSON := filepath.Join(path, "run.json")
	dup, notes := duplicates(run.Measurements, runJSON)
	dir, err := rundir.OpenRoot(path)
	if err != nil {
		return append(errs, err)
	}
	defer dir.Close()
	for i, mr := range run.Measurements {
		if mr.Error != "" || dup[i] {
			continue // a failed measurement is not counted; audit reports it (tool-failed)
		}
		name := filepath.Join(path, filepath.FromSlash(mr.Dump))
		ms, ferrs := readMeasurements(dir, mr.Dump)
		for _, err := range ferrs {
			var se *SyntaxError
			if !errors.As(err, &se) { // not opened: missing or refused
				err = &SyntaxError{File: runJSON, Msg: fmt.Sprintf("dump %s: %v", mr.Dump, err)}
			}
			errs = append(errs, err)
		}
		for _, m := range ms {
			if msg := askedWindow(m, mr.Argv); msg != "" {
				errs = append(errs, &SyntaxError{File: m.Source.File, Line: m.Source.LineStart, Msg: fmt.Sprintf("%s run: %s (run.json argv); not counted", m.Tool, msg)})
				continue
			}
			m.Run, m.Target, m.Runtime, m.Scenario = run.ID, mr.Target, runtimes[mr.Target], mr.Scenario
			m.Rep, m.Warmup, m.Order = mr.Rep, mr.Warmup, mr.Order
			openModel(m, mr)
			m.ServerCPU, m.ClientCPU = mr.ServerCPUSeconds, mr.ClientCPUSeconds
			m.HostSpeed = mr.HostSpeed.ServerTurn()
			m.Argv = mr.Argv
			if m.Tool == ToolVegeta && len(mr.Argv) > 0 {
				(&command{argv: mr.Argv}).applyVegeta(m) // its reports print neither window nor rate
			}
			m.ServerHost, m.ClientHost, m.Shard = cmp.Or(mr.ServerHost, run.Facts.Hostname), cmp.Or(mr.ClientHost, run.Facts.Hostname), mr.Shard
			if m.ToolVersion == "" {
				m.ToolVersion = mr.ToolVersion
			}
			if mr.SHA256 != "" && m.Source.SHA256 != mr.SHA256 {
				m.Warnings = append(m.Warnings, fmt.Sprintf("%s: sha256 %s, run.json says %s: the dump changed after it was recorded", name, m.Source.SHA256, mr.SHA256))
			}
			m.Warnings = append(m.Warnings, notes[i]...)
			if run.DumpSHA256 == nil {
				run.DumpSHA256 = map[string]string{}
			}
			run.DumpSHA256[filepath.Clean(filepath.FromSlash(mr.Dump))] = m.Source.SHA256
			if !yield(m) {
				return errs
			}
		}
	}
	return errs
}

// openModel sets what run.json says of a latency or sweep point: its phase,
// its connections, its offered rate and how sending kept to the schedule.
// What the dump itself says is kept where run.json says nothing.
func openModel(m *Measurement, mr runjson.Measurement) {
	if mr.Phase != "" {
		m.Phase = mr.Phase
	}
	if mr.Connections > 0 {
		m.Connections = mr.Connections
	}
	if mr.Rate > 0 {
		m.Rate = mr.Rate
	}
	m.Open.Fraction, m.Open.Capacity = mr.RateFraction, mr.Capacity
	if mr.SendRate > 0 {
		m.Open.SendRate = mr.SendRate
	}
	if mr.BehindS > 0 {
		m.Open.Behind = seconds(mr.BehindS)
	}
	m.Open.FromSchedule = scheduleLatency(mr.FromSchedule)
	m.Open.Late = lateSending(mr.Late)
}

// measurementKey is what makes a measurement of run.json one: its dump, or
// its place in the suite (target, scenario, shard, warm-up, repetition).
type measurementKey struct {
	target, scenario, shard, phase string
	warmup                         bool
	rep, connections               int
	rate                           float64
}

// keyOf is a measurement's place in the suite.
func keyOf(mr runjson.Measurement) measurementKey {
	return measurementKey{mr.Target, mr.Scenario, mr.Shard, mr.Phase, mr.Warmup, mr.Rep, mr.Connections, mr.Rate}
}

// duplicates finds the measurements run.json lists more than once (the
// same dump, or the same target, scenario, shard, warm-up and repetition):
// each is counted once, the first time it is listed, and carries a warning
// that names run.json and every other place it is listed.
func duplicates(list []runjson.Measurement, runJSON string) (dup map[int]bool, notes map[int][]string) {
	byDump, byKey := map[string]int{}, map[measurementKey]int{}
	for i, mr := range list {
		if mr.Error != "" {
			continue
		}
		first, seen := byDump[filepath.Clean(filepath.FromSlash(mr.Dump))]
		if !seen {
			first, seen = byKey[keyOf(mr)]
		}
		if !seen {
			byDump[filepath.Clean(filepath.FromSlash(mr.Dump))] = i
			byKey[keyOf(mr)] = i
			continue
		}
		if dup == nil {
			dup, notes = map[int]bool{}, map[int][]string{}
		}
		dup[i] = true
		what := fmt.Sprintf("%s / %s rep %d", mr.Target, mr.Scenario, mr.Rep)
		if mr.Warmup {
			what += " (warm-up)"
		}
		notes[first] = append(notes[first], fmt.Sprintf("%s lists %s twice (measurements %d and %d, dumps %s and %s): counted once; remove the second entry",
			runJSON, what, first+1, i+1, list[first].Dump, mr.Dump))
	}
	return dup, notes
}

// askedWindow checks a closed-loop measurement against the window its
// command line (run.json's argv) asked for; see windowProblem.
func askedWindow(m *Measurement, argv []string) string {
	if len(argv) == 0 || m.Tool == ToolVegeta || m.Duration == 0 {
		return "" // vegeta's reports, and bombardier's text, print no window of their own
	}
	c := &command{argv: argv}
	return checkWindow(m, m.Source.File, m.Source.LineStart, c.window(), c.timeout())
}

// badAAPair says what is wrong with run.json's aa_pair, "" when nothing
// is. A pair is two different names: a target paired with itself has no
// difference to measure, and would pass for a run with no noise at all.
func badAAPair(pair []string) string {
	switch {
	case len(pair) == 0:
		return ""
	case len(pair) != 2:
		return fmt.Sprintf("aa_pair %q is not two target names: ignored, so the run has no A/A pair", pair)
	case pair[0] == pair[1]:
		return fmt.Sprintf("aa_pair pairs %s with itself: ignored, so the run has no A/A pair; name two targets of one program", pair[0])
	}
	return ""
}
