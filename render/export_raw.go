package render

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/rundir"
)

// rawFile is a file copied byte for byte into the site's raw/ folder.
type rawFile struct {
	src  string // path on disk
	dest string // path in the site: "raw/" + rel, as inertName makes it
	rel  string // path under raw/ as in the run dir: the archive's name for it
	// root and name are the run dir and the slash path in it of a file of
	// a run dir; root is "" for a dump read from outside run dirs.
	root, name string
}

func newRawFile(src, rel string) rawFile {
	return rawFile{src: src, dest: "raw/" + inertName(rel), rel: rel}
}

// link is the file's link from the downloads page.
func (f rawFile) link() Link { return Link{Href: f.dest, Text: f.rel} }

// open opens the file through package rundir's reader: inside its
// run dir, a regular file, within the limit of its kind, and not a file
// that may come from outside the run dir. dir, if not nil,
// is its run dir, open.
func (f rawFile) open(dir *rundir.Root) (*rundir.File, error) {
	switch {
	case f.root == "":
		return rundir.OpenNamed(f.src, rundir.KindDump)
	case dir != nil:
		return dir.OpenPublished(f.name, rundir.KindOf(f.name))
	}
	d, err := rundir.OpenRoot(f.root)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.OpenPublished(f.name, rundir.KindOf(f.name))
}

// looseFiles are the dumps read from outside run dirs, sorted by their
// path under raw/.
func (m *model) looseFiles() []rawFile {
	var out []rawFile
	for src, rel := range m.links.raw {
		if _, inRun := m.links.inRun(src); !inRun && rel != "" {
			out = append(out, newRawFile(src, rel))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].rel < out[j].rel })
	return out
}

// rawWriter publishes raw files: each is read once, through package
// rundir's reader, and from those bytes go its copy under raw/, its
// entry in its run's archive, and its dump page if it has one.
type rawWriter struct {
	m      *model
	w      *writer
	pages  map[string][]*parse.Measurement // dump pages not yet written, by source file
	tw     *tar.Writer                     // the archive of the run being copied; nil for loose files
	dir    *rundir.Root                    // the run dir being copied; nil for loose files
	when   time.Time                       // its date
	body   []byte                          // a dump page's file, reused
	copied int
	// progress, when set, hears of every 2,000 files copied.
	progress func(string, ...any)
	// refused are the files the reader would not read: not published.
	refused []error
}

// writeRaw copies every file of every run dir read, and every dump read
// from outside run dirs, into raw/, one file at a time; packs each run into
// raw/<run-id>.tar.gz; writes the dump pages of the files it copies; and
// returns the downloads page that lists them. Only the runs on show list
// every file (up to maxListedFiles); an older run lists its run.json and
// suite.toml, the rest being in its archive.
func (m *model) writeRaw(w *writer, pages map[string][]*parse.Measurement, progress func(string, ...any)) (*DownloadsPage, *rawWriter, error) {
	rw := &rawWriter{m: m, w: w, pages: pages, progress: progress}
	p := m.downloadsPage()
	p.Runs = make([]DownloadRun, 0, len(m.in.runs))
	runs := make([]*runFacts, len(m.in.runs))
	for i := range m.in.runs {
		runs[i] = &m.in.runs[i]
	}
	sort.SliceStable(runs, func(i, j int) bool { return safePath(runs[i].id) < safePath(runs[j].id) })
	done := map[string]bool{}
	for _, r := range runs {
		if r.path == "" || done[r.id] {
			continue
		}
		done[r.id] = true
		files, left, err := runFiles(r.path, r.id)
		if err != nil {
			return nil, nil, err
		}
		rw.refused = append(rw.refused, left...)
		d := DownloadRun{ID: r.id}
		dir := safePath(r.id)
		suite, manifest := dir+"/suite.toml", dir+"/run.json"
		name := "raw/" + dir + ".tar.gz"
		if rw.dir, err = rundir.OpenRoot(r.path); err != nil {
			return nil, nil, err
		}
		err = rw.archive(name, r.start, func() error {
			for _, f := range files {
				ok, err := rw.publish(f)
				if err != nil {
					return err
				}
				if !ok {
					continue
				}
				if f.rel == suite {
					d.Suite = f.link()
				}
				listed := len(d.Files) < maxListedFiles
				if !m.primary[r.id] {
					listed = f.rel == suite || f.rel == manifest
				}
				if listed {
					d.Files = append(d.Files, f.link())
				} else {
					d.More++
				}
			}
			return nil
		})
		rw.dir.Close()
		rw.dir = nil
		if err != nil {
			return nil, nil, err
		}
		p.archives++
		d.Archive = Link{Href: name, Text: name}
		p.Runs = append(p.Runs, d)
	}
	for _, f := range m.looseFiles() {
		ok, err := rw.publish(f)
		if err != nil {
			return nil, nil, err
		}
		if ok {
			p.Loose = append(p.Loose, f.link())
		}
	}
	p.copied = rw.copied
	return p, rw, nil
}

