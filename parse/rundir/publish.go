package rundir

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// What of a run dir may be published. A run dir may come from anyone (a
// contributed run, a cloned repository), and what is published is served
// from a site's own origin, so only what the layout names (InLayout) is
// published: no other file, no dotfile or file in a dot-folder (.env,
// .git/), and no file with more than one hard link or on another device
// than the run dir (either may be a file from outside the run dir that a
// link into it would publish). A suite's body files are not part of a run
// dir and are not published. What is left out is said, naming the files.

// Publishable lists the files of the run dir dir that may be published, as
// slash paths in it in walk order, and says why each other regular file is
// left out. Links are not followed; dot-folders are not entered.
func Publishable(dir string) (files []string, left []error, err error) {
	var device uint64
	var other []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "." {
				info, err := d.Info()
				if err != nil {
					return err
				}
				device, _ = DeviceAndLinks(info)
			} else if strings.HasPrefix(d.Name(), ".") {
				other = append(other, rel+"/")
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil // a link or a special file: the run-dir reader refuses it, and says so
		}
		if !InLayout(rel) {
			other = append(other, rel)
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if dev, links := DeviceAndLinks(info); links > 1 {
			left = append(left, fmt.Errorf("%s: %s has %d hard links, and one may be a file outside the run dir: copy the file in its place to publish it", dir, rel, links))
			return nil
		} else if dev != device {
			left = append(left, fmt.Errorf("%s: %s is on another device than the run dir (a mount): copy the file in its place to publish it", dir, rel))
			return nil
		}
		files = append(files, rel)
		return nil
	})
	if len(other) > 0 {
		const shown = 5
		names := strings.Join(other[:min(len(other), shown)], ", ")
		if len(other) > shown {
			names += fmt.Sprintf(" and %d more", len(other)-shown)
		}
		left = append(left, fmt.Errorf("%s: %d files the run-dir layout does not name (%s): only run.json, suite.toml, conformance/*.txt and dumps/…/*.txt and *.stderr are published", dir, len(other), names))
	}
	return files, left, err
}

// OpenPublished opens the file at rel in the run dir as Open does, for
// publishing it: a file that may come from outside the run dir (more than
// one hard link, or on another device than the run dir) is refused too,
// as the file opened says, so that no name swapped in meanwhile slips
// through.
func (d *Root) OpenPublished(rel string, kind FileKind) (*File, error) {
	f, err := d.Open(rel, kind)
	if err != nil {
		return nil, err
	}
	top, err := d.root.Stat(".")
	if err != nil {
		f.Close()
		return nil, err
	}
	info, err := f.f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	device, _ := DeviceAndLinks(top)
	dev, links := DeviceAndLinks(info)
	reason := ""
	switch {
	case links > 1:
		reason = fmt.Sprintf("it has %d hard links, and one may be a file outside the run dir", links)
	case dev != device:
		reason = "it is on another device than the run dir (a mount)"
	}
	if reason != "" {
		f.Close()
		return nil, &RefusedError{File: f.name, Kind: kind, Rule: RuleForeign, Reason: reason}
	}
	return f, nil
}

// Foreign reports whether the file at rel in the run dir dir may be a
// file from outside it: more than one hard link, or another device.
func Foreign(dir, rel string) bool {
	root, err := os.Lstat(dir)
	if err != nil {
		return true
	}
	info, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		return false // the run-dir reader says what is wrong with it
	}
	device, _ := DeviceAndLinks(root)
	dev, links := DeviceAndLinks(info)
	return links > 1 || dev != device
}

// DeviceAndLinks are the device of the file of info and how many names
// it has; 0 and 1 where the system does not say.
func DeviceAndLinks(info fs.FileInfo) (device, links uint64) {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev), uint64(st.Nlink)
	}
	return 0, 1
}
