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
	"github.com/fairbench/fairbench/collect/suite"
)

// repoRoot is where suite paths (site/apps/...) are relative to, made
// absolute: a target's dir is part of its build cache key
// (collect/build_cache.go), and every collect first prunes the entries
// whose dir it cannot see from its own working directory. Relative, the
// dir names nothing from another package's tests run beside these, which
// would prune the stdlib and gin entries between builds; the entry's lock
// file goes with it, and two builds of one entry (both gate tests build
// stdlib and gin) could then hold two locks and write one out/ folder.
var repoRoot = func() string {
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		panic(err)
	}
	return dir
}()

// gatedSuites are the suites of fairbench's own benchmark that run with no
// service; the database suites (db.toml, js-db.toml) need PostgreSQL and
// are left to `fairbench verify` and the collector's service tests.
func gatedSuites(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, p := range siteSuites(t) {
		if len(loadSuite(t, p).Services) == 0 {
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

// siteSuites are the paths of every suite of fairbench's own benchmark.
func siteSuites(t *testing.T) []string {
	t.Helper()
	all, err := filepath.Glob(filepath.Join(repoRoot, "site", "suites", "*.toml"))
	if err != nil {
		t.Fatal(err)
	}
	return all
}

func loadSuite(t *testing.T, path string) *suite.Suite {
	t.Helper()
	s, err := suite.LoadSuite(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
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
// `fairbench verify` does. A program is started once for all the suites
// that run it (gatePlan): post.toml's targets are js.toml's, an A/A twin
// is its pair, and nest.toml's one tsc build serves its four programs.
func TestSiteSuitesPassTheGate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts every Go and JavaScript target")
	}
	t.Parallel()
	if _, err := os.Stat(filepath.Join(repoRoot, "site", "apps", "js", "node_modules")); err != nil {
		missing(t, "site/apps/js/node_modules", "npm ci --prefix site/apps/js")
	}
	var suites []*suite.Suite
	for _, path := range gatedSuites(t) {
		suites = append(suites, loadSuite(t, path))
	}
	for _, st := range gatePlan(t, suites) {
		t.Run(strings.TrimSuffix(filepath.Base(st.File), ".toml"), func(t *testing.T) {
			t.Parallel() // the Go builds while the JavaScript targets start
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			results, err := collect.Verify(ctx, st, collect.Options{BaseDir: repoRoot})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := len(results), len(st.Targets); got != want {
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
	var first *suite.Suite
	var rest []*suite.Suite
	for _, path := range gatedSuites(t) {
		st, err := suite.LoadSuite(path)
		if err != nil {
			t.Fatal(err)
		}
		switch base := filepath.Base(path); {
		case first == nil && (base == "go.toml" || base == "js.toml"):
			first = st
		default:
			rest = append(rest, st)
		}
	}
	byName := map[string]suite.Scenario{}
	for _, sc := range first.Scenarios {
		byName[sc.Name] = sc
	}
	for _, st := range rest {
		base := filepath.Base(st.File)
		if (base == "go.toml" || base == "js.toml") && len(st.Scenarios) != len(first.Scenarios) {
			t.Errorf("%s has %d scenarios, %s %d: keep them the same (site/apps/README.md)", st.File, len(st.Scenarios), first.File, len(first.Scenarios))
		}
		for _, sc := range st.Scenarios {
			base := strings.TrimSuffix(sc.Name, "-pipelined")
			want, ok := byName[base]
			sc.Name = base
			if !ok || !reflect.DeepEqual(sc, want) {
				t.Errorf("%s: scenario %q differs from %s's: keep them the same (site/apps/README.md)", st.File, sc.Name, first.File)
			}
		}
	}
}

// TestSiteDatabaseSuitesShareTheirContract holds db.toml (Go) and
// js-db.toml (JavaScript) to one contract: the same PostgreSQL service with
// its seed and reset, and the same scenarios and variants, byte for byte.
func TestSiteDatabaseSuitesShareTheirContract(t *testing.T) {
	goDB := loadSuite(t, filepath.Join(repoRoot, "site", "suites", "db.toml"))
	jsDB := loadSuite(t, filepath.Join(repoRoot, "site", "suites", "js-db.toml"))
	if !reflect.DeepEqual(goDB.Services, jsDB.Services) {
		t.Errorf("the suites' [[service]] tables differ: keep them the same\n%+v\n%+v", goDB.Services, jsDB.Services)
	}
	if !reflect.DeepEqual(goDB.Scenarios, jsDB.Scenarios) {
		t.Errorf("the suites' scenarios differ: keep them the same (site/apps/README.md)")
	}
	for _, sc := range goDB.Scenarios {
		if len(sc.Reset) == 0 {
			t.Errorf("db.toml: scenario %s has no reset: every database scenario starts on the seeded table", sc.Name)
		}
	}
}

// TestSiteDatabaseSuitesPassTheGate starts PostgreSQL and gates two
// targets of each database suite in turn. Each gate inserts rows and
// expects the first to get id 10001, so the second target passes only if
// the suite's reset took the table back to its seed in between.
func TestSiteDatabaseSuitesPassTheGate(t *testing.T) {
	if testing.Short() {
		t.Skip("starts PostgreSQL, builds and starts database targets")
	}
	t.Parallel() // measures nothing: it waits on builds, starts and PostgreSQL
	for _, c := range []string{"initdb", "postgres", "pg_isready", "psql"} {
		if _, err := exec.LookPath(c); err != nil {
			missing(t, c, "apt-get install postgresql")
		}
	}
	for _, tc := range []struct {
		suite string
		only  []string
	}{
		{"db.toml", []string{"stdlib", "gin"}},
		{"js-db.toml", []string{"hono-pg-node", "hono-bunsql-bun"}},
	} {
		t.Run(strings.TrimSuffix(tc.suite, ".toml"), func(t *testing.T) {
			if _, err := os.Stat(filepath.Join(repoRoot, "site", "apps", "js", "node_modules")); err != nil && strings.HasPrefix(tc.suite, "js") {
				missing(t, "site/apps/js/node_modules", "npm ci --prefix site/apps/js")
			}
			st := loadSuite(t, filepath.Join(repoRoot, "site", "suites", tc.suite))
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			results, err := collect.Verify(ctx, st, collect.Options{BaseDir: repoRoot, Only: tc.only})
			if err != nil {
				t.Fatal(err)
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

// TestSiteSuitesNamePackagesTheyUse checks that every package a published
// suite's target names is there to be read when it is collected: a
// package.json under the target dir's node_modules for JavaScript, a
// module of the target's go.mod for Go (go list -m).
func TestSiteSuitesNamePackagesTheyUse(t *testing.T) {
	if _, err := os.Stat(filepath.Join(repoRoot, "site", "apps", "js", "node_modules")); err != nil {
		missing(t, "site/apps/js/node_modules", "npm ci --prefix site/apps/js")
	}
	for _, path := range siteSuites(t) {
		st, err := suite.LoadSuite(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, target := range st.Targets {
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
