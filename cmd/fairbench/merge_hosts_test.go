package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/rundir"
	"github.com/fairbench/fairbench/parse/runjson"
)

// hostsSuite is cut into two shards: a and a2 in 1/2, b and c in 2/2.
const hostsSuite = `name = "hosts"
[[target]]
name = "a"
[[target]]
name = "b"
[[target]]
name = "a2"
[[target]]
name = "c"
`

// realRun is a real run dir whose ping scenario has eight repetitions of
// each target, measured by bombardier on one machine.
const realRun = "../../parse/testdata/runs/20261201T155258Z-vm"

// realRunSpec is a run dir whose scenario ping is made of the real run's
// repetitions of one scenario.
type realRunSpec struct {
	id, shard, host string
	suite           string // suite.toml
	// from is the real run's scenario whose repetitions become ping's
	// ("" for ping itself).
	from string
	// targets are each target's name and the real run's target whose ping
	// repetitions (warm-ups included) it takes.
	targets [][2]string
}

// writeRealRun writes the run dir of spec under out and returns its path.
func writeRealRun(t *testing.T, out string, spec realRunSpec) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(realRun, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	src, err := runjson.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	st := &suite.Suite{Source: []byte(spec.suite)}
	d, err := rundir.Create(out, runjson.Manifest{
		Schema: runjson.SchemaVersion, ID: spec.id, Suite: "hosts", SuiteSHA256: st.SHA256(), Status: runjson.StatusComplete,
		Start: src.Start, End: src.End, Facts: runjson.Facts{Hostname: spec.host, CPUModel: "Ryzen " + spec.host, Threads: 8},
		Tools: src.Tools, Shard: spec.shard,
	}, st.Source)
	if err != nil {
		t.Fatal(err)
	}
	for _, tg := range spec.targets {
		name, from := tg[0], tg[1]
		for _, mr := range src.Measurements {
			if mr.Target != from || mr.Scenario != cmp.Or(spec.from, "ping") || mr.Phase != "" {
				continue
			}
			dump, err := os.ReadFile(filepath.Join(realRun, mr.Dump))
			if err != nil {
				t.Fatal(err)
			}
			mr.Target, mr.Scenario, mr.Dump = name, "ping", fmt.Sprintf("dumps/%s/ping/%s", name, filepath.Base(mr.Dump))
			if mr.SHA256, err = d.WriteDump(mr.Dump, dump); err != nil {
				t.Fatal(err)
			}
			mr.Interference = nil
			if err := d.Update(func(m *runjson.Manifest) { m.Measurements = append(m.Measurements, mr) }); err != nil {
				t.Fatal(err)
			}
		}
		err := d.Update(func(m *runjson.Manifest) {
			m.Targets = append(m.Targets, runjson.Target{Name: name, Conformance: "pass"})
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return d.Path
}

// mergedOnTwoHosts merges shard 1/2 (a and a2, about 38k req/s, on
// bench1) and shard 2/2 (b and c, about 22k and 26k, on bench2).
func mergedOnTwoHosts(t *testing.T) string {
	t.Helper()
	s1 := writeRealRun(t, t.TempDir(), realRunSpec{id: "run-bench1", shard: "1/2", host: "bench1", suite: hostsSuite,
		targets: [][2]string{{"a", "nest-fastify-node"}, {"a2", "nest-fastify-bun"}}})
	s2 := writeRealRun(t, t.TempDir(), realRunSpec{id: "run-bench2", shard: "2/2", host: "bench2", suite: hostsSuite,
		targets: [][2]string{{"b", "nest-express-node"}, {"c", "nest-express-bun"}}})
	out := t.TempDir()
	stdout, stderr, code := runCLI(t, "merge", "-out", out, s1, s2)
	if code != 0 {
		t.Fatalf("merge exit %d\n%s", code, stderr)
	}
	return strings.TrimSpace(stdout)
}

// TestMergedHostsNotCompared renders and audits a run merged from shards
// measured on two machines: no verdict may cross the machines, each
// machine's targets are still judged among themselves, and the index, the
// scenario page and the audit say the targets were measured on different
// hosts.
func TestMergedHostsNotCompared(t *testing.T) {
	merged := mergedOnTwoHosts(t)
	site := filepath.Join(t.TempDir(), "site")
	if _, stderr, code := runCLI(t, "render", "-out", site, merged); code != 0 {
		t.Fatalf("render exit %d\n%s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(site, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var results struct {
		Verdicts []struct{ A, B, Verdict, Reason string }
	}
	if err := json.Unmarshal(b, &results); err != nil {
		t.Fatal(err)
	}
	host := map[string]string{"a": "bench1", "a2": "bench1", "b": "bench2", "c": "bench2"}
	judged := map[string]int{}
	for _, v := range results.Verdicts {
		if host[v.A] != host[v.B] {
			t.Errorf("results.json: %s (on %s) and %s (on %s) judged in one family: %s (%s)", v.A, host[v.A], v.B, host[v.B], v.Verdict, v.Reason)
			continue
		}
		judged[host[v.A]]++
	}
	if judged["bench1"] != 1 || judged["bench2"] != 1 {
		t.Errorf("results.json: %d verdicts among bench1's targets, %d among bench2's; want a ~ a2 and b against c", judged["bench1"], judged["bench2"])
	}
	pages := map[string][]string{
		"index.html":         {"This run was measured on 2 server→client host pairs (bench1→bench1 and bench2→bench2)", "title=\"run 20261201T155258Z-merged\">collected ", "</small> <small class=\"muted\">on bench2→bench2"},
		"scenario/ping.html": {"measured on different server→client host pairs: a and a2 on bench1→bench1; c and b on bench2→bench2", "no verdict crosses machines", "measured on bench1→bench1</h3>"},
	}
	for page, wants := range pages {
		b, err := os.ReadFile(filepath.Join(site, page))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range wants {
			if !strings.Contains(string(b), want) {
				t.Errorf("%s does not say %q", page, want)
			}
		}
	}
	report, stderr, code := runCLI(t, "audit", merged)
	if code == 2 {
		t.Fatalf("audit exit 2\n%s", stderr)
	}
	if want := "they were measured on different hosts, and a ratio between them compares machines as well as frameworks, so each host pair is ranked and judged only within itself"; !strings.Contains(report, want) {
		t.Errorf("audit does not say %q:\n%s", want, report)
	}
}
