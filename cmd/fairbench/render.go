package main

import (
	"fmt"
	"path/filepath"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/render"
)

var renderCommand = command{
	summary: "build the static website from run dirs and dumps",
	usage: `fairbench render [-out DIR] [-title TEXT] PATH...

PATH is anything parse takes: run dirs, dumps, folders of dumps. The site is
written to -out; its index.html path is printed.

Examples:
  fairbench render site/results
  fairbench render -out /tmp/site -title "My frameworks" results/`,
	run: runRender,
}

func runRender(e *env, args []string) error {
	fs := newFlags(e, "render")
	out := fs.String("out", "site/public", "folder to write the site into")
	title := fs.String("title", "", "site title")
	site := fs.String("site", "", "site folder with site.toml (not read yet: pass PATHs)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	paths := fs.Args()
	if len(paths) == 0 && *site != "" {
		paths = []string{filepath.Join(*site, "results")}
	}
	if len(paths) == 0 {
		fs.Usage()
		return usageErr("render: give at least one PATH")
	}
	return renderSite(e, paths, *out, *title)
}

// renderSite parses paths and builds the site, printing the index path.
func renderSite(e *env, paths []string, out, title string) error {
	set, errs := parse.ReadAll(paths)
	if err := inputErrors(e.stderr, errs); err != nil && len(set.Measurements) == 0 {
		return err
	}
	fmt.Fprintf(e.stderr, "rendering %s\n", set)
	index, err := render.Build(set, render.Options{Out: out, Title: title})
	if err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, index)
	return nil
}
