// Package render builds the static website from parsed measurements: an
// index with headline cards, a page per scenario (bar chart, sortable table,
// latency percentiles), a page per target, full results and comparisons,
// methodology, "where these numbers are soft", conformance, history across
// runs, and downloads (results.json, results.csv, results.md, the raw runs).
//
// Pages are html/template from a theme (an fs.FS: the site's override, the
// chosen theme, then the default); SVG chart geometry is computed here.
// Every number links to the dump it came from. The site makes no request
// off itself, needs no JavaScript, and the same input renders the same bytes.
//
// render does not collect or parse: it takes a *parse.Set, or reads paths
// through parse.Walk a run at a time (Read, BuildPaths) so that a site of
// 100,000 dumps builds in the memory one of 1,000 does. It decides nothing:
// the verdict layer's one decided model (verdict.Decided, built once in
// model.go) holds every verdict, power and floor the pages print, and a
// test (decided_test.go) fails on any decision call from these files. It
// scales numbers for display only.
//
// # Where each job lives
//
// The files are grouped by job, the group named by the file's prefix:
//
//   - render.go: the entry points (Build, BuildPaths, BuildInput) and the
//     writer every page and file goes through; usage.go its usage errors.
//   - model*.go: what the pages are made from, computed once per render:
//     the runs read a run at a time (model_input.go, model_spool.go), the
//     cells and the decided model (model.go), verdicts as cards and words
//     (model_verdict.go), what each run resolves (model_resolving.go), the
//     latency and sweep points (model_latency*.go), each run's facts
//     (model_runfacts.go).
//   - page*.go: one file per page and its parts. page.go is what every
//     page shares; page_index*.go the front page (its answers, run
//     summaries, comparison cards: page_compare_*.go), page_scenario*.go a
//     scenario page (chart, table, loads, latency, the fastest line, the
//     publisher's note), page_target.go, page_results*.go, page_method*.go,
//     page_soft*.go, page_conformance.go, page_history.go, page_dump.go,
//     page_downloads.go, page_latency*.go (points without a closed-loop
//     scenario), page_unranked.go (why a cell is unranked, in words).
//   - chart*.go: SVG geometry: bars (chart_bar*.go), lines over points
//     (chart_line.go), the saturation sweep (chart_sweep.go).
//   - export*.go: what a reader downloads: results.json and results.csv
//     (export.go, export_verdict.go, export_latency.go), results.md and the
//     README markers (export_md.go, export_readme.go), the raw runs copied
//     byte for byte (export_raw.go, export_publish.go).
//   - site*.go: the publisher's site folder and the folder written: site.toml
//     (site.go), content and theme files (site_fs.go, site_theme.go,
//     site_markdown.go, site_content_figures.go), the out folder, its lock
//     and its links (site_outdir.go, site_outlock.go, site_links.go,
//     site_paths.go).
//   - format.go: numbers, times and sizes for display.
package render
