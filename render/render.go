package render

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// Options say where and how to build a site.
type Options struct {
	Out   string // folder to write: new, empty, or one render wrote before (see checkOut and openOut)
	Title string // "" uses the site's title
	Site  *Site  // nil uses DefaultSite
	// Theme replaces the theme the site names; nil looks it up by name.
	Theme fs.FS
	// Thresholds decide differences, tiers and findings; zero means
	// audit.DefaultThresholds.
	Thresholds verdict.Thresholds
	// Progress receives a line per stage with its time; nil for none.
	Progress io.Writer
	// Readme, when set, gets the site's results.md between its markers
	// once the site is written.
	Readme *Readme
}

// site is the site opt names, with its title and defaults filled in.
func (opt Options) site() *Site {
	site := opt.Site
	if site == nil {
		s := DefaultSite
		site = &s
	}
	if opt.Title != "" {
		s := *site
		s.Title = opt.Title
		site = &s
	}
	if site.Title == "" {
		s := *site
		s.Title = DefaultTitle
		site = &s
	}
	return site
}

// DefaultTitle is the site title when none is given.
const DefaultTitle = "HTTP framework benchmark"

// Build writes the site for set into opt.Out and returns the path of its
// index.html. The same set and options render byte-identical files.
func Build(set *parse.Set, opt Options) (string, error) {
	return BuildInput(fromSet(set, opt), opt)
}

// ErrNothingRead is BuildPaths' error when the paths held no measurement
// and reading them failed.
var ErrNothingRead = errors.New("no measurement could be read")

// BuildPaths reads paths with Read and builds the site from them, as Build
// does from a set, in memory that does not grow with the number of dumps.
// Problems with single files are returned apart from the error, which says
// whether a site was written: a site is written unless no measurement
// could be read, which is ErrNothingRead when there were problems and an
// ErrUsage error ("nothing to render") when there were none; either way the
// out folder is left as it was.
func BuildPaths(paths []string, opt Options) (index string, readErrs []error, err error) {
	start := time.Now()
	// What can be refused without reading the input is refused first:
	// the out folder (checked before the lock, which makes a file in it,
	// and again under the lock, when no other render can change it), the
	// theme's name, and the site folder's links.
	if err := checkOut(opt.Out, paths); err != nil {
		return "", nil, err
	}
	if _, err := themeFS(opt.site(), opt.Theme); err != nil {
		return "", nil, err
	}
	if err := opt.site().checkLinks(); err != nil {
		return "", nil, err
	}
	lock, err := lockOut(opt.Out)
	if err != nil {
		return "", nil, err
	}
	defer lock.release()
	if err := checkOut(opt.Out, paths); err != nil {
		return "", nil, err
	}
	in, errs, err := Read(paths, opt)
	if err != nil {
		return "", errs, err
	}
	defer in.Close()
	if opt.Progress != nil {
		fmt.Fprintf(opt.Progress, "render: read %s (%s)\n", in, time.Since(start).Round(time.Millisecond))
	}
	if in.Measurements() == 0 {
		if onlyEmpty(errs) {
			return "", nil, nothingToRender(paths, in.counts.runs)
		}
		return "", errs, ErrNothingRead
	}
	index, err = buildInput(in, opt)
	return index, errs, err
}

// onlyEmpty reports whether every problem reading the paths was a path
// with no dumps in it, or a warning: nothing was unreadable, there was
// only nothing to read.
func onlyEmpty(errs []error) bool {
	for _, err := range errs {
		var empty *parse.NoDumpsError
		var w *parse.Warning
		if !errors.As(err, &empty) && !errors.As(err, &w) {
			return false
		}
	}
	return true
}

// nothingToRender is BuildPaths' error for paths that were read without
// a problem and held no measurement: an empty folder, or run dirs whose
// every target failed. The out folder is left as it was, since an empty
// site in place of a good one is no result.
func nothingToRender(paths []string, runs int) error {
	in := strings.Join(paths, ", ")
	if runs == 0 {
		return usagef("nothing to render: %s holds no dumps or run dirs", in)
	}
	return usagef("nothing to render: the run dirs in %s hold no dumps", in)
}

