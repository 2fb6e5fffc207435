package render

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// The folder a site is written into (-out) is the user's: render removes
// only the files it wrote there, as its marker lists them, and writes no
// file over one it did not write. It refuses a folder that is not empty
// and holds no marker, a folder that is or holds the current folder, the
// home folder or /, and a folder that is, holds or sits inside an input
// (render would read its own copies back, and then remove them). Inside
// the folder no link is followed: files are made new (O_EXCL), folders are
// checked to be folders, and every path is resolved under an os.Root.

// marker lists the files render wrote into a folder, one a line as
// "<size> <slash path>", under markerHead. A folder without it is never
// emptied; a file it does not list is never removed or written over.
const marker = ".fairbench-site"

const markerHead = "# fairbench render wrote the files below (size, path); the next render into this folder removes them, and nothing else\n"

// outDir is the folder a site is being written into.
type outDir struct {
	root *os.Root
	dirs map[string]bool // folders known to be folders, not links
	list *bufio.Writer   // the marker, a line per file written
	mf   *os.File
	// The folder the last file was made in, opened as a root of its own:
	// a site's files come folder by folder (a run's dumps, say), and a
	// file made through it costs one openat, not one per folder on its
	// path. It is as safe: a root does not leave its folder either.
	lastDir  string
	lastRoot *os.Root
}

// resolved is path made absolute with every link on its way resolved, as
// far as it exists; the part that does not exist yet is joined as given.
func resolved(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	var rest []string
	for dir := abs; ; dir = filepath.Dir(dir) {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(append([]string{real}, rest...)...)
		}
		if filepath.Dir(dir) == dir {
			return abs
		}
		rest = append([]string{filepath.Base(dir)}, rest...)
	}
}

// checkOut refuses an out folder that render must not write into or
// empty: /, the current folder or one holding it, the home folder or one
// holding it, a folder that is, holds or sits inside one of inputs, and a
// folder that holds anything but a site render wrote (ownFolder).
func checkOut(out string, inputs []string) error {
	if out == "" {
		return usagef("render: no -out folder given")
	}
	o := resolved(out)
	if filepath.Dir(o) == o {
		return usagef("render: -out %s is the root of the file system: give a folder of the site's own, such as ./public", out)
	}
	if wd, err := os.Getwd(); err == nil && within(o, resolved(wd)) {
		return usagef("render: -out %s is the current folder or holds it, and render removes what it wrote there: give a folder of the site's own, such as ./public", out)
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" && within(o, resolved(home)) {
		return usagef("render: -out %s is the home folder or holds it: give a folder of the site's own, such as ./public", out)
	}
	seen := map[string]bool{}
	for _, in := range inputs {
		if in == "" || seen[in] {
			continue
		}
		seen[in] = true
		r := resolved(in)
		switch {
		case o == r:
			return usagef("render: -out %s is the input %s: the site would be read back as input and its files removed; give -out a folder outside the inputs", out, in)
		case within(o, r):
			return usagef("render: -out %s holds the input %s: the next render would read its own copies as input; give -out a folder outside the inputs", out, in)
		case within(r, o):
			return usagef("render: -out %s is inside the input %s: the next render would read its own copies as input; give -out a folder outside the inputs", out, in)
		}
	}
	return ownFolder(out)
}

// openOut makes out ready for a new site: a new folder, an empty one, or
// one an earlier render wrote, whose listed files it removes (and the
// folders they leave empty); files it does not list stay. It starts a new
// list.
func openOut(out string) (*outDir, error) {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	root, err := os.OpenRoot(out)
	if err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	d := &outDir{root: root, dirs: map[string]bool{".": true}}
	if err := d.clear(out); err != nil {
		root.Close()
		return nil, err
	}
	d.dirs = map[string]bool{".": true} // clear may have removed some
	mf, err := root.OpenFile(marker, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		root.Close()
		return nil, fmt.Errorf("render: %w", err)
	}
	d.mf, d.list = mf, bufio.NewWriter(mf)
	d.list.WriteString(markerHead)
	if err := d.list.Flush(); err != nil {
		// A head cut short lists nothing, and the next render takes it
		// so (listed): the files listed before are gone already.
		mf.Close()
		root.Close()
		return nil, fmt.Errorf("render: -out %s: writing %s: %w", out, marker, err)
	}
	return d, nil
}

// ownFolder refuses an out folder that holds anything but a site render
// wrote and listed; a folder that does not exist yet is fine.
func ownFolder(out string) error {
	_, err := listed(os.DirFS(out), out)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// listed is the text of the marker of the out folder fsys, after its head:
// "" for an empty folder; an error for a folder that holds anything
// without a marker of this render's.
func listed(fsys fs.FS, out string) (string, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return "", usagef("render: -out %s: %w", out, err)
	}
	if len(entries) == 0 || len(entries) == 1 && entries[0].Name() == lockName {
		return "", nil // the lock of a render that holds the folder, or was killed
	}
	info, err := fs.Lstat(fsys, marker)
	if err != nil || !info.Mode().IsRegular() {
		return "", usagef("render: -out %s is not empty and was not written by fairbench render (it has no %s listing render's files): give a new or empty folder; render removes only files it wrote", out, marker)
	}
	b, err := fs.ReadFile(fsys, marker)
	if err != nil {
		return "", usagef("render: -out %s: %w", out, err)
	}
	text, ok := strings.CutPrefix(string(b), markerHead)
	if !ok && strings.HasPrefix(markerHead, string(b)) {
		// The head of a render whose disk filled as it began: it had
		// removed the files listed before and wrote none.
		return "", nil
	}
	if !ok {
		return "", usagef("render: -out %s was written by an older fairbench render that did not list its files, so render cannot tell them from yours: remove the folder yourself and render again", out)
	}
	return text, nil
}

