package parse

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fairbench/fairbench/parse/rundir"
)

// Walk reads every path: a fairbench run dir, a single dump in any supported
// dialect, or a folder of dumps (walked in lexical order; run dirs inside it
// are read as run dirs). It calls fn for each record as it is read, so memory
// does not grow with the number of files. Problems with one file do not stop
// the others; they are returned together, with the warnings, to be told
// apart by Problems. A named path in which nothing is found is a
// *NoDumpsError. A run (by run.json's id) met twice with the same run.json is
// read once, with a *Warning; met with another run.json, the second is a
// *DuplicateRunError and is not read. An error from fn stops the walk.
func Walk(paths []string, fn func(Record) error) []error {
	w := &walker{fn: fn, runs: map[string]seenRun{}}
	for _, p := range paths {
		before, errsBefore := w.yielded, len(w.errs)
		info, err := os.Stat(p)
		switch {
		case err != nil:
			w.errs = append(w.errs, err)
			continue
		case !info.IsDir():
			w.file(p, false)
		case rundir.IsRunDir(p):
			w.run(p, false)
		default:
			w.folder(p)
		}
		if stopped(w.errs) {
			break
		}
		if w.yielded == before && !namedError(w.errs[errsBefore:]) {
			w.errs = append(w.errs, &NoDumpsError{Path: p})
		}
	}
	return w.errs
}

// walker is one Walk: the caller's fn, the runs met so far by id, and
// what it has yielded and found wrong.
type walker struct {
	fn      func(Record) error
	runs    map[string]seenRun
	yielded int // records passed to fn, and runs skipped as read already
	errs    []error
	next    *ahead // the dump a folder walk reads ahead, not parsed yet
}

// yield passes r to fn; false when fn says stop.
func (w *walker) yield(r Record) bool {
	w.yielded++
	if err := w.fn(r); err != nil {
		w.errs = append(w.errs, stopError{err})
		return false
	}
	return true
}

// namedError reports whether errs hold a problem with a named path.
func namedError(errs []error) bool {
	named, _, _ := Problems(errs)
	return len(named) > 0
}

// stopError marks an error returned by the caller's fn.
type stopError struct{ err error }

func (s stopError) Error() string { return s.err.Error() }
func (s stopError) Unwrap() error { return s.err }

func stopped(errs []error) bool {
	for _, e := range errs {
		if _, ok := e.(stopError); ok {
			return true
		}
	}
	return false
}

// folder walks root: every file that may be a dump is read, every run dir
// as a run dir; what cannot be read is a *FoundError. Each dump is read
// ahead while the one before it is parsed; everything is reported in walk
// order all the same.
func (w *walker) folder(root string) {
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if !w.parseAhead() {
				return fs.SkipAll
			}
			w.errs = append(w.errs, foundIn(p, []error{err})...)
			return nil
		}
		if d.IsDir() {
			if p != root && strings.HasPrefix(d.Name(), ".") {
				return fs.SkipDir
			}
			if p != root && rundir.IsRunDir(p) {
				if !w.parseAhead() || !w.run(p, true) {
					return fs.SkipAll
				}
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !looksLikeDump(d.Name()) && !looksLikeVegetaResults(p) {
			return nil // symlinks are not followed; notes and tables are not dumps
		}
		next := readAhead(p)
		if !w.parseAhead() {
			next.drop()
			return fs.SkipAll
		}
		w.next = next
		return nil
	})
	if !w.parseAhead() {
		return
	}
	if err != nil {
		w.errs = append(w.errs, err)
	}
}

// parseAhead parses the dump read ahead, if any; false when fn says stop.
func (w *walker) parseAhead() bool {
	if w.next == nil {
		return true
	}
	a := w.next
	w.next = nil
	return w.records(a.name, true, a.scan)
}

// looksLikeDump keeps a folder walk to files a tool may have written; the
// content decides the dialect.
func looksLikeDump(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".txt", ".json", ".log", ".out", "":
		return !strings.HasPrefix(name, ".")
	}
	return false
}

// file reads the dump at name; found says it was met in a folder walk
// rather than named. Its records are yielded as they are read. It returns
// false when fn says stop.
func (w *walker) file(name string, found bool) bool {
	return w.records(name, found, func(yield func(Record) bool) []error {
		f, err := rundir.OpenNamed(name, rundir.KindDump)
		return scanOpen(f, err, yield)
	})
}

