// Package themes holds the site themes as embedded files: templates and CSS
// only, no logic. A theme is a folder; Lookup order (a site's own override,
// then the chosen theme, then default) is package render's job.
package themes

import (
	"embed"
	"io/fs"
)

//go:embed all:default
var files embed.FS

// Default is the default theme.
var Default = sub("default")

// Get returns the named theme, or false if there is none.
func Get(name string) (fs.FS, bool) {
	if _, err := fs.Stat(files, name); err != nil || name == "." {
		return nil, false
	}
	return sub(name), true
}

func sub(name string) fs.FS {
	f, err := fs.Sub(files, name)
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	return f
}
