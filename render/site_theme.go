package render

import (
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/fairbench/fairbench/themes"
)

// themeTemplates are the files of a theme that hold templates; themeAssets
// are copied to the site as they are. A theme may leave out any of them:
// lookup falls through to the default theme.
var (
	themeTemplates = []string{
		"partials.html", "tables.html", "chart.svg", "index.html", "scenario.html", "target.html",
		"results.html", "methodology.html", "soft.html", "conformance.html",
		"history.html", "downloads.html", "dump.html", "latency.html",
	}
	themeAssets = []string{"site.js"}
)

// layers is a file system that looks a name up in each layer in turn: the
// site's own theme folder, then the chosen theme, then the default (Hugo's
// order).
type layers []fs.FS

// Open opens name from the first layer that has it.
func (l layers) Open(name string) (fs.File, error) {
	for _, layer := range l {
		f, err := layer.Open(name)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// themeFS stacks the site's theme/ folder (if any), the chosen theme and
// the default theme.
func themeFS(site *Site, chosen fs.FS) (fs.FS, error) {
	var l layers
	if site.Dir != "" {
		dir := filepath.Join(site.Dir, "theme")
		if info, err := os.Stat(dir); err == nil && info.IsDir() {
			l = append(l, siteFS{site.Dir, "theme"})
		}
	}
	if chosen == nil {
		name := site.Theme
		if name == "" {
			name = "default"
		}
		t, ok := themes.Get(name)
		if !ok {
			return nil, usageError{site.errorf("theme", "theme %q: no such theme (have: %v)", name, themes.Names())}
		}
		chosen = t
	}
	return append(l, chosen, themes.Default), nil
}

// stylesheet is the site's style.css: the theme's base.css followed by its
// style.css, each from the first layer that has it, so a theme may restyle
// colours alone.
func stylesheet(theme fs.FS) ([]byte, error) {
	var css []byte
	for _, name := range []string{"base.css", "style.css"} {
		b, err := fs.ReadFile(theme, name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("theme: %w", err)
		}
		css = append(css, b...)
		if len(css) > 0 && css[len(css)-1] != '\n' {
			css = append(css, '\n')
		}
	}
	return css, nil
}

// parseTheme parses the theme's templates, each file from the first layer
// that has it.
func parseTheme(theme fs.FS) (*template.Template, error) {
	t := template.New("site")
	for _, name := range themeTemplates {
		b, err := fs.ReadFile(theme, name)
		if err != nil {
			return nil, fmt.Errorf("theme: %w", err)
		}
		if _, err := t.New(name).Parse(string(b)); err != nil {
			return nil, fmt.Errorf("theme: %w", err)
		}
	}
	return t, nil
}
