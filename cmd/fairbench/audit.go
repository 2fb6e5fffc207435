package main

import (
	"fmt"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/audit"
	"github.com/fairbench/fairbench/parse/rundir"
)

var auditCommand = command{
	summary: "say where the numbers are soft: statistics and rules over dumps and run dirs",
	usage: `fairbench audit [-format text|json] [-table FILE] [-pair a,b] PATH...

Reads PATHs as parse does and prints findings grouped by level: too few
repetitions, noisy cells, drift, errors counted as throughput, a saturated
client, closed-loop tail latency, mixed settings, targets of one scenario
measured on different server/client host pairs (host-pair), changed or
missing dumps, and more. With -table, also checks a published markdown
results table against the dumps it claims to come from, including latency
percentile columns ("p99 (ms)"), and says when a published percentile is
the mean of the repetitions' percentiles (table-averaged-percentile). Exit
status 1 on any error-level finding, 2 on unreadable input.

Examples:
  fairbench audit site/results/20261129T185000Z-bench
  fairbench audit -format json results/ > findings.json
  fairbench audit -table results/results.md results/
  fairbench audit -pair gin,gin-again site/results/20261129T185000Z-bench`,
	run: runAudit,
}

// pairList collects repeated -pair a,b flags.
type pairList [][2]string

func (p *pairList) String() string { return fmt.Sprint(*p) }

func (p *pairList) Set(s string) error {
	names := csvList(s)
	if len(names) != 2 {
		return fmt.Errorf("want two target names a,b, got %q", s)
	}
	if names[0] == names[1] {
		return fmt.Errorf("%q pairs %s with itself: an A/A pair is two names of one program, such as gin,gin-again", s, names[0])
	}
	*p = append(*p, [2]string{names[0], names[1]})
	return nil
}

func runAudit(e *env, args []string) error {
	fs := newFlags(e, "audit")
	format := fs.String("format", "text", "output format: text or json")
	table := fs.String("table", "", "a published markdown results table to check against the dumps")
	var pairs pairList
	fs.Var(&pairs, "pair", "an A/A pair: two names of the same target, which must come out tied (repeatable)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return usageErr("audit: give at least one PATH")
	}
	if *format != "text" && *format != "json" {
		return usageErr("audit: -format %q: want text or json", *format)
	}
	set, errs := parse.ReadAll(fs.Args())
	named, found, _ := parse.Problems(errs)
	for _, w := range set.Warnings {
		fmt.Fprintf(e.stderr, "fairbench: warning: %v\n", w)
	}
	inErr := inputErrors(e.stderr, named) // shown; what could be read is still audited
	if len(set.Measurements) == 0 {
		if inErr != nil {
			return inErr
		}
		if len(set.Runs) == 0 {
			return usageErr("audit: no measurements in %q", fs.Args())
		}
	}
	findings := audit.Audit(set, audit.AuditOptions{Pairs: pairs, Unreadable: found})
	if *table != "" {
		f, err := rundir.OpenNamed(*table, rundir.KindTable)
		if err != nil {
			return usageErr("audit: -table: %w", err)
		}
		tf, err := audit.AuditTable(f, *table, set)
		f.Close()
		if err != nil {
			return usageErr("audit: %w", err)
		}
		findings = append(findings, tf...)
	}
	audit.SortFindings(findings)
	write, out := audit.WriteFindingsText, e.stdout
	if *format == "json" {
		write, out = audit.WriteFindingsJSON, e.data
	}
	if err := write(out, findings); err != nil {
		return err
	}
	if inErr != nil {
		return inErr // an input that could not be read outweighs the findings on the rest
	}
	if audit.HasErrors(findings) {
		return failure(errSilent)
	}
	return nil
}
