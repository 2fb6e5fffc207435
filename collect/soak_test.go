package collect

import (
	"os"
	"strings"
	"testing"
)

// Soak skips a long run unless FAIRBENCH_SOAK=1 asks for it: .ci/run
// does, after the README's test command, for every test named …Soak, so
// a soak of another name is refused rather than never run.
func Soak(t *testing.T, what string) {
	t.Helper()
	if !strings.HasSuffix(t.Name(), "Soak") {
		t.Fatalf("%s runs behind FAIRBENCH_SOAK: name it …Soak, the tests .ci/run runs with it", t.Name())
	}
	if os.Getenv("FAIRBENCH_SOAK") != "1" {
		t.Skipf("%s: a soak, run with FAIRBENCH_SOAK=1", what)
	}
}
