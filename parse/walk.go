package parse

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Walk reads every path: a fairbench run dir, a single dump in any supported
// dialect, or a folder of dumps (walked in lexical order; run dirs inside it
// are read as run dirs). It calls fn for each record as it is read, so memory
// does not grow with the number of files. Problems with one file do not stop
// the others; they are returned together. An error from fn stops the walk.
func Walk(paths []string, fn func(Record) error) []error {
	var errs []error
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		var perrs []error
		switch {
		case !info.IsDir():
			perrs = walkFile(p, fn)
		case IsRunDir(p):
			perrs = walkRun(p, fn)
		default:
			perrs = walkFolder(p, fn)
		}
		errs = append(errs, perrs...)
		if stopped(perrs) {
			break
		}
	}
	return errs
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

func walkFolder(root string, fn func(Record) error) []error {
	var errs []error
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		if d.IsDir() {
			if p != root && strings.HasPrefix(d.Name(), ".") {
				return fs.SkipDir
			}
			if p != root && IsRunDir(p) {
				ferrs := walkRun(p, fn)
				errs = append(errs, ferrs...)
				if stopped(ferrs) {
					return fs.SkipAll
				}
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !looksLikeDump(d.Name()) && !looksLikeVegetaResults(p) {
			return nil // symlinks are not followed; notes and tables are not dumps
		}
		ferrs := walkFile(p, fn)
		errs = append(errs, ferrs...)
		if stopped(ferrs) {
			return fs.SkipAll
		}
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	return errs
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

func walkFile(name string, fn func(Record) error) []error {
	recs, errs := readFile(name)
	base := strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	for _, r := range recs {
		if m, ok := r.(*Measurement); ok && m.Target == "" {
			m.Target = base
		}
		if err := fn(r); err != nil {
			return append(errs, stopError{err})
		}
	}
	return errs
}

// readFile parses one dump file named outside a run dir into its records,
// in file order, read through OpenFile's bound.
func readFile(name string) ([]Record, []error) {
	return readOpen(OpenFile(name, KindDump))
}

// readOpen parses a dump opened by OpenFile or OpenRunFile.
func readOpen(f *RunFile, err error) ([]Record, []error) {
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
func readMeasurements(dir *RunDir, rel string) ([]*Measurement, []error) {
	recs, errs := readOpen(dir.Open(rel, KindDump))
	var ms []*Measurement
	for _, r := range recs {
		if m, ok := r.(*Measurement); ok {
			ms = append(ms, m)
		}
	}
	return ms, errs
}

// ReadAll is Walk that keeps everything, for callers that need the whole
// set at once (statistics, pages). Measurements are sorted by run, target,
// scenario, warm-up and rep.
func ReadAll(paths []string) (*Set, []error) {
	s := &Set{}
	errs := Walk(paths, func(r Record) error {
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
}

// String summarises the set for progress lines.
func (s *Set) String() string {
	return fmt.Sprintf("%d runs, %d targets, %d measurements", len(s.Runs), len(s.Targets), len(s.Measurements))
}
