// Package history reads runs of one suite as a history: which runs'
// numbers are comparable (Key), and whether a new run is slower than its
// baseline runs by more than the host's run-to-run noise (Gate).
//
// The between-run model: a target's log mean throughput in a run is its
// level, plus the host's mood that run (shared by every target), plus a
// run-level effect of its own (the process's luck: layout, placement,
// warm-up), plus the within-run noise of its repetitions. The A/A twins,
// one program under two names, measure the last two: their mean level in
// a run is the host's mood (the control each target is read against), and
// their difference, less its within-run part, is twice the variance of the
// run-level effect. Every twin pair of every run given (baseline history
// and the new run) adds a degree of freedom to that estimate.
package history
