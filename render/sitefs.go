package render

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
)

// A site folder's content/ and theme/ are read and published, and a site
// folder is often a cloned repository: a link in it to ~/.ssh/id_rsa must
// not put the key on the site. So render refuses, before it writes
// anything, a link in content/ or theme/ that leads outside the site
// folder (checkLinks), and reads both folders through an os.Root on the
// site folder (siteFS), which follows no link out of it, opens no FIFO or
// device, and reads no file over maxSiteFileBytes.

// maxSiteFileBytes is the largest file of content/ or theme/ render reads:
// far above any page of prose, template or stylesheet.
const maxSiteFileBytes = 16 << 20

// siteFolders are the folders of a site folder that render reads.
var siteFolders = []string{"content", "theme"}

// checkLinks refuses a link in the site's content/ or theme/ that leads
// outside the site folder, or nowhere, naming the link.
func (s *Site) checkLinks() error {
	if s.Dir == "" {
		return nil
	}
	root := resolved(s.Dir)
	for _, sub := range siteFolders {
		err := filepath.WalkDir(filepath.Join(s.Dir, sub), func(p string, d fs.DirEntry, err error) error {
			if errors.Is(err, fs.ErrNotExist) && p == filepath.Join(s.Dir, sub) {
				return nil
			}
			if err != nil || d.Type()&fs.ModeSymlink == 0 {
				return err
			}
			target, err := filepath.EvalSymlinks(p)
			if err != nil {
				dest, _ := os.Readlink(p)
				return usagef("render: %s is a link to %s, which does not resolve inside the site folder %s: copy the file into the site folder instead", p, dest, s.Dir)
			}
			if !within(root, target) && root != target {
				return usagef("render: %s is a link to %s, outside the site folder %s: copy the file into the site folder instead; render publishes no file from outside it", p, target, s.Dir)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// siteFS is the folder sub of the site folder dir, as an fs.FS read
// through an os.Root on dir.
type siteFS struct{ dir, sub string }

// Open opens name, a file of the folder: a regular file of at most
// maxSiteFileBytes, reached through no link out of the site folder.
func (f siteFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	rel := path.Join(f.sub, name)
	full := filepath.Join(f.dir, filepath.FromSlash(rel))
	root, err := os.OpenRoot(f.dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	// Non-blocking, so that a FIFO is refused rather than waited on.
	file, err := root.OpenFile(filepath.FromSlash(rel), os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "escapes") {
			return nil, usagef("render: %s is a link out of the site folder %s: copy the file into the site folder instead", full, f.dir)
		}
		return nil, err
	}
	info, err := file.Stat()
	if err == nil && info.Mode().IsRegular() && info.Size() > maxSiteFileBytes {
		err = usagef("render: %s is %s bytes, over the %s a file of the site folder may have", full, group(info.Size()), group(maxSiteFileBytes))
	} else if err == nil && !info.Mode().IsRegular() && !info.IsDir() {
		err = usagef("render: %s is not a regular file (%s): give the file itself", full, info.Mode().Type())
	}
	if err != nil {
		file.Close()
		return nil, err
	}
	return boundedFile{file, io.LimitReader(file, maxSiteFileBytes)}, nil
}

// boundedFile is an open file of the site folder that reads no more than
// maxSiteFileBytes, however it grows.
type boundedFile struct {
	*os.File
	r io.Reader
}

func (b boundedFile) Read(p []byte) (int, error) { return b.r.Read(p) }
