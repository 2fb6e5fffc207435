// Package verdict is fairbench's one decision layer: it summarises each
// cell (one target in one scenario of one run) over its repetitions, and
// decides every pair of a scenario once (Decide): Welch's test on log
// throughput, Holm over the scenario's pairs, a noise floor from the run's
// A/A pair, and the client-bound rule for cells whose load generator was
// the bottleneck. Ranks, tiers, power and before/after comparisons are
// derived from those verdicts; pages, exports and commands read them and
// never decide again.
//
// verdict reads no files and prints nothing: package parse reads the
// measurements, package audit judges how far they can be trusted, and
// package render and cmd/fairbench show the results.
package verdict
