package rundir

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFileAtomic replaces path with data: a reader sees the old bytes or the
// new ones, never a part.
func WriteFileAtomic(path string, data []byte) error {
	tmp, err := WriteTemp(path, data)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return SyncDir(filepath.Dir(path))
}

// WriteTemp writes data to a new hidden file beside path, synced, and
// returns its name: the caller renames or links it into place.
func WriteTemp(path string, data []byte) (string, error) {
	return WriteTempFrom(path, bytes.NewReader(data))
}

// WriteTempFrom is WriteTemp with the bytes read from r to its end, in
// pieces: a file of any size is copied without being held in memory.
func WriteTempFrom(path string, r io.Reader) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return "", err
	}
	// CreateTemp makes the file private (0600); a run dir is for publishing.
	werr := f.Chmod(0o644)
	if werr == nil {
		_, werr = io.Copy(f, r)
	}
	if werr == nil {
		werr = f.Sync()
	}
	cerr := f.Close()
	if werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(f.Name())
		var pe *fs.PathError
		if errors.As(werr, &pe) {
			werr = pe.Err // the temporary file's name says nothing more
		}
		return "", fmt.Errorf("write %s: %w", path, werr)
	}
	return f.Name(), nil
}

// SyncDir flushes dir's entries to disk, so that a rename in it lasts;
// where the filesystem refuses, it does nothing.
func SyncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	f.Sync() // best effort: some filesystems refuse fsync on a directory
	return nil
}
