package rundir

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/fairbench/fairbench/parse/runjson"
)

// IsRunDir reports whether path is a fairbench run directory: it holds a
// run.json that is a regular file.
func IsRunDir(path string) bool {
	info, err := os.Stat(filepath.Join(path, RunJSON))
	return err == nil && info.Mode().IsRegular()
}

// ReadManifest reads the run.json of the run dir at path through ReadFile
// and decodes it. It returns the sha256 of its bytes too, which say whether
// two run dirs of one id hold the same run. A run.json that does not
// decode is an error naming the file that wraps the *runjson.Error (its
// line); a missing one wraps fs.ErrNotExist.
func ReadManifest(path string) (*runjson.Manifest, [sha256.Size]byte, error) {
	b, err := ReadFile(path, RunJSON, KindRunJSON)
	if err != nil {
		return nil, [sha256.Size]byte{}, err
	}
	sum := sha256.Sum256(b)
	m, err := runjson.Decode(b)
	if err != nil {
		return nil, sum, fmt.Errorf("%s: %w", filepath.Join(path, RunJSON), err)
	}
	return m, sum, nil
}

// Load opens an existing run directory to resume or merge it. Its
// run.json is read as every run-dir file is (ReadFile): a regular file
// inside the run dir, at most MaxRunJSON bytes, so that a FIFO cannot hang
// a resume, /dev/zero cannot fill its memory, and a link cannot make it
// read a file from elsewhere.
func Load(path string) (*Dir, error) {
	m, _, err := ReadManifest(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("not a run dir: %w", err)
	}
	if err != nil {
		return nil, err
	}
	return &Dir{Path: path, manifest: *m}, nil
}