// clear removes the files an earlier render listed, refusing a folder that
// holds anything without such a list.
func (d *outDir) clear(out string) error {
	text, err := listed(d.root.FS(), out)
	if err != nil {
		return err
	}
	parents := map[string]bool{}
	for line := range strings.Lines(text) {
		size, rel, ok := strings.Cut(strings.TrimSuffix(line, "\n"), " ")
		n, err := strconv.ParseInt(size, 10, 64)
		if !ok || err != nil || !filepath.IsLocal(filepath.FromSlash(rel)) || rel == marker {
			continue // not a line render writes: nothing is removed for it
		}
		if !d.isDir(path.Dir(rel)) {
			continue // a folder of the site became a link: nothing is removed through it
		}
		info, err := d.root.Lstat(filepath.FromSlash(rel))
		if err != nil || !info.Mode().IsRegular() || info.Size() != n {
			continue // gone, or no longer the file render wrote: left as it is
		}
		if err := d.root.Remove(filepath.FromSlash(rel)); err != nil {
			return fmt.Errorf("render: %w", err)
		}
		for dir := path.Dir(rel); dir != "."; dir = path.Dir(dir) {
			parents[dir] = true
		}
	}
	// The folders the removed files leave empty go too, deepest first;
	// a folder that still holds something stays.
	dirs := make([]string, 0, len(parents))
	for dir := range parents {
		dirs = append(dirs, dir)
	}
	sort.Slice(dirs, func(i, j int) bool { return len(dirs[i]) > len(dirs[j]) })
	for _, dir := range dirs {
		if info, err := d.root.Lstat(filepath.FromSlash(dir)); err == nil && info.IsDir() {
			d.root.Remove(filepath.FromSlash(dir))
		}
	}
	return nil
}

// mkdir makes the folder dir (a slash path) and those above it, each
// checked to be a folder and not a link.
func (d *outDir) mkdir(dir string) error {
	if d.dirs[dir] {
		return nil
	}
	if err := d.mkdir(path.Dir(dir)); err != nil {
		return err
	}
	name := filepath.FromSlash(dir)
	if err := d.root.Mkdir(name, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("render: %w", err)
	}
	info, err := d.root.Lstat(name)
	if err != nil {
		return fmt.Errorf("render: %w", err)
	}
	if !info.IsDir() {
		return usagef("render: %s in the out folder is not a folder render made (%s): move it away; render does not write through it", dir, info.Mode().Type())
	}
	d.dirs[dir] = true
	return nil
}

// isDir reports whether dir (a slash path) and every folder above it in
// the out folder is a folder, not a link.
func (d *outDir) isDir(dir string) bool {
	if d.dirs[dir] {
		return true
	}
	if !d.isDir(path.Dir(dir)) {
		return false
	}
	info, err := d.root.Lstat(filepath.FromSlash(dir))
	if err != nil || !info.IsDir() {
		return false
	}
	d.dirs[dir] = true
	return true
}

// create makes the new file rel (a slash path): a file already there,
// or a link, is not written over.
func (d *outDir) create(rel string) (*os.File, error) {
	dir := path.Dir(rel)
	if err := d.mkdir(dir); err != nil {
		return nil, err
	}
	if d.lastRoot == nil || dir != d.lastDir {
		if d.lastRoot != nil {
			d.lastRoot.Close()
			d.lastRoot = nil
		}
		sub, err := d.root.OpenRoot(filepath.FromSlash(dir))
		if err != nil {
			return nil, fmt.Errorf("render: %w", err)
		}
		d.lastDir, d.lastRoot = dir, sub
	}
	f, err := d.lastRoot.OpenFile(path.Base(rel), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil, usagef("render: %s is already in the out folder and render did not write it (or it was changed since): move it away; render writes no file over another", rel)
	}
	if err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	return f, nil
}

// wrote lists the file rel, of size bytes, in the marker, at once: a
// render that stops leaves no file unlisted. When the line cannot be
// written (the disk is full), the caller must remove the file: a line cut
// short is skipped by the next render, and a file it does not list would
// block it.
func (d *outDir) wrote(rel string, size int64) error {
	d.list.WriteString(strconv.FormatInt(size, 10))
	d.list.WriteByte(' ')
	d.list.WriteString(rel)
	d.list.WriteByte('\n')
	if err := d.list.Flush(); err != nil {
		return fmt.Errorf("render: listing %s in %s: %w", rel, marker, err)
	}
	return nil
}

// remove removes the file rel that render made and could not list.
func (d *outDir) remove(rel string) {
	d.root.Remove(filepath.FromSlash(rel))
}

// close writes the rest of the list and closes the folder.
func (d *outDir) close() error {
	if d.lastRoot != nil {
		d.lastRoot.Close()
		d.lastRoot = nil
	}
	err := d.list.Flush()
	if cerr := d.mf.Close(); err == nil {
		err = cerr
	}
	if cerr := d.root.Close(); err == nil {
		err = cerr
	}
	return err
}
