package collect

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/fairbench/fairbench/collect/machine"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

// packageVersions reads the versions of the framework packages a target
// names (Target.Packages) on the machine it was built on: for a JavaScript
// runtime from dir/node_modules/<name>/package.json, for Go from the
// module list the built binary carries (`go version -m`), the binary being
// the target's artifact or else its start command. A package that cannot
// be read is recorded with an empty version, and why in errs.
func packageVersions(ctx context.Context, m machine.Machine, t suite.Target, dir string) (pkgs []runjson.Package, errs []error) {
	if len(t.Packages) == 0 {
		return nil, nil
	}
	var read func(name string) (version, source string, err error)
	switch t.Runtime {
	case "go":
		mods, source, err := goModules(ctx, m, t, dir)
		read = func(name string) (string, string, error) {
			if err != nil {
				return "", source, err
			}
			v, ok := mods[name]
			if !ok {
				return "", source, fmt.Errorf("%s does not list module %s: name a module the binary is built with", source, name)
			}
			return v, source, nil
		}
	default:
		read = func(name string) (string, string, error) {
			return nodePackage(ctx, m, dir, name)
		}
	}
	for _, name := range t.Packages {
		v, source, err := read(name)
		pkgs = append(pkgs, runjson.Package{Name: name, Version: v, Source: source})
		if err != nil {
			errs = append(errs, fmt.Errorf("target %s: package %s: %w", t.Name, name, err))
		}
	}
	return pkgs, errs
}

// nodePackage reads the version field of dir/node_modules/name/package.json.
func nodePackage(ctx context.Context, m machine.Machine, dir, name string) (version, source string, err error) {
	source = path.Join("node_modules", name, "package.json")
	out, err := m.Run(ctx, machine.Program{Dir: dir, Argv: []string{"cat", source}})
	if err != nil {
		return "", source, fmt.Errorf("read %s in %s: %v: install the target's packages (npm ci)", source, dir, err)
	}
	var p struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	}
	if err := json.Unmarshal(out, &p); err != nil {
		return "", source, fmt.Errorf("%s in %s: %w", source, dir, err)
	}
	if p.Version == "" {
		return "", source, fmt.Errorf("%s in %s has no version", source, dir)
	}
	return p.Version, source, nil
}

// goModules asks `go version -m` for the modules the target's binary was
// built with, by module path; the main module is listed too.
func goModules(ctx context.Context, m machine.Machine, t suite.Target, dir string) (map[string]string, string, error) {
	bin := t.Artifact
	if bin == "" && len(t.Start) > 0 {
		bin = t.Start[0]
	}
	source := "go version -m " + bin
	if bin == "" {
		return nil, source, fmt.Errorf("no binary to ask: give the target an artifact")
	}
	out, err := m.Run(ctx, machine.Program{Dir: dir, Argv: []string{"go", "version", "-m", bin}})
	if err != nil {
		return nil, source, fmt.Errorf("%s: %v\n%s", source, err, out)
	}
	return parseModules(string(out)), source, nil
}

// parseModules reads the mod and dep lines of `go version -m` output
// ("\tdep\tpath\tversion\tsum"); a dep replaced by another (a "=>" line
// after it) takes the replacement's version.
func parseModules(out string) map[string]string {
	mods := map[string]string{}
	last := ""
	for _, line := range strings.Split(out, "\n") {
		f := strings.Split(strings.TrimSpace(line), "\t")
		switch {
		case len(f) >= 3 && (f[0] == "mod" || f[0] == "dep"):
			last = f[1]
			mods[last] = f[2]
		case len(f) >= 3 && f[0] == "=>" && last != "":
			mods[last] = f[2]
		}
	}
	return mods
}
