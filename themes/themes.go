// Package themes holds the site themes as embedded files: templates, CSS and
// one small script, no logic. A theme is a folder; a theme may leave files
// out, and package render then takes them from the default theme. Lookup
// order (a site's own override, then the chosen theme, then default) is
// package render's job.
package themes

import (
	"embed"
	"io/fs"
	"sort"
)

//go:embed all:default all:mono
var files embed.FS

// Default is the default theme: light and dark by prefers-color-scheme.
var Default = sub("default")

// Get returns the named theme, or false if there is none.
func Get(name string) (fs.FS, bool) {
	if name == "" || name == "." {
		return nil, false
	}
	if info, err := fs.Stat(files, name); err != nil || !info.IsDir() {
		return nil, false
	}
	return sub(name), true
}

// Names lists the embedded themes, sorted.
func Names() []string {
	entries, _ := fs.ReadDir(files, ".")
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names
}

func sub(name string) fs.FS {
	f, err := fs.Sub(files, name)
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	return f
}
