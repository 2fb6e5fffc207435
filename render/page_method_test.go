package render

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse"
)

// sshRun copies the fixed run and rewrites its run.json as a merged run of
// two shards over two SSH hosts: db1 served every target, lg1 and lg2 ran
// the load, shard 1/2 measuring stdlib and chi, shard 2/2 gin.
func sshRun(t *testing.T) string {
	t.Helper()
	set, _ := fixture(t)
	dir := filepath.Join(t.TempDir(), filepath.Base(set.Runs[0].Path))
	if err := os.CopyFS(dir, os.DirFS(set.Runs[0].Path)); err != nil {
		t.Fatal(err)
	}
	rewriteRunJSON(t, dir, func(run map[string]any) {
		host := func(name, cpu, kernel string, cores int, tool, version string) map[string]any {
			return map[string]any{
				"name": name, "destination": "bench@" + name + ".lan:2222",
				"facts": map[string]any{"hostname": name, "cpu_model": cpu, "cores": cores, "threads": 2 * cores, "memory_bytes": 64 << 30, "kernel": kernel, "os": "Debian 12", "arch": "amd64"},
				"tools": map[string]any{tool: map[string]any{"version": version, "asked": []string{tool, "--version"}}},
			}
		}
		db1 := host("db1", "AMD EPYC 9454P", "6.1.0-28-amd64", 48, "go", "go version go1.26.8 linux/amd64")
		db1["roles"] = []string{"server"}
		lg1 := host("lg1", "Intel Xeon E-2388G", "6.12.9", 8, "bombardier", "v1.2.6")
		lg1["roles"] = []string{"client"}
		lg2 := host("lg2", "Intel Xeon E-2388G", "6.12.9", 8, "bombardier", "v1.2.6")
		lg2["roles"] = []string{"client"}
		run["hosts"] = []any{db1, lg1, lg2}
		run["merged"] = []any{
			map[string]any{"id": "20261129T192304Z-ctl1", "shard": "1/2", "start": "2026-11-29T19:23:04Z", "end": "2026-11-29T19:24:10Z", "host": map[string]any{"hostname": "ctl1"}, "status": "complete"},
			map[string]any{"id": "20261129T192500Z-ctl2", "shard": "2/2", "start": "2026-11-29T19:25:00Z", "end": "2026-11-29T19:25:41Z", "host": map[string]any{"hostname": "ctl2"}, "status": "complete"},
		}
		for _, v := range run["measurements"].([]any) {
			mr := v.(map[string]any)
			mr["server_host"], mr["client_host"], mr["shard"] = "db1", "lg1", "1/2"
			if mr["target"] == "gin" {
				mr["client_host"], mr["shard"] = "lg2", "2/2"
			}
		}
	})
	return dir
}

// rewriteRunJSON lets edit change the run dir's run.json as a generic
// JSON object and writes it back.
func rewriteRunJSON(t *testing.T, dir string, edit func(run map[string]any)) {
	t.Helper()
	name := filepath.Join(dir, "run.json")
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var run map[string]any
	if err := json.Unmarshal(b, &run); err != nil {
		t.Fatal(err)
	}
	edit(run)
	if b, err = json.MarshalIndent(run, "", "  "); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMethodologyTopology checks that the methodology page names the
// server and client hosts, what each said of itself, the tools asked on
// each, and which shard ran where and when.
func TestMethodologyTopology(t *testing.T) {
	set, errs := parse.ReadAll([]string{sshRun(t)})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	out := build(t, set, nil)
	b, err := os.ReadFile(filepath.Join(out, "methodology.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, want := range []string{
		`<h2 id="topology">Topology</h2>`,
		"The servers ran on db1; the load generator on lg1, lg2.",
		"<h3>db1 (server)</h3>", "<h3>lg1 (client)</h3>", "<h3>lg2 (client)</h3>",
		"ssh bench@db1.lan:2222",
		"AMD EPYC 9454P", "48 / 96", "<td>" + Bytes(64<<30) + "</td>", "6.1.0-28-amd64",
		"Intel Xeon E-2388G", "6.12.9",
		`title="asked on lg1 with: bombardier --version">v1.2.6`,
		`title="asked on db1 with: go --version">go version go1.26.8 linux/amd64`,
		"<td>1/2</td><td>20261129T192304Z-ctl1</td><td>ctl1</td><td>db1</td><td>lg1</td><td>2026-11-29T19:23:04Z</td><td>1m6s</td><td>complete</td>",
		"<td>2/2</td><td>20261129T192500Z-ctl2</td><td>ctl2</td><td>db1</td><td>lg2</td><td>2026-11-29T19:25:00Z</td><td>41s</td><td>complete</td>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("methodology.html lacks %q", want)
		}
	}
	if strings.Contains(page, "shared one machine") {
		t.Error("methodology.html says one machine for a run over SSH hosts")
	}
}

// TestMethodologyOneMachine checks that a run without SSH hosts says its
// servers and load generator shared one machine, and lists no hosts.
func TestMethodologyOneMachine(t *testing.T) {
	set, site := fixture(t)
	m := newModel(fromSet(set, Options{Site: site}), site)
	p, err := m.methodologyPage()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Topology, "shared one machine") || len(p.Hosts) != 0 || len(p.Shards) != 0 {
		t.Errorf("topology %q, %d hosts, %d shards; want one machine and none", p.Topology, len(p.Hosts), len(p.Shards))
	}
}

// TestMethodologyLinksSuites: the committed site's methodology links each
// suite's newest run's suite file (published in raw/, the run on show)
// instead of pasting it, stays under 5,000 words, and its Reproduce block
// collects every suite the site has a run of.
func TestMethodologyLinksSuites(t *testing.T) {
	page := projectPage(t, "methodology.html")
	if strings.Contains(page, "[[target]]") || strings.Contains(page, "[[scenario]]") {
		t.Error("methodology.html pastes a suite file")
	}
	if n := len(strings.Fields(visibleText(page[strings.Index(page, "<main"):]))); n > 5000 {
		t.Errorf("methodology.html has %d words, want at most 5,000", n)
	}
	runs, err := filepath.Glob(filepath.Join("..", "site", "results", "*", "run.json"))
	if err != nil || len(runs) == 0 {
		t.Fatalf("no committed runs: %v", err)
	}
	newest := map[string]string{} // suite → its newest run; ids sort by time
	for _, rj := range runs {
		run, err := parse.ReadRun(filepath.Dir(rj))
		if err != nil {
			t.Fatal(err)
		}
		newest[run.Suite] = max(newest[run.Suite], run.ID)
		if cmd := "collect -suite " + suiteBase(run.SuiteFile); !strings.Contains(page, cmd) {
			t.Errorf("methodology.html's Reproduce lacks %q (suite %s)", cmd, run.Suite)
		}
	}
	for _, id := range newest {
		if href := "raw/" + id + "/suite.toml"; !strings.Contains(page, `href="`+href+`"`) {
			t.Errorf("methodology.html does not link %s", href)
		}
	}
}