// records yields what scan reads from the dump at name, as file does.
func (w *walker) records(name string, found bool, scan func(yield func(Record) bool) []error) bool {
	base := strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	goOn := true
	errs := scan(func(r Record) bool {
		if m, ok := r.(*Measurement); ok && m.Target == "" {
			m.Target = base
		}
		goOn = w.yield(r)
		return goOn
	})
	if found {
		errs = foundIn(name, errs)
	}
	w.errs = append(w.errs, errs...)
	return goOn
}

// scanOpen parses a dump opened by rundir.OpenNamed or rundir.OpenFile and calls yield
// with each record as it is read, until yield returns false. A regular
// file up to onePass is read once into memory (onepass.go). A larger one
// is hashed first, so that its records need not wait for the end of the
// file to carry its sha256: memory stays flat in the number of runs a file
// holds. A stream is held whole, up to its limit.
func scanOpen(f *rundir.File, err error, yield func(Record) bool) []error {
	if err != nil {
		return []error{err}
	}
	defer f.Close()
	if f.Size() >= 0 && f.Size() <= onePass {
		b, ok, err := readSmall(f)
		if err != nil {
			return []error{err}
		}
		if ok {
			defer putWhole(b)
			return scanWhole(*b, f.Name(), yield)
		}
	}
	var sum string
	if f.Size() >= 0 {
		if sum, err = rundir.ReaderSHA256(f); err != nil {
			return []error{err}
		}
		if err := f.Rewind(); err != nil {
			return []error{err}
		}
	}
	r := NewReader(f, f.Name())
	if sum != "" {
		r.SetSHA256(sum)
	}
	for r.Scan() {
		if !yield(r.Result()) {
			break
		}
	}
	return r.Errs()
}

// walkFile is Walk of the one dump file name.
func walkFile(name string, fn func(Record) error) []error {
	w := &walker{fn: fn}
	w.file(name, false)
	return w.errs
}

// readFile parses one dump file named outside a run dir into its records,
// in file order, read through OpenFile's bound.
func readFile(name string) ([]Record, []error) {
	return readOpen(rundir.OpenNamed(name, rundir.KindDump))
}

// readOpen parses a dump opened by rundir.OpenNamed or rundir.OpenFile.
func readOpen(f *rundir.File, err error) ([]Record, []error) {
	if err != nil {
		return nil, []error{err}
	}
	defer f.Close()
	r := NewReader(f, f.Name())
	var recs []Record
	for r.Scan() {
		recs = append(recs, r.Result())
	}
	return recs, r.Errs()
}

// readMeasurements parses the dump at rel in the run dir, read through
// its bound, and keeps its measurements.
func readMeasurements(dir *rundir.Root, rel string) ([]*Measurement, []error) {
	recs, errs := readOpen(dir.Open(rel, rundir.KindDump))
	var ms []*Measurement
	for _, r := range recs {
		if m, ok := r.(*Measurement); ok {
			ms = append(ms, m)
		}
	}
	return ms, errs
}

// ReadAll is Walk that keeps everything, for callers that need the whole
// set at once (statistics, pages). Walk's warnings go to the Set's
// Warnings; the errors are returned. Measurements are sorted by run, target,
// scenario, warm-up and rep.
func ReadAll(paths []string) (*Set, []error) {
	s := &Set{}
	all := Walk(paths, func(r Record) error {
		switch r := r.(type) {
		case *Measurement:
			s.Measurements = append(s.Measurements, r)
		case *Target:
			s.Targets = append(s.Targets, r)
		case *Run:
			s.Runs = append(s.Runs, r)
		}
		return nil
	})
	SortMeasurements(s.Measurements)
	var errs []error
	for _, err := range all {
		var w *Warning
		if errors.As(err, &w) {
			s.Warnings = append(s.Warnings, w)
		} else {
			errs = append(errs, err)
		}
	}
	return s, errs
}

// SortMeasurements puts measurements in the order a Set keeps them: by
// run, target and scenario, warm-ups first, then by repetition; the order
// they were read in otherwise.
func SortMeasurements(ms []*Measurement) {
	sort.SliceStable(ms, func(i, j int) bool {
		a, b := ms[i], ms[j]
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
}

// Set is everything read from some paths.
type Set struct {
	Runs         []*Run
	Targets      []*Target
	Measurements []*Measurement
	// Warnings are notes about the input that change no number read (a
	// run met twice and read once), for the commands to print.
	Warnings []*Warning
}

// String summarises the set for progress lines.
func (s *Set) String() string {
	return fmt.Sprintf("%d runs, %d targets, %d measurements", len(s.Runs), len(s.Targets), len(s.Measurements))
}
