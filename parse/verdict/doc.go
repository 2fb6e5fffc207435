// Package verdict is fairbench's one decision layer: it summarises each
// cell (one target in one scenario of one run) over its repetitions, and
// decides every pair of a scenario once (Decide): a paired t-test on log
// throughput within rounds, its variance moderated toward the family's
// where the pairs' variances agree (Welch's where the rounds are not
// known), Holm
// over the scenario's pairs, a noise floor from the run's A/A pair, the
// client-bound rule for cells whose load generator was the bottleneck, and
// an equivalence test (two one-sided tests within the run's resolve) for
// the pairs it does not tell apart: faster, equivalent or unresolved.
// Ranks, tiers, power and before/after comparisons are derived from those
// verdicts; pages, exports and commands read them and never decide again.
// PrecisionOf and RoundsFor give a collect to a precision the rounds a
// family needs, from its noise alone.
//
// verdict reads no files and prints nothing: package parse reads the
// measurements, package audit judges how far they can be trusted, and
// package render and cmd/fairbench show the results.
package verdict
