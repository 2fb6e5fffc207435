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

// WriteFileAtomic replaces path with data, readable by all (0644): a
// reader sees the old bytes or the new ones, never a part.
func WriteFileAtomic(path string, data []byte) error {
	return WriteFileAtomicMode(path, data, 0o644)
}

// WriteFileAtomicMode is WriteFileAtomic with the new file's permissions:
// a file rewritten in place (a README) keeps its own.
func WriteFileAtomicMode(path string, data []byte, perm fs.FileMode) error {
	tmp, err := writeTemp(path, bytes.NewReader(data), perm)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return SyncDir(filepath.Dir(path))
}

// WriteTempFrom writes the bytes read from r to its end, in pieces, to a
// new hidden file beside path, synced, and returns its name: the caller
// renames or links it into place. A file of any size is copied without
// being held in memory.
func WriteTempFrom(path string, r io.Reader) (string, error) {
	return writeTemp(path, r, 0o644)
}

// writeTemp is WriteTempFrom with the new file's permissions.
func writeTemp(path string, r io.Reader, perm fs.FileMode) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return "", err
	}
	// CreateTemp makes the file private (0600); a run dir is for publishing.
	werr := f.Chmod(perm)
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
