package main

import (
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
	return inputErrors(e.stderr, errs)
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
// when there were any.
func inputErrors(stderr io.Writer, errs []error) error {
	if len(errs) == 0 {
		return nil
	}
	for _, err := range errs {
		fmt.Fprintf(stderr, "fairbench: %v\n", err)
	}
	return &exitError{code: 2, err: fmt.Errorf("%d input problem(s)", len(errs))}
}
