package rundir

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/fairbench/fairbench/parse/runjson"
)

// run.json is published with the run (render copies it under raw/) and
// compared across machines, so collect writes no absolute path of the
// machine that collected into it: not its home folder (the user's name),
// not its temporary folders (random names that differ at every run), not
// where the project is checked out. A path in any of those places is
// written relative to it:
//
//	the collect's build scratch folder   {build}/<target>/…  (vegeta's targets file, go version -m {build}/bin/…)
//	the base folder (-base, default .)   relative to it      (site/suites/js.toml)
//	the home folder                      ~/…                 (~/.cache/fairbench/bombardier-v1.2.6/bombardier)
//	the temporary folder                 {tmp}/…             (a suite kept in /tmp)
//
// the first that holds it, the most particular first. Other absolute paths
// (/usr/bin/wrk) are the system's, the same on every machine of its kind,
// and stay. Paths on an SSH host are that host's and stay too. Runs
// written before keep their absolute paths; LocalPath reads both.

// Place is a folder of this machine and what run.json calls it: "{build}",
// "~", "{tmp}", or "" for the base folder (paths relative to it).
type Place struct{ Dir, Name string }

// SetPortable makes every later write of the run dir rewrite the paths
// that lie in one of places (PortableManifest) before it is saved; places
// is asked at each save, the most particular folder first.
func (d *Dir) SetPortable(places func() []Place) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.places = places
}

// Places are the folders whose paths run.json writes portably, the most
// particular first: build (the collect's build scratch folder, "" if none),
// base ("" is the current folder), the home folder and the temporary folder.
func Places(build, base string) []Place {
	var out []Place
	add := func(dir, name string) {
		if dir == "" {
			return
		}
		if abs, err := filepath.Abs(dir); err == nil {
			out = append(out, Place{filepath.Clean(abs), name})
		}
	}
	add(build, "{build}")
	add(cmpOr(base, "."), "")
	if home, err := os.UserHomeDir(); err == nil {
		add(home, "~")
	}
	add(os.TempDir(), "{tmp}")
	return out
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// PortablePath rewrites every path in s that lies in one of places, where it
// starts s or follows a space, '=', ':' or a quote (an argv element such
// as -targets=/tmp/…, a command line, an error message).
func PortablePath(places []Place, s string) string {
	if !strings.Contains(s, "/") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if i == 0 || strings.ContainsRune(" =:\"'(", rune(s[i-1])) {
			if p, n, ok := placeAt(places, s[i:]); ok {
				b.WriteString(p)
				i += n
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// placeAt matches the path at the start of s against places: the folder
// itself (ending s or followed by a separator or a space) or a path in it.
// It returns what to write for the folder and how many bytes it replaces.
func placeAt(places []Place, s string) (string, int, bool) {
	for _, p := range places {
		if !strings.HasPrefix(s, p.Dir) {
			continue
		}
		rest := s[len(p.Dir):]
		switch {
		case p.Dir == "/":
			continue // a base of / would claim every path
		case rest == "" || strings.ContainsRune(" :\"')", rune(rest[0])):
			return cmpOr(p.Name, "."), len(p.Dir), true
		case rest[0] == '/' && p.Name == "":
			return "", len(p.Dir) + 1, true // relative to the base: no leading /
		case rest[0] == '/':
			return p.Name, len(p.Dir), true
		}
	}
	return "", 0, false
}

// PortableManifest rewrites the paths of m that collect writes: the suite
// file, the local tools' paths and the argv asked of them, each measurement's
// argv and reports (from the measurement from on: those before are
// rewritten already, and a measurement gains no path once recorded), the
// packages' sources, and the errors.
func PortableManifest(places []Place, m *runjson.Manifest, from int) {
	// Each slice is replaced by a new one: the collector may still hold
	// the one it recorded (a measurement's argv, the tool it runs).
	fix := func(ss []string) []string {
		if ss == nil {
			return nil
		}
		out := make([]string, len(ss))
		for i, s := range ss {
			out[i] = PortablePath(places, s)
		}
		return out
	}
	// A new map: the collector runs the tools from the map it gave the
	// manifest, by their paths here.
	tools := func(ts map[string]runjson.Version) map[string]runjson.Version {
		if ts == nil {
			return nil
		}
		out := make(map[string]runjson.Version, len(ts))
		for k, v := range ts {
			v.Path = PortablePath(places, v.Path)
			v.Asked = fix(v.Asked)
			out[k] = v
		}
		return out
	}
	m.SuiteFile = PortablePath(places, m.SuiteFile)
	// The SSH hosts' tools are left as they are: their paths are those
	// hosts', not this machine's, and each host's map is the one its
	// services add their versions to after this first save.
	m.Tools = tools(m.Tools)
	m.Errors = fix(m.Errors)
	for i := range m.Targets {
		t := &m.Targets[i]
		t.Error = PortablePath(places, t.Error)
		for j := range t.Packages {
			t.Packages[j].Source = PortablePath(places, t.Packages[j].Source)
		}
	}
	for i := min(from, len(m.Measurements)); i < len(m.Measurements); i++ {
		mr := &m.Measurements[i]
		mr.Argv = fix(mr.Argv)
		if mr.Reports != nil {
			reports := make([][]string, len(mr.Reports))
			for j, r := range mr.Reports {
				reports[j] = fix(r)
			}
			mr.Reports = reports
		}
		mr.Error = PortablePath(places, mr.Error)
	}
}

// LocalPath is a path of run.json (suite_file) as a path of this machine:
// {build} cannot be (the folder is gone), ~/… is in the home folder, {tmp}/…
// in the temporary folder, a relative path is relative to base. An
// absolute path (a run written before) is as it was.
func LocalPath(p, base string) string {
	switch {
	case p == "" || filepath.IsAbs(p):
		return p
	case p == "~" || strings.HasPrefix(p, "~/"):
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, p[1:])
		}
	case p == "{tmp}" || strings.HasPrefix(p, "{tmp}/"):
		return filepath.Join(os.TempDir(), p[len("{tmp}"):])
	}
	return filepath.Join(cmpOr(base, "."), p)
}