// BuildInput writes the site for in into opt.Out and returns the path of
// its index.html. opt must name the same site and thresholds that Read got.
func BuildInput(in *Input, opt Options) (string, error) {
	if err := checkOut(opt.Out, in.inputs()); err != nil {
		return "", err
	}
	if err := opt.site().checkLinks(); err != nil {
		return "", err
	}
	lock, err := lockOut(opt.Out)
	if err != nil {
		return "", err
	}
	defer lock.release()
	return buildInput(in, opt)
}

// buildInput is BuildInput for a caller that holds the out folder.
func buildInput(in *Input, opt Options) (string, error) {
	start := time.Now()
	site := opt.site()
	theme, err := themeFS(site, opt.Theme)
	if err != nil {
		return "", err
	}
	tmpl, err := parseTheme(theme)
	if err != nil {
		return "", err
	}
	progress := func(format string, args ...any) {
		if opt.Progress != nil {
			fmt.Fprintf(opt.Progress, "render: %s (%s)\n", fmt.Sprintf(format, args...), time.Since(start).Round(time.Millisecond))
		}
	}
	m := newModel(in, site)
	progress("statistics, tiers and %d findings for %d cells", len(m.findings), len(m.all))
	if err := checkOut(opt.Out, in.inputs()); err != nil {
		return "", err
	}
	dir, err := openOut(opt.Out)
	if err != nil {
		return "", err
	}
	w := &writer{dir: dir, tmpl: tmpl}
	err = m.writePages(w, progress)
	if err == nil {
		err = m.writeFiles(w, theme, progress)
	}
	if cerr := dir.close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	progress("wrote %d files, %s", w.files, Bytes(w.bytes))
	for _, warning := range m.warnings {
		progress("warning: %s", warning)
	}
	if opt.Readme != nil {
		if err := opt.Readme.Update(m.resultsMD); err != nil {
			return "", err
		}
	}
	return filepath.Join(opt.Out, "index.html"), nil
}

// writer writes files under out and counts them. Its buffers are made
// once and reused by every file, so that copying 100,000 dumps makes no
// garbage per dump.
type writer struct {
	dir   *outDir
	tmpl  *template.Template
	files int
	bytes int64
	bw    *bufio.Writer // a page on its way to its file
	valid validUTF8     // between bw and the file
	gz    *gzip.Writer  // reused by every archive
	cp    []byte        // io.CopyBuffer's buffer
}

func (w *writer) write(rel string, b []byte) error {
	f, err := w.create(rel)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if cerr := w.close(f); err == nil {
		err = cerr
	}
	return err
}

// outFile is a file being written, and its path in the site.
type outFile struct {
	*os.File
	rel string
}

// create makes the new file rel for writing; close it with w.close, also
// after an error, so that it is listed.
func (w *writer) create(rel string) (*outFile, error) {
	f, err := w.dir.create(rel)
	if err != nil {
		return nil, err
	}
	return &outFile{f, rel}, nil
}

// close closes a file from w.create, counts it and lists it in the
// marker; a file that cannot be listed is removed, so that the folder is
// left as the next render can take it.
func (w *writer) close(f *outFile) error {
	err := f.Close()
	info, serr := w.dir.root.Lstat(filepath.FromSlash(f.rel))
	if serr == nil {
		serr = w.dir.wrote(f.rel, info.Size())
	}
	if serr != nil {
		w.dir.remove(f.rel)
		return serr
	}
	w.files++
	w.bytes += info.Size()
	return err
}

// page executes the template a page names into the file at its path,
// through one buffer for every page: the history of 1,000 runs is a page
// of 600 kB that need not be held whole.
func (w *writer) page(p interface{ page() Page }, data any) error {
	pg := p.page()
	f, err := w.create(pg.Path)
	if err != nil {
		return err
	}
	w.valid.w, w.valid.tail = f, w.valid.tail[:0]
	if w.bw == nil {
		w.bw = bufio.NewWriterSize(&w.valid, 64<<10)
	} else {
		w.bw.Reset(&w.valid)
	}
	if err := w.tmpl.ExecuteTemplate(w.bw, pg.Template, data); err != nil {
		w.close(f)
		return fmt.Errorf("render %s: %w", pg.Path, err)
	}
	err = w.bw.Flush()
	if err == nil {
		err = w.valid.end()
	}
	if err != nil {
		w.close(f)
		return err
	}
	w.bw.Reset(nil) // not to hold on to the file
	w.valid.w = nil
	return w.close(f)
}

func (p Page) page() Page { return p }

