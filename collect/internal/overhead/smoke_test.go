package main

import (
	"os"
	"testing"
	"time"
)

// TestSmoke runs the program once at its smallest (one round, one
// repetition, one pair, 1 s windows) from the checkout root, so that it
// keeps working as collect changes: its transparency arm replays the argv
// run.json holds, whose paths are portable (~/…), by hand. It takes about
// a minute, so it runs behind FAIRBENCH_SOAK=1 (.ci/run).
func TestSmoke(t *testing.T) {
	if os.Getenv("FAIRBENCH_SOAK") != "1" {
		t.Skip("set FAIRBENCH_SOAK=1: builds four targets and collects for about 40 s")
	}
	t.Chdir("../../..")
	if err := run(1, 1, time.Second, time.Second, 1, ""); err != nil {
		t.Fatal(err)
	}
}
