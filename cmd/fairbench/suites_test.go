package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect"
)

// repoRoot is where suite paths (site/apps/...) are relative to.
const repoRoot = "../.."

// gatedSuites are the suites of fairbench's own benchmark that run with no
// service; db.toml needs PostgreSQL and is left to the collector's service tests.
func gatedSuites(t *testing.T) []string {
	t.Helper()
	all, err := filepath.Glob(filepath.Join(repoRoot, "site", "suites", "*.toml"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range all {
		if filepath.Base(p) != "db.toml" {
			out = append(out, p)
		}
	}
	for _, want := range []string{"go.toml", "js.toml"} {
		if !containsBase(out, want) {
			t.Fatalf("site/suites/%s is missing (found %v)", want, out)
		}
	}
	return out
}

func containsBase(paths []string, base string) bool {
	for _, p := range paths {
		if filepath.Base(p) == base {
			return true
		}
	}
	return false
}

// TestSiteSuitesPassTheGate builds and starts every target of the published
// suites and checks every scenario and variant byte for byte, as
// `fairbench verify` does.
func TestSiteSuitesPassTheGate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts every Go and JavaScript target")
	}
	t.Parallel()
	if _, err := os.Stat(filepath.Join(repoRoot, "site", "apps", "js", "node_modules")); err != nil {
		t.Fatalf("site/apps/js/node_modules is missing: run `npm ci --prefix site/apps/js` first (.ci/run does)")
	}
	for _, path := range gatedSuites(t) {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".toml"), func(t *testing.T) {
			t.Parallel() // the Go builds while the JavaScript targets start
			suite, err := collect.LoadSuite(path)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			results, err := collect.Verify(ctx, suite, collect.Options{BaseDir: repoRoot})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := len(results), len(suite.Targets); got != want {
				t.Fatalf("%d gate results, want one per target (%d)", got, want)
			}
			for _, r := range results {
				switch {
				case r.Err != nil:
					t.Errorf("%s: %v", r.Target, r.Err)
				case len(r.Failed) > 0:
					t.Errorf("%s failed the gate for %s:\n%s", r.Target, strings.Join(r.Failed, ", "), failures(r.Transcript))
				}
			}
		})
	}
}

// failures keeps the failing exchanges of a gate transcript.
func failures(transcript string) string {
	var b strings.Builder
	for _, exchange := range strings.Split(transcript, "\n\n") {
		if strings.Contains(exchange, "\nFAIL") {
			b.WriteString(exchange + "\n\n")
		}
	}
	return b.String()
}

// TestSiteSuitesShareTheirScenarios holds the gated suites to one
// contract: go.toml and js.toml have the same scenarios and variants, byte
// for byte, and a suite with fewer (post.toml) takes its scenarios from
// them unchanged, under the name with "-pipelined" added where it loads
// them another way (its scenario pages are then its own).
func TestSiteSuitesShareTheirScenarios(t *testing.T) {
	var first *collect.Suite
	var rest []*collect.Suite
	for _, path := range gatedSuites(t) {
		suite, err := collect.LoadSuite(path)
		if err != nil {
			t.Fatal(err)
		}
		switch base := filepath.Base(path); {
		case first == nil && (base == "go.toml" || base == "js.toml"):
			first = suite
		default:
			rest = append(rest, suite)
		}
	}
	byName := map[string]collect.Scenario{}
	for _, sc := range first.Scenarios {
		byName[sc.Name] = sc
	}
	for _, suite := range rest {
		base := filepath.Base(suite.File)
		if (base == "go.toml" || base == "js.toml") && len(suite.Scenarios) != len(first.Scenarios) {
			t.Errorf("%s has %d scenarios, %s %d: keep them the same (site/apps/README.md)", suite.File, len(suite.Scenarios), first.File, len(first.Scenarios))
		}
		for _, sc := range suite.Scenarios {
			base := strings.TrimSuffix(sc.Name, "-pipelined")
			want, ok := byName[base]
			sc.Name = base
			if !ok || !reflect.DeepEqual(sc, want) {
				t.Errorf("%s: scenario %q differs from %s's: keep them the same (site/apps/README.md)", suite.File, sc.Name, first.File)
			}
		}
	}
}

// TestSiteSuitesNamePackagesTheyUse checks that every package a published
// suite's target names is there to be read when it is collected: a
// package.json under the target dir's node_modules for JavaScript, a
// module of the target's go.mod for Go (go list -m).
func TestSiteSuitesNamePackagesTheyUse(t *testing.T) {
	if _, err := os.Stat(filepath.Join(repoRoot, "site", "apps", "js", "node_modules")); err != nil {
		t.Fatalf("site/apps/js/node_modules is missing: run `npm ci --prefix site/apps/js` first (.ci/run does)")
	}
	for _, path := range gatedSuites(t) {
		suite, err := collect.LoadSuite(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, target := range suite.Targets {
			if len(target.Packages) == 0 {
				t.Errorf("%s: target %s names no packages: name its framework's", path, target.Name)
			}
			dir := filepath.Join(repoRoot, target.Dir)
			for _, name := range target.Packages {
				if target.Runtime == "go" {
					if out, err := exec.Command("go", "-C", dir, "list", "-m", name).CombinedOutput(); err != nil {
						t.Errorf("%s: target %s: go list -m %s: %v\n%s", path, target.Name, name, err, out)
					}
					continue
				}
				if _, err := os.Stat(filepath.Join(dir, "node_modules", filepath.FromSlash(name), "package.json")); err != nil {
					t.Errorf("%s: target %s: package %s: %v", path, target.Name, name, err)
				}
			}
		}
	}
}
