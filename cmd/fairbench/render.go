package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/fairbench/fairbench/render"
	"github.com/fairbench/fairbench/themes"
)

var renderCommand = command{
	summary: "build the static website from run dirs and dumps",
	usage: `fairbench render [-site DIR] [-out DIR] [-theme NAME] [-readme FILE] [PATH...]

PATH is anything parse takes: run dirs, dumps in any supported dialect,
folders of them (e.g. bun-http-framework-benchmark's results/). Without a
PATH, the runs named in DIR/site.toml are read.

-site DIR reads DIR/site.toml (title, headline cards, comparisons, the
results.md columns; see 'go doc github.com/fairbench/fairbench/render.Site'),
DIR/content/methodology.md and DIR/content/caveats.md, and theme files in
DIR/theme/ that override the theme's. Without it, sensible defaults.

The site goes to -out (default DIR/public with -site, else ./public): a new
or empty folder, or one an earlier render wrote, of which only the files it
listed in .fairbench-site are removed first. A folder holding other files, an
input, the current folder and / are refused. Its index.html path is printed.
One render at a time writes into a folder: a second render into a folder
another is writing fails at once (exit status 2) rather than wait.
Exit status: 0 the site was written; 2 bad usage: an unknown flag, a
refused -out, a missing or unreadable PATH, a PATH with no dumps (nothing
to render; -out is left as it was), an unknown -theme, or a -readme that
is missing, not a regular file, over 16 MiB, hard-linked or without the
markers (checked before the site is touched).
-readme FILE also writes results.md between the lines
<!-- fairbench:start --> and <!-- fairbench:end --> of FILE.

Examples:
  fairbench render -site site
  fairbench render -out /tmp/site -title "My frameworks" results/
  fairbench render -out /tmp/bun bun-http-framework-benchmark/results
  fairbench render -site site -readme README.md`,
	run: runRender,
}

func runRender(e *env, args []string) error {
	fs := newFlags(e, "render")
	out := fs.String("out", "", "folder to write the site into (default DIR/public with -site, else ./public)")
	title := fs.String("title", "", "site title (overrides site.toml)")
	siteDir := fs.String("site", "", "site folder with site.toml, content/ and theme/")
	theme := fs.String("theme", "", fmt.Sprintf("theme (overrides site.toml): %v", themes.Names()))
	readme := fs.String("readme", "", "also write results.md between the fairbench markers of this file")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	site := render.DefaultSite
	if *siteDir != "" {
		s, err := render.LoadSite(*siteDir)
		if err != nil {
			return usageErr("render: %w", err)
		}
		site = *s
	}
	if *theme != "" {
		site.Theme = *theme
	}
	paths := fs.Args()
	if len(paths) == 0 && *siteDir != "" {
		var err error
		if paths, err = site.RunPaths(); err != nil {
			return usageErr("render: %w", err)
		}
		if len(paths) == 0 {
			paths = []string{filepath.Join(*siteDir, "results")}
		}
	}
	if len(paths) == 0 {
		fs.Usage()
		return usageErr("render: give at least one PATH, or -site DIR")
	}
	if *out == "" {
		*out = "public"
		if *siteDir != "" {
			*out = filepath.Join(*siteDir, "public")
		}
	}
	var rd *render.Readme
	if *readme != "" {
		// Read and checked before the site is touched: a README render
		// cannot use stops it with the site as it was.
		var err error
		if rd, err = render.OpenReadme(*readme); err != nil {
			return renderErr(err)
		}
	}
	return buildSite(e, paths, *out, *title, &site, rd)
}

// renderErr gives an error of package render its exit status: 2 for
// render.ErrUsage (a refused -out, an unknown theme, a README render
// cannot use, nothing to render), else as it is.
func renderErr(err error) error {
	if errors.Is(err, render.ErrUsage) {
		return usageErr("%w", err)
	}
	return err
}

// renderSite parses paths and builds a site with the default settings,
// printing the index path.
func renderSite(e *env, paths []string, out, title string) error {
	site := render.DefaultSite
	return buildSite(e, paths, out, title, &site, nil)
}

// buildSite reads paths a run at a time and builds the site (render.
// BuildPaths), so that memory does not grow with the number of dumps; with
// readme set, it copies the site's results.md into the README's table.
// Progress goes to stderr, the index path to stdout.
func buildSite(e *env, paths []string, out, title string, site *render.Site, readme *render.Readme) error {
	start := time.Now()
	index, errs, err := render.BuildPaths(paths, render.Options{Out: out, Title: title, Site: site, Progress: e.stderr, Readme: readme})
	inErr := inputErrors(e.stderr, errs)
	if errors.Is(err, render.ErrNothingRead) && inErr != nil {
		return inErr
	}
	if err != nil {
		return renderErr(err)
	}
	if readme != nil {
		if readme.Changed {
			fmt.Fprintf(e.stderr, "render: wrote the results table into %s\n", readme.Path)
		} else {
			fmt.Fprintf(e.stderr, "render: %s already holds these results\n", readme.Path)
		}
	}
	fmt.Fprintf(e.stderr, "render: done in %s\n", time.Since(start).Round(time.Millisecond))
	fmt.Fprintln(e.stdout, index)
	return inErr // the site shows what could be read; a bad input still fails the build
}
