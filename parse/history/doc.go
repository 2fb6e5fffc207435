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
// and the new run) adds a degree of freedom to that estimate. A day can
// also move the programs of one runtime together against another's (a Go
// server against Node twins); a suite that names a pair per runtime
// (aa_pairs) has each target read against its own runtime's twins, where
// that movement cancels (controlPair).
//
// Why not the usual gates: benchstat tests two samples of one machine at a
// time (within-run noise only), so a host that is 5% slower today fails
// every benchmark; Bencher tests a new value against a window of past
// values of one branch and testbed, which counts run-to-run noise but
// needs that window filled and reads the host's mood as the target's.
// Here the twins are a control measured in the same run: the mood is
// subtracted, and one baseline run already gives the run-to-run variance.
//
// Find runs the same reading over a whole history: per target and
// scenario, lines break where the key changes, and PELT finds the steps;
// the twins' own series are searched too, and every step found there is
// a false alarm, counted.
package history
