package rundir

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/fairbench/fairbench/parse/runjson"
)

// Dir is a run directory being written. Dumps are write-once; run.json
// and every other file are replaced atomically (write to a temporary file in
// the same folder, sync, rename), so a crash leaves either the old or the new
// bytes, never a mix.
type Dir struct {
	Path string

	mu       sync.Mutex
	manifest runjson.Manifest
	lock     *Lock // the held lock (Lock), nil when not held
	// stale names the process whose lock file Lock found and took
	// over: a collect that ended without letting go (killed); "" if none.
	stale string
	// places, when set, are the folders whose paths are rewritten in the
	// manifest before each save, its measurements from portableFrom on
	// (portable.go); portableFrom is then how many it has seen.
	places       func() []Place
	portableFrom int
}

// Create makes a new run directory under out for m and writes its
// run.json and suite.toml.
func Create(out string, m runjson.Manifest, suite []byte) (*Dir, error) {
	if m.ID == "" || !filepath.IsLocal(m.ID) || filepath.Base(m.ID) != m.ID {
		return nil, fmt.Errorf("run id %q is not one folder name", m.ID)
	}
	path := filepath.Join(out, m.ID)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	if err := os.Mkdir(path, 0o755); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("run dir %s already exists: pass -resume %s to finish it, or choose another -out", path, path)
		}
		return nil, err
	}
	d := &Dir{Path: path, manifest: m}
	if err := WriteFileAtomic(filepath.Join(path, "suite.toml"), suite); err != nil {
		return nil, err
	}
	return d, d.save()
}

// Manifest returns a copy of the manifest as it stands.
func (d *Dir) Manifest() runjson.Manifest {
	d.mu.Lock()
	defer d.mu.Unlock()
	m := d.manifest
	m.Targets = append([]runjson.Target(nil), m.Targets...)
	m.Measurements = append([]runjson.Measurement(nil), m.Measurements...)
	m.Services = append([]runjson.Service(nil), m.Services...)
	m.Orphans = append([]runjson.Orphan(nil), m.Orphans...)
	m.NotOffered = append([]runjson.NotOffered(nil), m.NotOffered...)
	return m
}

// Update changes the manifest under the lock and saves it.
func (d *Dir) Update(change func(m *runjson.Manifest)) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	change(&d.manifest)
	if d.places != nil {
		PortableManifest(d.places(), &d.manifest, d.portableFrom)
		d.portableFrom = len(d.manifest.Measurements)
	}
	return d.save()
}

func (d *Dir) save() error {
	b, err := runjson.Encode(&d.manifest)
	if err != nil {
		return err
	}
	return WriteFileAtomic(filepath.Join(d.Path, "run.json"), b)
}

// WriteDump stores a dump at rel (relative to the run dir) exactly once and
// returns its sha256. A dump that exists already is an error: dumps are never
// rewritten.
func (d *Dir) WriteDump(rel string, data []byte) (string, error) {
	if err := d.writeOnce(rel, bytes.NewReader(data)); err != nil {
		return "", err
	}
	return SHA256(data), nil
}

// WriteFile replaces a non-dump file (a conformance transcript) atomically.
func (d *Dir) WriteFile(rel string, data []byte) error {
	path, err := d.inside(rel)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return WriteFileAtomic(path, data)
}

// CopyDump stores the bytes r holds, to its end, as the dump at rel
// exactly once, in pieces, and returns their sha256.
func (d *Dir) CopyDump(rel string, r io.Reader) (string, error) {
	h := sha256.New()
	if err := d.writeOnce(rel, io.TeeReader(r, h)); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func (d *Dir) writeOnce(rel string, r io.Reader) error {
	path, err := d.inside(rel)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if _, err := os.Lstat(path); err == nil {
		return fmt.Errorf("dump %s exists already: dumps are write-once", path)
	}
	tmp, err := WriteTempFrom(path, r)
	if err != nil {
		return err
	}
	// Link fails if the name exists, so a dump is never replaced.
	if err := os.Link(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("store dump %s: %w", path, err)
	}
	os.Remove(tmp)
	return SyncDir(filepath.Dir(path))
}

// exists reports whether a file is at rel in the run dir.
func (d *Dir) Exists(rel string) bool {
	path, err := d.inside(filepath.FromSlash(rel))
	if err != nil {
		return false
	}
	_, err = os.Lstat(path)
	return err == nil
}

// inside resolves rel within the run dir and refuses anything that leaves
// it: a path that climbs out, or one through a symbolic link planted in the
// run dir.
func (d *Dir) inside(rel string) (string, error) {
	if !filepath.IsLocal(rel) {
		return "", fmt.Errorf("path %q leaves the run dir", rel)
	}
	path := d.Path
	for _, part := range strings.Split(filepath.Clean(rel), string(filepath.Separator)) {
		path = filepath.Join(path, part)
		info, err := os.Lstat(path)
		if err != nil {
			break // the rest is made on the way
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			return "", fmt.Errorf("%s is a symbolic link: fairbench does not write through links in a run dir; remove it", path)
		}
	}
	return filepath.Join(d.Path, rel), nil
}

// reserveName is a hidden file that holds disk space for run.json's last
// update: when the disk fills, it is removed so that the run can still be
// marked failed.
const reserveName = ".reserve"

// reserveBytes is how much space the reserve holds.
const reserveBytes = 1 << 20

// Reserve writes the reserve file. A disk too full for it is not an error
// yet: the first dump will say so.
func (d *Dir) Reserve() {
	// Not through a link, nor into a FIFO or device: only a regular file
	// of the run dir's own is filled.
	f, err := os.OpenFile(filepath.Join(d.Path, reserveName), os.O_CREATE|os.O_WRONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() || f.Truncate(0) != nil {
		return
	}
	chunk := make([]byte, 64<<10) // written, not truncated: a sparse file holds nothing
	for n := 0; n < reserveBytes; n += len(chunk) {
		if _, err := f.Write(chunk); err != nil {
			return
		}
	}
}

// Release removes the reserve file, giving its space back.
func (d *Dir) Release() {
	os.Remove(filepath.Join(d.Path, reserveName))
}

// SHA256 is the sha256 of a dump's bytes as run.json and parse's
// Source.SHA256 record it: 64 lowercase hex digits. A dump read whole is checked
// against the sum its records carry with this.
func SHA256(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// ReaderSHA256 is SHA256 of everything r holds, read in pieces.
func ReaderSHA256(r io.Reader) (string, error) {
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
