// Package machine holds what collect needs to run commands and write files
// on a machine: a command bounded by its context with a grace period for
// its output, and atomic file writes (a reader sees the old bytes or the
// new, never a part).
package machine
