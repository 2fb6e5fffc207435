package main

import (
	"testing"
	"time"
)

// TestSmoke runs the program once at its smallest (one round, one
// repetition, one pair, 1 s windows) from the checkout root, so that it
// keeps working as collect changes: its transparency arm replays the argv
// run.json holds, whose paths are portable (~/…), by hand.
func TestSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("builds four targets and collects for about 40 s")
	}
	t.Chdir("../../..")
	if err := run(1, 1, time.Second, time.Second, 1, ""); err != nil {
		t.Fatal(err)
	}
}
