// Package audit is fairbench's analysis: it turns the measurements package
// parse read into statistics (Stat, Cell), pairwise verdicts and the groups
// that follow from them, comparisons, and the audit rules' findings on how
// far the numbers can be trusted.
//
// audit reads nothing from disk but what a finding needs to check (a run
// dir's dumps, a published table); reading dumps is package parse's, and
// showing results is package render's and cmd/fairbench's.
package audit
