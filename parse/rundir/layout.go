package rundir

import "strings"

// The layout of a run dir (fairbench help run-dir): run.json and
// suite.toml at the top, the gate's transcripts under conformance/, the
// load generators' dumps (and their .stderr) under dumps/. Collect also
// keeps two hidden files while it runs: the lock (lockName) and the disk
// reserve (reserveName); neither is ever published.
const (
	RunJSON   = "run.json"   // the manifest: what ran, where, and each measurement
	SuiteTOML = "suite.toml" // the suite as collect ran it
)

// KindOf is the kind of the file at rel, a slash path in a run dir, by
// where the layout puts it.
func KindOf(rel string) FileKind {
	switch {
	case rel == RunJSON:
		return KindRunJSON
	case rel == SuiteTOML:
		return KindSuite
	case strings.HasPrefix(rel, "conformance/"):
		return KindTranscript
	case strings.HasPrefix(rel, "dumps/"):
		return KindDump
	}
	return KindOther
}

// InLayout reports whether rel, a slash path in a run dir, is a file the
// run-dir layout names: no dotfile or file in a dot-folder, and one of
// run.json, suite.toml, conformance/<target>.txt, dumps/…/*.txt or
// dumps/…/*.stderr.
func InLayout(rel string) bool {
	for _, part := range strings.Split(rel, "/") {
		if strings.HasPrefix(part, ".") {
			return false
		}
	}
	switch {
	case rel == RunJSON || rel == SuiteTOML:
		return true
	case strings.HasPrefix(rel, "conformance/"):
		return strings.Count(rel, "/") == 1 && strings.HasSuffix(rel, ".txt")
	case strings.HasPrefix(rel, "dumps/"):
		return strings.HasSuffix(rel, ".txt") || strings.HasSuffix(rel, ".stderr")
	}
	return false
}
