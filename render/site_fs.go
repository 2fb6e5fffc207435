package render

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/fairbench/fairbench/parse/rundir"
)

// A site folder's content/ and theme/ are read and published, and a site
// folder is often a cloned repository: a link in it to ~/.ssh/id_rsa must
// not put the key on the site. So render refuses, before it writes
// anything, a link in content/ or theme/ that leads outside the site
// folder (checkLinks), and reads both folders through rundir's opener on
// the site folder (siteFS), which follows no link out of it, opens no FIFO
// or device, and reads no file over rundir.MaxSite bytes.

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
// through rundir's opener on dir.
type siteFS struct{ dir, sub string }

// Open opens name, a file or folder of the folder: a regular file of at
// most rundir.MaxSite bytes, reached through no link out of the site
// folder.
func (f siteFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	rel := path.Join(f.sub, name)
	root, err := rundir.OpenRoot(f.dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	file, err := root.OpenEntry(rel, rundir.KindSite)
	var re *rundir.RefusedError
	if errors.As(err, &re) {
		full := filepath.Join(f.dir, filepath.FromSlash(rel))
		switch re.Rule {
		case rundir.RuleLeaves:
			return nil, usagef("render: %s is a link out of the site folder %s: copy the file into the site folder instead", full, f.dir)
		case rundir.RuleSize:
			return nil, usagef("render: %s is %s bytes, over the %s a file of the site folder may have", full, group(re.Size), group(rundir.MaxSite))
		}
		return nil, usagef("render: %s is not a regular file (%s): give the file itself", full, rundir.FileType(re.Mode))
	}
	return file, err
}
