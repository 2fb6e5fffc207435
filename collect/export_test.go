package collect

import (
	"testing"
	"time"
)

// BuiltBinary serves the external tests (package collect_test) the
// binaries built once for the package: see testBinary.
func BuiltBinary(t *testing.T, name string) string { t.Helper(); return testBinary(t, name) }

// RemoveBuiltBinaries removes the binaries BuiltBinary built.
func RemoveBuiltBinaries() { removeTestBinaries() }

// WithPilotEvery is opt with the wait between noise pilots set to d.
func WithPilotEvery(opt Options, d time.Duration) Options { opt.pilotEvery = d; return opt }
