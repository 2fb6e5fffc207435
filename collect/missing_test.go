package collect

import (
	"os"
	"testing"
)

// Missing ends a test that needs a tool this machine lacks: a skip naming
// the tool and the command that installs it, so that `go test ./...` passes
// on a machine with only Go; but a failure where CI is set, since .ci/run
// installs every tool and a skip there would hide a missing install step.
func Missing(t testing.TB, what, install string) {
	t.Helper()
	msg := what + " not found: " + install + " (.ci/run does)"
	if os.Getenv("CI") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}
