package render

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
)

// What of a run dir is published, and how. A run dir may come from
// anyone (a contributed run, a cloned repository), and what render
// publishes is served from the site's own origin, so render publishes only
// what the run-dir layout names (fairbench help run-dir) and only as
// text:
//
//   - run.json and suite.toml at the top;
//   - conformance/<target>.txt, the gate's transcripts;
//   - dumps/…/<rep>.txt and their <rep>.stderr files.
//
// Nothing else: no other file, no dotfile or file in a dot-folder (.env,
// .git/), and no file with more than one hard link or on another device
// than the run dir (either may be a file from outside the run dir that a
// link into it would publish). A suite's body files are not part of a run
// dir and are not published. What is left out is said on the progress
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

// inLayout reports whether rel, a slash path in a run dir, is a file the
// run-dir layout names.
func inLayout(rel string) bool {
	for _, part := range strings.Split(rel, "/") {
		if strings.HasPrefix(part, ".") {
			return false
		}
	}
	switch {
	case rel == "run.json" || rel == "suite.toml":
		return true
	case strings.HasPrefix(rel, "conformance/"):
		return strings.Count(rel, "/") == 1 && strings.HasSuffix(rel, ".txt")
	case strings.HasPrefix(rel, "dumps/"):
		return strings.HasSuffix(rel, ".txt") || strings.HasSuffix(rel, ".stderr")
	}
	return false
}

// runFiles lists the files of a run dir render publishes, sorted by their
// path under raw/ (<run-id>/<path in the run dir>), and says why each
// other regular file is left out. Links are not followed; dot-folders are
// not entered.
func runFiles(dir, id string) (files []rawFile, left []error, err error) {
	var device uint64
	var other []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "." {
				info, err := d.Info()
				if err != nil {
					return err
				}
				device, _ = deviceAndLinks(info)
			} else if strings.HasPrefix(d.Name(), ".") {
				other = append(other, rel+"/")
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil // a link or a special file: the run-dir reader refuses it, and says so
		}
		if !inLayout(rel) {
			other = append(other, rel)
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if dev, links := deviceAndLinks(info); links > 1 {
			left = append(left, fmt.Errorf("%s: %s has %d hard links, and one may be a file outside the run dir: copy the file in its place to publish it", dir, rel, links))
			return nil
		} else if dev != device {
			left = append(left, fmt.Errorf("%s: %s is on another device than the run dir (a mount): copy the file in its place to publish it", dir, rel))
			return nil
		}
		f := newRawFile(p, safePath(id)+"/"+safePath(rel))
		f.root, f.name = dir, rel
		files = append(files, f)
		return nil
	})
	sort.Slice(files, func(i, j int) bool { return files[i].rel < files[j].rel })
	if len(other) > 0 {
		const shown = 5
		names := strings.Join(other[:min(len(other), shown)], ", ")
		if len(other) > shown {
			names += fmt.Sprintf(" and %d more", len(other)-shown)
		}
		left = append(left, fmt.Errorf("%s: %d files the run-dir layout does not name (%s): only run.json, suite.toml, conformance/*.txt and dumps/…/*.txt and *.stderr are published", dir, len(other), names))
	}
	return files, left, err
}

// foreignFile reports whether the file at rel in the run dir may be a
// file from outside it: more than one hard link, or another device.
func foreignFile(dir, rel string) bool {
	root, err := os.Lstat(dir)
	if err != nil {
		return true
	}
	info, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		return false // the run-dir reader says what is wrong with it
	}
	device, _ := deviceAndLinks(root)
	dev, links := deviceAndLinks(info)
	return links > 1 || dev != device
}

// deviceAndLinks are the device of the file of info and how many names
// it has; 0 and 1 where the system does not say.
func deviceAndLinks(info fs.FileInfo) (device, links uint64) {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev), uint64(st.Nlink)
	}
	return 0, 1
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
