package collect

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/rundir"
)

// TestRunJSONHasNoMachinePaths: a real collect (a Go server built through
// the build cache into {bin}, its packages read with go version -m, a
// second target that fails the gate, bombardier as the load tool, the
// suite in a temporary folder) writes into run.json no absolute path of
// the machine: not its home folder, not its temporary folder, not the
// checkout. What they were is still there, in a form LocalPath reads.
func TestRunJSONHasNoMachinePaths(t *testing.T) {
	t.Parallel()
	src := hiSource(t)
	work := t.TempDir()
	suiteFile := filepath.Join(work, "suite.toml")
	text := `name = "paths"

[load]
tool = "bombardier"
connections = 2
duration = "1s"
warmup = "0s"
repetitions = 1
rate = 500

` + goTarget(src, "hi", "Hi", `packages = ["hi", "example.com/absent"]`) + goTarget(src, "bye", "Bye", "") + `
[[scenario]]
name = "ping"
request = { method = "GET", path = "/" }
expect = { status = 200, body = "Hi" }
`
	if err := os.WriteFile(suiteFile, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := suite.LoadSuite(suiteFile)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir, err := Run(ctx, s, Options{Out: filepath.Join(work, "runs"), buildCache: t.TempDir()})
	if dir == nil {
		t.Fatalf("no run dir: %v", err)
	}
	b, rerr := os.ReadFile(filepath.Join(dir.Path, "run.json"))
	if rerr != nil {
		t.Fatal(rerr)
	}
	text = string(b)
	home, _ := os.UserHomeDir()
	checkout, _ := filepath.Abs("..")
	for _, place := range []string{home, os.TempDir(), checkout} {
		re := regexp.MustCompile(`(^|[\s="':(])` + regexp.QuoteMeta(place) + `(/|"|\s)`)
		if loc := re.FindStringIndex(text); loc != nil {
			t.Errorf("run.json holds %s: …%s…", place, text[max(0, loc[0]-80):min(len(text), loc[1]+80)])
		}
	}
	m := dir.Manifest()
	if got := rundir.LocalPath(m.SuiteFile, ""); got != suiteFile {
		t.Errorf("suite_file %q reads back as %q, want %s", m.SuiteFile, got, suiteFile)
	}
	// What the paths were is kept: the build folder, the run dir in the
	// gate's error, the package source, by their placeholders.
	for _, want := range []string{`"suite_file": "{tmp}/`, `go version -m {build}/`, `see conformance/ in {tmp}/`} {
		if !strings.Contains(text, want) {
			t.Errorf("run.json does not say %q", want)
		}
	}
}

// goTarget is a suite's target that builds the hiserver source in src
// into {bin} and answers body.
func goTarget(src, name, body, extra string) string {
	return "[[target]]\nname = \"" + name + "\"\nruntime = \"go\"\ndir = \"" + src + "\"\n" +
		"build = [\"go\", \"build\", \"-o\", \"{bin}/server\", \".\"]\nartifact = \"{bin}/server\"\nstart = [\"{bin}/server\"]\n" +
		"env = { BODY = \"" + body + "\" }\n" + extra + "\n\n"
}
