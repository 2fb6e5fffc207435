package collect

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/collect/machine"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

// TestPackageVersionsGo builds fairbench itself and reads the versions of
// two of its modules from the binary, as go list reports them for this
// module; a module the binary does not carry is recorded empty with why.
func TestPackageVersionsGo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	t.Parallel()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	bin := testBinary(t, "fairbench") // built once for the package's tests
	mods := []string{"github.com/BurntSushi/toml", "github.com/yuin/goldmark"}
	var want []runjson.Package
	for _, mod := range mods {
		out, err := exec.Command("go", "list", "-m", "-f", "{{.Version}}", mod).Output()
		if err != nil {
			t.Fatalf("go list -m %s: %v", mod, err)
		}
		want = append(want, runjson.Package{Name: mod, Version: strings.TrimSpace(string(out)), Source: "go version -m " + bin})
	}
	want = append(want, runjson.Package{Name: "example.com/absent", Source: "go version -m " + bin})
	target := suite.Target{Name: "fb", Runtime: "go", Artifact: bin, Packages: append(mods, "example.com/absent")}
	got, errs := packageVersions(context.Background(), &machine.Local{}, target, root)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("packages\n got %+v\nwant %+v", got, want)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "target fb: package example.com/absent: ") || !strings.Contains(errs[0].Error(), "does not list module example.com/absent") {
		t.Errorf("errors %v, want one naming the absent module", errs)
	}
}

// TestPackageVersionsNode reads versions from node_modules/<name>/package.json
// in the target's dir, scoped names included; a package not installed is
// recorded empty, and the error says to install.
func TestPackageVersionsNode(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"@nestjs/core": `{"name":"@nestjs/core","version":"12.5.1","type":"module"}`,
		"express":      `{"version":"5.3.0","name":"express"}`,
		"broken":       `{"name":"broken",`,
	} {
		p := filepath.Join(dir, "node_modules", filepath.FromSlash(name))
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p, "package.json"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	target := suite.Target{Name: "nest", Runtime: "bun", Packages: []string{"@nestjs/core", "express", "absent", "broken"}}
	got, errs := packageVersions(context.Background(), &machine.Local{}, target, dir)
	want := []runjson.Package{
		{Name: "@nestjs/core", Version: "12.5.1", Source: "node_modules/@nestjs/core/package.json"},
		{Name: "express", Version: "5.3.0", Source: "node_modules/express/package.json"},
		{Name: "absent", Source: "node_modules/absent/package.json"},
		{Name: "broken", Source: "node_modules/broken/package.json"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("packages\n got %+v\nwant %+v", got, want)
	}
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), "package absent: read node_modules/absent/package.json") || !strings.Contains(errs[0].Error(), "npm ci") ||
		!strings.Contains(errs[1].Error(), "package broken: node_modules/broken/package.json") {
		t.Errorf("errors %v, want the absent and the broken package named", errs)
	}
	if got, errs := packageVersions(context.Background(), &machine.Local{}, suite.Target{Runtime: "node"}, dir); got != nil || errs != nil {
		t.Errorf("no packages named: got %v, %v, want nothing", got, errs)
	}
}

// TestParseModules reads go version -m's mod, dep and replacement lines.
func TestParseModules(t *testing.T) {
	out := "/x: go1.26.8\n\tpath\texample.com/app\n\tmod\texample.com/app\t(devel)\t\n" +
		"\tdep\tgithub.com/gin-gonic/gin\tv1.11.0\th1:abc=\n" +
		"\tdep\tgithub.com/a/b\tv1.0.0\n\t=>\tgithub.com/c/b\tv1.0.1\th1:def=\n" +
		"\tdep\tgithub.com/d/e\tv0.1.0\n\t=>\t../e\t\n\tbuild\t-compiler=gc\n"
	got := parseModules(out)
	want := map[string]string{"example.com/app": "(devel)", "github.com/gin-gonic/gin": "v1.11.0", "github.com/a/b": "v1.0.1", "github.com/d/e": "v0.1.0"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseModules = %v, want %v", got, want)
	}
}