// validUTF8 passes what is written to w with every byte that is not UTF-8
// replaced by U+FFFD, visibly: a target or scenario name is whatever a
// run.json or a file name held, and a page is UTF-8.
type validUTF8 struct {
	w    io.Writer
	tail []byte // the start of a rune the next Write may finish
	buf  []byte
}

func (v *validUTF8) Write(p []byte) (int, error) {
	n := len(p)
	if len(v.tail) > 0 {
		v.buf = append(append(v.buf[:0], v.tail...), p...)
		p = v.buf
		v.tail = v.tail[:0]
	}
	// Hold back a rune cut by the end of p.
	for i := len(p) - 1; i >= 0 && i >= len(p)-utf8.UTFMax; i-- {
		if utf8.RuneStart(p[i]) {
			if !utf8.FullRune(p[i:]) {
				v.tail = append(v.tail, p[i:]...)
				p = p[:i]
			}
			break
		}
	}
	if !utf8.Valid(p) {
		p = bytes.ToValidUTF8(p, []byte("\uFFFD"))
	}
	if _, err := v.w.Write(p); err != nil {
		return 0, err
	}
	return n, nil
}

// end writes a rune left unfinished at the end of the page as U+FFFD.
func (v *validUTF8) end() error {
	if len(v.tail) == 0 {
		return nil
	}
	v.tail = v.tail[:0]
	_, err := v.w.Write([]byte("\uFFFD"))
	return err
}

// writePages renders every page, each built just before it is written so
// that only one page's data is held at a time.
func (m *model) writePages(w *writer, progress func(string, ...any)) error {
	n := 0
	put := func(p interface{ page() Page }, err error) error {
		if err != nil {
			return err
		}
		n++
		return w.page(p, p)
	}
	if err := put(m.indexPage(), nil); err != nil {
		return err
	}
	if err := put(m.resultsPage(), nil); err != nil {
		return err
	}
	if err := put(m.conformancePage(), nil); err != nil {
		return err
	}
	if err := put(m.methodologyPage()); err != nil {
		return err
	}
	soft, err := m.softPage()
	if err := put(soft, err); err != nil {
		return err
	}
	if err := put(m.softDumpsPage(soft), nil); err != nil {
		return err
	}
	if err := m.writeHistory(put); err != nil {
		return err
	}
	for _, s := range m.scenarios {
		if err := put(m.scenarioPage(s)); err != nil {
			return err
		}
		if pp := m.pointsPage(s); pp != nil {
			if err := put(pp, nil); err != nil {
				return err
			}
		}
	}
	for _, name := range m.names {
		if err := put(m.targetPage(name), nil); err != nil {
			return err
		}
	}
	if err := m.writeOpenPages(put); err != nil {
		return err
	}
	progress("%d pages", n)
	return nil
}

// writeFiles copies the theme's assets and the raw runs, and writes the
// downloads.
func (m *model) writeFiles(w *writer, theme fs.FS, progress func(string, ...any)) error {
	css, err := stylesheet(theme)
	if err != nil {
		return err
	}
	if err := w.write("style.css", css); err != nil {
		return err
	}
	for _, name := range themeAssets {
		b, err := fs.ReadFile(theme, name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("theme: %w", err)
		}
		if err := w.write(name, b); err != nil {
			return err
		}
	}
	pages := m.dumpFiles()
	n := len(pages)
	downloads, rw, err := m.writeRaw(w, pages, progress)
	if err == nil {
		err = rw.rest()
	}
	if err != nil {
		return fmt.Errorf("raw files: %w", err)
	}
	w.gz = nil // a megabyte the rest does not need
	progress("copied %d raw files, %d archives, %d dump pages", downloads.copied, downloads.archives, n)
	for _, err := range rw.refused {
		progress("not published: %v", err)
	}
	if err := w.page(downloads, downloads); err != nil {
		return err
	}
	if err := w.write("_headers", headersFile(downloads.rawFolders())); err != nil {
		return err
	}
	if err := m.writeExports(w); err != nil {
		return err
	}
	m.resultsMD = m.resultsMarkdown()
	return w.write("results.md", m.resultsMD)
}

// ResultsMarkdown renders only results.md for set, as Build would write it.
func ResultsMarkdown(set *parse.Set, site *Site, th verdict.Thresholds) []byte {
	if site == nil {
		s := DefaultSite
		site = &s
	}
	return newModel(fromSet(set, Options{Site: site, Thresholds: th}), site).resultsMarkdown()
}
