package parse

import (
	"crypto/sha256"
	"fmt"
)

// A run is known by the id in its run.json, not by where it lies: a copy of
// a run dir, the same run dir named twice, or a project folder holding both
// results/ and a rendered site (whose raw/<run>/ is a whole run dir) all
// meet one run more than once. Counted each time, its repetitions would
// double and every interval would narrow with no new measurement, so a run
// is read the first time its id is met. A later run dir of that id with the
// same run.json bytes is the same run: skipped with a *Warning. One with
// other bytes is another run under the same name: a *DuplicateRunError,
// not read, since neither can be preferred and pooling them would mix two
// runs into one cell.

// seenRun is where a run id was first met and its run.json's sha256.
type seenRun struct {
	path string
	sum  [sha256.Size]byte
}

// firstTime reports whether run is met for the first time, and records it;
// a later meeting adds a warning or an error.
func (w *walker) firstTime(run *Run, sum [sha256.Size]byte) bool {
	seen, ok := w.runs[run.ID]
	if !ok {
		w.runs[run.ID] = seenRun{path: run.Path, sum: sum}
		return true
	}
	w.yielded++ // the run was read, from its first place
	if seen.sum != sum {
		w.errs = append(w.errs, &DuplicateRunError{ID: run.ID, First: seen.path, Then: run.Path})
		return false
	}
	w.errs = append(w.errs, &Warning{Path: run.Path,
		Msg: fmt.Sprintf("the same run %q as %s (identical run.json): read once, from %s; name one of them only", run.ID, seen.path, seen.path)})
	return false
}
