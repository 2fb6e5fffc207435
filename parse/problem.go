package parse

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"

	"github.com/fairbench/fairbench/parse/rundir"
)

// Walk and ReadAll return three kinds of problem, and a command answers
// each differently (see Problems):
//
//   - a path the caller named that cannot be read (missing, refused, not a
//     dump, no dumps in it, one run id with two different run.json): the
//     input is wrong, a usage error;
//   - a *FoundError: a file met inside a folder or a run dir that cannot be
//     read (an empty .txt left by a framework that failed, a note that is
//     not a dump, a dump a run dir lists and lacks). What could be read
//     still is; the command says it found a failure, or reports a finding;
//   - a *Warning: something read and worth saying, that changes no number
//     (the same run met twice and read once).

// FoundError is a file met while walking a folder or reading a run dir
// that could not be read. Path is the file; Err says why.
type FoundError struct {
	Path string
	Err  error
}

func (e *FoundError) Error() string { return e.Err.Error() }
func (e *FoundError) Unwrap() error { return e.Err }

// Warning is a note about the input that changes no number read.
type Warning struct {
	Path string // the file or folder it is about
	Msg  string
}

func (w *Warning) Error() string { return fmt.Sprintf("%s: %s", w.Path, w.Msg) }

// NoDumpsError is a path the caller named in which nothing was found to
// read: an empty folder, or one holding no dump and no run dir.
type NoDumpsError struct{ Path string }

func (e *NoDumpsError) Error() string {
	return fmt.Sprintf("no dumps in %s: name a run dir, a dump, or a folder holding them", e.Path)
}

// DuplicateRunError is one run id met at two paths whose run.json differ:
// two different runs under one name, which cannot both be counted and
// neither of which can be preferred.
type DuplicateRunError struct {
	ID          string
	First, Then string // the run dirs, in the order they were met
}

func (e *DuplicateRunError) Error() string {
	return fmt.Sprintf("%s and %s both hold run %q with different run.json: give one of them a new id (its folder and run.json's id) or remove it", e.First, e.Then, e.ID)
}

// Problems splits what Walk or ReadAll returned into problems with paths
// the caller named, files found unreadable inside them, and warnings.
func Problems(errs []error) (named, found []error, warnings []*Warning) {
	for _, err := range errs {
		var w *Warning
		var f *FoundError
		switch {
		case errors.As(err, &w):
			warnings = append(warnings, w)
		case errors.As(err, &f):
			found = append(found, f)
		default:
			named = append(named, err)
		}
	}
	return named, found, warnings
}

// foundIn marks errs as met inside a folder walked or a run dir read,
// rather than named: each becomes a *FoundError about the file it names
// (file when it names none), but for a stop by the caller's function, a
// run id clash and a warning, which stay what they are.
func foundIn(file string, errs []error) []error {
	for i, err := range errs {
		var f *FoundError
		var d *DuplicateRunError
		var w *Warning
		if _, stop := err.(stopError); stop || errors.As(err, &f) || errors.As(err, &d) || errors.As(err, &w) {
			continue
		}
		errs[i] = &FoundError{Path: cmp.Or(errorPath(err), file), Err: err}
	}
	return errs
}

// errorPath is the file an error names, where it says; "" otherwise.
func errorPath(err error) string {
	var se *SyntaxError
	var re *rundir.RefusedError
	var pe *fs.PathError
	switch {
	case errors.As(err, &se):
		return se.File
	case errors.As(err, &re):
		return re.File
	case errors.As(err, &pe):
		return pe.Path
	}
	return ""
}
