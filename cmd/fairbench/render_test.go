package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRender builds the render package's test site through the CLI and
// writes its table into a README.
func TestRender(t *testing.T) {
	site := filepath.Join("..", "..", "render", "testdata", "site")
	out := filepath.Join(t.TempDir(), "public")
	readme := filepath.Join(t.TempDir(), "README.md")
	os.WriteFile(readme, []byte("# x\n<!-- fairbench:start -->\n<!-- fairbench:end -->\n"), 0o644)
	stdout, stderr, code := runCLI(t, "render", "-site", site, "-out", out, "-theme", "mono", "-readme", readme)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if got := strings.TrimSpace(stdout); got != filepath.Join(out, "index.html") {
		t.Errorf("printed %q, want the index path", got)
	}
	for _, want := range []string{"render: read 1 runs", "dump pages", "render: done in"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	for _, f := range []string{"index.html", "scenario/ping.html", "target/gin.html", "results.md", "results.csv", "results.json", "soft.html", "methodology.html", "raw/20261129T192304Z-vm/run.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("the site lacks %s", f)
		}
	}
	b, _ := os.ReadFile(readme)
	if !strings.Contains(string(b), "| Framework | Runtime | Average") {
		t.Errorf("README.md did not get the table:\n%s", b)
	}
}

func TestRenderErrors(t *testing.T) {
	bad := t.TempDir()
	os.WriteFile(filepath.Join(bad, "site.toml"), []byte("title = \"x\"\n[[card]]\nsubjekt = \"a\"\n"), 0o644)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"render"}, 2, "give at least one PATH, or -site DIR"},
		{[]string{"render", "-site", bad}, 2, filepath.Join(bad, "site.toml") + `:3: unknown key "card.subjekt"`},
		{[]string{"render", "-theme", "nope", "-out", t.TempDir(), filepath.Join("..", "..", "render", "testdata", "runs")}, 2, `theme "nope": no such theme`},
	} {
		_, stderr, code := runCLI(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
}
