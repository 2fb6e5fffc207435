package render

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/fairbench/fairbench/parse"
)

// linker names every page and file of the site. Hrefs are relative to the
// site root; a page adds its Root ("", "../") in front.
type linker struct {
	scenario map[string]string // scenario → slug
	target   map[string]string // cell name → slug
	raw      map[string]string // source file as read → path under raw/
	runRoot  map[string]string // run dir as given → run ID
	viewed   map[string]bool   // source files that get a dump page
}

func newLinker(set *parse.Set, scenarios, names []string) *linker {
	l := &linker{
		scenario: slugs(scenarios),
		target:   slugs(names),
		raw:      map[string]string{},
		runRoot:  map[string]string{},
		viewed:   map[string]bool{},
	}
	for _, r := range set.Runs {
		if r.Path != "" {
			l.runRoot[filepath.Clean(r.Path)] = safePath(r.ID)
		}
	}
	var loose []string
	for _, m := range set.Measurements {
		f := m.Source.File
		if f == "" {
			continue
		}
		if _, done := l.raw[f]; done {
			continue
		}
		if p, ok := l.inRun(f); ok {
			l.raw[f] = p
		} else {
			l.raw[f] = ""
			loose = append(loose, f)
		}
	}
	// Dumps outside run dirs keep their paths below the folder they share.
	sort.Strings(loose)
	common := commonDir(loose)
	used := map[string]bool{}
	for _, f := range loose {
		rel, err := filepath.Rel(common, f)
		if err != nil || !filepath.IsLocal(rel) {
			rel = filepath.Base(f)
		}
		p := "files/" + safePath(filepath.ToSlash(rel))
		for i := 2; used[p]; i++ {
			p = fmt.Sprintf("files/%d/%s", i, safePath(filepath.ToSlash(rel)))
		}
		used[p] = true
		l.raw[f] = p
	}
	return l
}

// inRun maps a file inside a run dir to <run-id>/<path in the run dir>.
func (l *linker) inRun(file string) (string, bool) {
	dir, rel, ok := l.runDirOf(file)
	if !ok {
		return "", false
	}
	return l.runRoot[dir] + "/" + safePath(rel), true
}

// runDirOf finds the run dir a file is in, and its slash path there.
func (l *linker) runDirOf(file string) (dir, rel string, ok bool) {
	clean := filepath.Clean(file)
	for dir := filepath.Dir(clean); ; dir = filepath.Dir(dir) {
		if _, ok := l.runRoot[dir]; ok {
			rel, err := filepath.Rel(dir, clean)
			if err == nil && filepath.IsLocal(rel) {
				return dir, filepath.ToSlash(rel), true
			}
		}
		if filepath.Dir(dir) == dir {
			return "", "", false
		}
	}
}

// Scenario is the href of a scenario's page.
func (l *linker) Scenario(s string) string { return "scenario/" + l.scenario[s] + ".html" }

// Target is the href of a target's page.
func (l *linker) Target(name string) string {
	if slug, ok := l.target[name]; ok {
		return "target/" + slug + ".html"
	}
	return ""
}

// sitePath names a file read from a run dir by its path in the site
// (raw/<run>/…), or by its public path when no copy is published.
func (l *linker) sitePath(file string) string {
	if p, ok := l.inRun(file); ok {
		return "raw/" + p
	}
	return publicPath(file)
}

// Raw is the href of the copy of a source file, "" when it has none.
func (l *linker) Raw(file string) string {
	if p := l.raw[file]; p != "" {
		return "raw/" + inertName(p)
	}
	return ""
}

// Dump is the href of the page that shows a source file with line anchors,
// at the first line of src; the raw copy for files without such a page.
func (l *linker) Dump(src parse.Source) string {
	p := l.raw[src.File]
	if p == "" {
		return ""
	}
	if !l.viewed[src.File] {
		return "raw/" + inertName(p)
	}
	href := "dump/" + p + ".html"
	if src.LineStart > 0 {
		href += fmt.Sprintf("#L%d", src.LineStart)
	}
	return href
}

// slugs gives each name a distinct file-name-safe slug, in the order given.
func slugs(names []string) map[string]string {
	out := map[string]string{}
	used := map[string]bool{}
	for _, n := range names {
		base := slug(n)
		s := base
		for i := 2; used[s]; i++ {
			s = fmt.Sprintf("%s-%d", base, i)
		}
		used[s] = true
		out[n] = s
	}
	return out
}

// slug lowercases name and keeps letters, digits, '.', '_' and '-';
// runs of anything else become one '-'.
func slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '.', r == '_':
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	s := strings.Trim(b.String(), "-.")
	if s == "" {
		return "x"
	}
	return s
}

// safePath makes each segment of a slash path safe as a file name on any
// host: no "..", no characters outside [A-Za-z0-9._-]. Each byte outside
// them becomes '_'; a segment with bytes outside ASCII also gets a hash of
// its own bytes before its extension (nonASCIISuffix), so that "café" and
// "cafè" stay two files. ASCII segments keep the names they always had.
func safePath(p string) string {
	parts := strings.Split(p, "/")
	out := parts[:0]
	for _, seg := range parts {
		if seg == "" || seg == "." {
			continue
		}
		b := []byte(seg)
		ascii := true
		for i, c := range b {
			ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
			if !ok {
				b[i] = '_'
			}
			ascii = ascii && c < utf8.RuneSelf
		}
		s := string(b)
		if strings.Trim(s, ".") == "" {
			s = strings.ReplaceAll(s, ".", "_")
		}
		if !ascii {
			s = nonASCIISuffix(s, seg)
		}
		out = append(out, s)
	}
	return path.Join(out...)
}

// commonDir is the deepest folder holding every file.
func commonDir(files []string) string {
	if len(files) == 0 {
		return "."
	}
	dir := filepath.Dir(filepath.Clean(files[0]))
	for _, f := range files[1:] {
		for !within(dir, filepath.Clean(f)) {
			parent := filepath.Dir(dir)
			if parent == dir {
				return dir
			}
			dir = parent
		}
	}
	return dir
}

func within(dir, file string) bool {
	rel, err := filepath.Rel(dir, file)
	return err == nil && filepath.IsLocal(rel)
}

// nonASCIISuffix is safe, the file-name-safe form of the segment seg, with
// "-" and the first 8 hex digits of seg's sha256 put before its extension:
// the '_' that stands for each byte outside ASCII says nothing of which
// byte it was, the hash does.
func nonASCIISuffix(safe, seg string) string {
	sum := sha256.Sum256([]byte(seg))
	ext := path.Ext(safe)
	if ext == safe {
		ext = "" // a name that is all extension, ".café"
	}
	return strings.TrimSuffix(safe, ext) + "-" + hex.EncodeToString(sum[:4]) + ext
}