// archive packs what add publishes into a gzipped tar at rel, streamed
// file by file, that is the same bytes for the same files: sorted, owned
// by nobody, dated by the run's start. One gzip writer serves the whole
// site: a new one for every run would make a megabyte of garbage each.
func (rw *rawWriter) archive(rel string, when time.Time, add func() error) error {
	w := rw.w
	out, err := w.create(rel)
	if err != nil {
		return err
	}
	if w.gz == nil {
		w.gz, err = gzip.NewWriterLevel(out, gzip.BestSpeed)
	} else {
		w.gz.Reset(out)
	}
	if err == nil {
		rw.tw, rw.when = tar.NewWriter(w.gz), when
		err = add()
		if cerr := rw.tw.Close(); err == nil {
			err = cerr
		}
		rw.tw = nil
		if cerr := w.gz.Close(); err == nil {
			err = cerr
		}
	}
	if cerr := w.close(out); err == nil {
		err = cerr
	}
	return err
}

// readerOnly hides an *os.File's WriteTo, which, into a tar.Writer, would
// copy through a new 32 kB buffer for every file.
type readerOnly struct{ io.Reader }

// publish reads f once and writes its copy, its archive entry and its dump
// page. A file the reader refuses is left out (false) and kept in
// rw.refused.
func (rw *rawWriter) publish(f rawFile) (bool, error) {
	src, err := f.open(rw.dir)
	if errors.Is(err, rundir.ErrRefused) {
		rw.refused = append(rw.refused, err)
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer src.Close()
	w := rw.w
	size := src.Size()
	var body io.Reader = io.LimitReader(src, size) // what grew after it was opened is not copied
	ms, paged := rw.pages[f.src]
	if paged {
		if rw.body, err = readAll(body, rw.body[:0], size); err != nil {
			return false, err
		}
		body = bytes.NewReader(rw.body)
		size = int64(len(rw.body))
	}
	out, err := w.create(f.dest)
	if err != nil {
		return false, err
	}
	var dst io.Writer = out
	if rw.tw != nil {
		hdr := &tar.Header{Name: f.rel, Mode: 0o644, Size: size, ModTime: rw.when.UTC().Truncate(time.Second), Format: tar.FormatPAX, Typeflag: tar.TypeReg}
		if err = rw.tw.WriteHeader(hdr); err == nil {
			dst = io.MultiWriter(out, rw.tw)
		}
	}
	if w.cp == nil {
		w.cp = make([]byte, 32<<10)
	}
	if err == nil {
		_, err = io.CopyBuffer(dst, readerOnly{body}, w.cp)
	}
	if cerr := w.close(out); err == nil {
		err = cerr
	}
	if err != nil {
		return false, err
	}
	rw.copied++
	if rw.copied%2000 == 0 && rw.progress != nil {
		rw.progress("%d raw files copied", rw.copied)
	}
	if paged {
		delete(rw.pages, f.src)
		if err := rw.page(f.src, rw.body, ms); err != nil {
			return false, err
		}
	}
	return true, nil
}

// page writes the dump page of file from its bytes b.
func (rw *rawWriter) page(file string, b []byte, ms []*parse.Measurement) error {
	p := rw.m.dumpPage(file, b, ms)
	return rw.w.page(p, p)
}

// rest writes the dump pages of files publish did not read (a source file
// that is not where the run dir's listing put it), each read on its own.
func (rw *rawWriter) rest() error {
	for _, file := range slices.Sorted(maps.Keys(rw.pages)) {
		var b []byte
		src := newRawFile(file, "")
		src.root, src.name, _ = rw.m.links.runDirOf(file)
		if src.root != "" && rundir.Foreign(src.root, src.name) {
			continue // not published, so not shown on a page either
		}
		f, err := src.open(nil)
		if err == nil {
			b, err = readAll(f, nil, f.Size())
			f.Close()
		}
		if err != nil {
			return fmt.Errorf("dump page: %w", err)
		}
		if err := rw.page(file, b, rw.pages[file]); err != nil {
			return err
		}
	}
	return nil
}

// readAll reads r, of about size bytes, into buf.
func readAll(r io.Reader, buf []byte, size int64) ([]byte, error) {
	if int64(cap(buf)) < size+1 {
		buf = make([]byte, 0, size+1)
	}
	b := bytes.NewBuffer(buf)
	_, err := b.ReadFrom(r)
	return b.Bytes(), err
}
