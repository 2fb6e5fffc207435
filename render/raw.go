package render

import (
	"archive/tar"
	"compress/gzip"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// rawFile is a file copied byte for byte into the site's raw/ folder.
type rawFile struct {
	src  string // path on disk
	dest string // path in the site: "raw/" + rel
	rel  string // path under raw/, sharing dest's bytes
}

func newRawFile(src, rel string) rawFile {
	dest := "raw/" + rel
	return rawFile{src: src, dest: dest, rel: dest[len("raw/"):]}
}

// link is the file's link from the downloads page.
func (f rawFile) link() Link { return Link{Href: f.dest, Text: f.rel} }

// runFiles lists every regular file of a run dir, sorted by its path under
// raw/ (<run-id>/<path in the run dir>). Links are not followed.
func runFiles(dir, id string) ([]rawFile, error) {
	var out []rawFile
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		out = append(out, newRawFile(p, safePath(id)+"/"+safePath(filepath.ToSlash(rel))))
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].rel < out[j].rel })
	return out, err
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

// writeRaw copies every file of every run dir read, and every dump read
// from outside run dirs, into raw/, one file at a time; packs each run into
// raw/<run-id>.tar.gz; and returns the downloads page that lists them. Only
// the runs on show list every file (up to maxListedFiles); an older run
// lists its run.json and suite.toml, the rest being in its archive.
func (m *model) writeRaw(w *writer) (*DownloadsPage, error) {
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
		files, err := runFiles(r.path, r.id)
		if err != nil {
			return nil, err
		}
		d := DownloadRun{ID: r.id}
		dir := safePath(r.id)
		suite, manifest := dir+"/suite.toml", dir+"/run.json"
		for _, f := range files {
			if err := w.copy(f.dest, f.src); err != nil {
				return nil, err
			}
			p.copied++
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
		name := "raw/" + dir + ".tar.gz"
		if err := w.archive(name, files, r.start); err != nil {
			return nil, err
		}
		p.archives++
		d.Archive = Link{Href: name, Text: name}
		p.Runs = append(p.Runs, d)
	}
	for _, f := range m.looseFiles() {
		if err := w.copy(f.dest, f.src); err != nil {
			return nil, err
		}
		p.copied++
		p.Loose = append(p.Loose, f.link())
	}
	return p, nil
}

// archive packs one run's raw files into a gzipped tar at rel, streamed
// file by file, that is the same bytes for the same files: sorted, owned by
// nobody, dated by the run's start.
func (w *writer) archive(rel string, files []rawFile, when time.Time) error {
	out, err := w.create(rel)
	if err != nil {
		return err
	}
	err = w.writeArchive(out, files, when)
	if cerr := w.close(out); err == nil {
		err = cerr
	}
	return err
}

// writeArchive writes the archive through one gzip writer for the whole
// site: a new one for every run would make a megabyte of garbage each.
func (w *writer) writeArchive(out io.Writer, files []rawFile, when time.Time) error {
	if w.gz == nil {
		gz, err := gzip.NewWriterLevel(out, gzip.BestSpeed)
		if err != nil {
			return err
		}
		w.gz = gz
	} else {
		w.gz.Reset(out)
	}
	gz := w.gz
	tw := tar.NewWriter(gz)
	for _, f := range files {
		if err := w.addToArchive(tw, f, when); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

// readerOnly hides an *os.File's WriteTo, which, into a tar.Writer, would
// copy through a new 32 kB buffer for every file.
type readerOnly struct{ io.Reader }

func (w *writer) addToArchive(tw *tar.Writer, f rawFile, when time.Time) error {
	src, err := os.Open(f.src)
	if err != nil {
		return err
	}
	defer src.Close()
	info, err := src.Stat()
	if err != nil {
		return err
	}
	hdr := &tar.Header{Name: f.rel, Mode: 0o644, Size: info.Size(), ModTime: when.UTC().Truncate(time.Second), Format: tar.FormatPAX, Typeflag: tar.TypeReg}
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	if w.cp == nil {
		w.cp = make([]byte, 32<<10)
	}
	_, err = io.CopyBuffer(tw, readerOnly{src}, w.cp)
	return err
}
