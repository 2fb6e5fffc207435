package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMain gives the collects these tests run a host lock of their own
// (FAIRBENCH_HOST_LOCK), so that they take turns with each other but never
// wait for a real collect on the machine, nor make one wait.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "fairbench-cmd-test-")
	if err == nil {
		os.Setenv("FAIRBENCH_HOST_LOCK", filepath.Join(dir, "collect.lock"))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
