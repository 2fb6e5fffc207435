package collect

import "testing"

// BuiltBinary serves the external tests (package collect_test) the
// binaries built once for the package: see testBinary.
func BuiltBinary(t *testing.T, name string) string { t.Helper(); return testBinary(t, name) }

// RemoveBuiltBinaries removes the binaries BuiltBinary built.
func RemoveBuiltBinaries() { removeTestBinaries() }
