package render

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// rawFile is a file copied byte for byte into the site's raw/ folder.
type rawFile struct {
	src string // path on disk
	rel string // path under raw/
	run string // run ID, "" for dumps outside run dirs
}

// rawFiles lists every file of every run dir in the set, and every dump
// read from outside run dirs, sorted by their path under raw/.
func (m *model) rawFiles() ([]rawFile, error) {
	var out []rawFile
	for _, r := range m.set.Runs {
		if r.Path == "" {
			continue
		}
		id := safePath(r.ID)
		err := filepath.WalkDir(r.Path, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.Type().IsRegular() {
				return nil // folders are walked; links are not followed
			}
			rel, err := filepath.Rel(r.Path, p)
			if err != nil {
				return err
			}
			out = append(out, rawFile{src: p, rel: id + "/" + safePath(filepath.ToSlash(rel)), run: r.ID})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	for src, rel := range m.links.raw {
		if _, inRun := m.links.inRun(src); !inRun && rel != "" {
			out = append(out, rawFile{src: src, rel: rel})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].rel < out[j].rel })
	return out, nil
}

// archive packs one run's raw files into a gzipped tar that is the same
// bytes for the same files: sorted, owned by nobody, dated by the run's
// start.
func archive(files []rawFile, run string, when time.Time) ([]byte, error) {
	var buf bytes.Buffer
	gz, err := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if err != nil {
		return nil, err
	}
	tw := tar.NewWriter(gz)
	for _, f := range files {
		if f.run != run {
			continue
		}
		b, err := os.ReadFile(f.src)
		if err != nil {
			return nil, err
		}
		hdr := &tar.Header{Name: f.rel, Mode: 0o644, Size: int64(len(b)), ModTime: when.UTC().Truncate(time.Second), Format: tar.FormatPAX, Typeflag: tar.TypeReg}
		if err := tw.WriteHeader(hdr); err != nil {
			return nil, err
		}
		if _, err := tw.Write(b); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
