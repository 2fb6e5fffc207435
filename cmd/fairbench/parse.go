package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/fairbench/fairbench/parse"
)

var parseCommand = command{
	summary: "read dumps and run dirs into one model, as JSON Lines or CSV",
	usage: `fairbench parse [-format json|csv] PATH...

PATH is a fairbench run dir, a single dump (wrk, wrk2, bombardier, autocannon,
vegeta, in any of their output forms), or a folder of dumps (walked), such as
bun-http-framework-benchmark's results/. The dialect is found from the
content. Output: one record per line; the schema is documented in package
parse (go doc github.com/fairbench/fairbench/parse).

Examples:
  fairbench parse site/results/20261129T185000Z-bench
  fairbench parse -format csv results/ > results.csv
  fairbench parse wrk.txt bombardier.json`,
	run: runParse,
}

// recordWriter is what both output formats provide.
type recordWriter interface {
	Write(parse.Record) error
}

func runParse(e *env, args []string) error {
	fs := newFlags(e, "parse")
	format := fs.String("format", "json", "output format: json (JSON Lines) or csv")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return usageErr("parse: give at least one PATH")
	}
	w, flush, err := newRecordWriter(*format, e)
	if err != nil {
		return err
	}
	errs := parse.Walk(fs.Args(), w.Write)
	if err := flush(); err != nil {
		return err
	}
	return inputProblems(e.stderr, "parse", errs)
}

// newRecordWriter writes JSON Lines as they are (JSON escapes control
// characters itself) and CSV, which does not, through the text writer.
func newRecordWriter(format string, e *env) (recordWriter, func() error, error) {
	switch format {
	case "json":
		return parse.NewJSONWriter(e.data), func() error { return nil }, nil
	case "csv":
		w := parse.NewCSVWriter(e.stdout)
		return w, w.Flush, nil
	}
	return nil, nil, usageErr("parse: -format %q: want json or csv", format)
}

// inputErrors prints each problem with an input and returns exit status 2
// when there were any; warnings are printed as such and change nothing.
func inputErrors(stderr io.Writer, errs []error) error {
	var n int
	for _, err := range errs {
		var w *parse.Warning
		if errors.As(err, &w) {
			fmt.Fprintf(stderr, "fairbench: warning: %v\n", err)
			continue
		}
		fmt.Fprintf(stderr, "fairbench: %v\n", err)
		n++
	}
	if n == 0 {
		return nil
	}
	return &exitError{code: 2, err: fmt.Errorf("%d input problem(s)", n)}
}

// inputProblems prints what Walk or ReadAll returned and gives the exit
// status it calls for: 2 when a named path could not be read (or held no
// dumps), 1 when a file met inside one could not be read, nil when there
// were only warnings or nothing.
func inputProblems(stderr io.Writer, cmd string, errs []error) error {
	named, found, warnings := parse.Problems(errs)
	for _, w := range warnings {
		fmt.Fprintf(stderr, "fairbench: warning: %v\n", w)
	}
	for _, err := range found {
		fmt.Fprintf(stderr, "fairbench: %v\n", err)
	}
	for _, err := range named {
		fmt.Fprintf(stderr, "fairbench: %v\n", err)
	}
	switch {
	case len(named) > 0:
		return &exitError{code: 2, err: fmt.Errorf("%s: %d input(s) named could not be read", cmd, len(named))}
	case len(found) > 0:
		return failure(fmt.Errorf("%s: %d file(s) met in the input could not be read", cmd, len(found)))
	}
	return nil
}
