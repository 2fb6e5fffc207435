package render

import (
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fairbench/fairbench/parse/rundir"
)

// How a run dir is published. What of it may be published is package
// rundir's rule (rundir.Publishable: the files the run-dir layout names,
// fairbench help run-dir); what is left out is said on the progress
// stream, naming the files.
//
// Every raw file is published under a name that ends .txt, .json or .toml
// (inertName), which hosts serve as text or data, never as a page, script
// or image; the run's archive keeps the run dir's own names. For hosts
// that read a _headers file (Netlify, Cloudflare Pages) the site also
// serves raw/ as text/plain with nosniff (headersFile).

// inertName is the name a raw file is published under: its own when it
// ends .txt, .json or .toml, else with ".txt" added.
func inertName(p string) string {
	switch path.Ext(p) {
	case ".txt", ".json", ".toml":
		return p
	}
	return p + ".txt"
}

// runFiles lists the files of a run dir render publishes
// (rundir.Publishable), sorted by their path under raw/
// (<run-id>/<path in the run dir>), and says why each other file is left
// out.
func runFiles(dir, id string) (files []rawFile, left []error, err error) {
	rels, left, err := rundir.Publishable(dir)
	for _, rel := range rels {
		f := newRawFile(filepath.Join(dir, filepath.FromSlash(rel)), safePath(id)+"/"+safePath(rel))
		f.root, f.name = dir, rel
		files = append(files, f)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].rel < files[j].rel })
	return files, left, err
}

// headersFile is the site's _headers: every folder of raw files (a run's
// raw/<run-id>/, and raw/files/ for dumps from outside run dirs) served as
// plain text that a browser may not sniff into a page, and sandboxed. One
// rule per folder rather than /raw/*, which would also match the runs'
// archives, and hosts that join the values of two matching rules would
// then serve an archive as text.
func headersFile(folders []string) []byte {
	var b strings.Builder
	b.WriteString("# Written by fairbench render. Netlify and Cloudflare Pages read this file:\n" +
		"# raw files are served as the text they are, never as pages.\n")
	for _, dir := range folders {
		fmt.Fprintf(&b, "/raw/%s/*\n", dir)
		b.WriteString("  Content-Type: text/plain; charset=utf-8\n")
		b.WriteString("  X-Content-Type-Options: nosniff\n")
		b.WriteString("  Content-Security-Policy: default-src 'none'; sandbox\n")
	}
	return []byte(b.String())
}
