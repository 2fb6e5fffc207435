// Package audit finds where a set of measurements is soft: its rules read
// the cells and verdicts of package verdict and the run.json records behind
// them, and return findings (level, rule id, message, the dumps involved)
// that pages show as badges and `fairbench audit` prints. Rules lists the
// rules in the order Audit runs them, each with what it finds and what to
// do about it (WriteRulesMarkdown writes that list). It also checks a
// published table against the dumps it was made from, and writes the
// before/after report of `fairbench compare`.
//
// audit decides nothing about who is faster (package verdict does) and
// reads nothing from disk but what a finding needs to check (a run dir's
// dumps, a published table); reading dumps is package parse's, and showing
// results is package render's and cmd/fairbench's.
package audit
