package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSmoke runs the program once at its smallest (one block of each
// schedule, one window a target, 1 s windows; then one warm-up curve of
// four windows) on two copies of the Go stdlib target, from the checkout root, so that it keeps working as the
// packages it uses change.
func TestSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a target and loads it for about 10 s")
	}
	t.Chdir("../../..")
	src := `name = "smoke"
[load]
tool = "bombardier"
connections = 8
duration = "1s"
warmup = "0s"
repetitions = 1
`
	for _, name := range []string{"stdlib", "stdlib-aa"} {
		src += `
[[target]]
name = "` + name + `"
runtime = "go"
dir = "site/apps/go"
build = ["go", "build", "-o", "{bin}/` + name + `", "./stdlib"]
start = ["{bin}/` + name + `"]
`
	}
	src += `
[[scenario]]
name = "ping"
request = { method = "GET", path = "/" }
expect = { status = 200, body = "Hi" }
`
	st := filepath.Join(t.TempDir(), "smoke.toml")
	if err := os.WriteFile(st, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(st, "", 1, 1, 1); err != nil {
		t.Fatal(err)
	}
	// The warm-up curves at their smallest: one fresh process of one
	// target, four windows.
	if err := runCurve(st, "stdlib", 1, 4, 1); err != nil {
		t.Fatal(err)
	}
}
