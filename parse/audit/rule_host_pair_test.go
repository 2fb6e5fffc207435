package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse"
)

// hostRep is one measurement of a run dir and where it ran.
type hostRep struct {
	target, scenario string
	rep              int
	server, client   string // "" leaves server_host or client_host out of run.json
	shard            string
}

// writeHostRun writes a run dir on host hostname whose measurements are
// reps, each dump a real bombardier dump (taken in turn from the four of
// gin/ping in averagedRun), listed with its sha256.
func writeHostRun(t *testing.T, hostname string, reps []hostRep) string {
	t.Helper()
	dir := t.TempDir()
	var measurements []any
	targets := map[string]bool{}
	for i, r := range reps {
		src := fmt.Sprintf("%s/dumps/gin/ping/%d.txt", averagedRun, i%4+1)
		dump, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		rel := fmt.Sprintf("dumps/%s/%s/%d.txt", r.target, r.scenario, r.rep)
		name := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, dump, 0o644); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(dump)
		m := map[string]any{"target": r.target, "scenario": r.scenario, "rep": r.rep, "order": i + 1, "tool": "bombardier",
			"dump": rel, "sha256": hex.EncodeToString(sum[:])}
		if r.server != "" {
			m["server_host"] = r.server
		}
		if r.client != "" {
			m["client_host"] = r.client
		}
		if r.shard != "" {
			m["shard"] = r.shard
		}
		measurements = append(measurements, m)
		targets[r.target] = true
	}
	var ts []any
	for _, name := range slices.Sorted(maps.Keys(targets)) {
		ts = append(ts, map[string]any{"name": name, "runtime": "go"})
	}
	run := map[string]any{"schema": 1, "id": "r1", "status": "complete", "host": map[string]any{"hostname": hostname},
		"targets": ts, "measurements": measurements}
	b, err := json.Marshal(run)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "run.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// on lists reps 1..n of target in scenario on server→client.
func on(target, scenario string, n int, server, client, shard string) []hostRep {
	var reps []hostRep
	for rep := 1; rep <= n; rep++ {
		reps = append(reps, hostRep{target, scenario, rep, server, client, shard})
	}
	return reps
}

func hostPairAudit(t *testing.T, dir string) []Finding {
	t.Helper()
	set, errs := parse.ReadAll([]string{dir})
	if len(errs) > 0 {
		t.Fatalf("reading %s: %v", dir, errs)
	}
	var fs []Finding
	for _, f := range Audit(set, AuditOptions{}) {
		if f.Rule == RuleHostPair {
			fs = append(fs, f)
		}
	}
	return fs
}

func TestHostPair(t *testing.T) {
	join := func(parts ...[]hostRep) []hostRep {
		var all []hostRep
		for _, p := range parts {
			all = append(all, p...)
		}
		return all
	}
	type want struct{ target, scenario, message string }
	tests := []struct {
		name     string
		hostname string
		reps     []hostRep
		want     []want
	}{
		{"merged shards", "srv1", join( // json ran on one pair: no finding there
			on("gin", "ping", 3, "srv1", "cli1", "1/2"), on("chi", "ping", 3, "srv1", "cli1", "1/2"),
			on("echo", "ping", 3, "srv2", "cli2", "2/2"), on("fiber", "ping", 3, "srv2", "cli2", "2/2"),
			on("gin", "json", 3, "srv1", "cli1", "1/2"), on("chi", "json", 3, "srv1", "cli1", "1/2")),
			[]want{{"", "ping", "ping: chi, gin ran on srv1→cli1 (shard 1/2); echo, fiber on srv2→cli2 (shard 2/2): they were measured on different hosts, and a ratio between them compares machines as well as frameworks, so each host pair is ranked and judged only within itself (no verdict crosses machines); "}}},
		{"one target split", "srv1", join(
			on("gin", "ping", 2, "srv1", "cli1", ""), []hostRep{{"gin", "ping", 3, "srv2", "cli1", ""}},
			on("chi", "ping", 3, "srv1", "cli1", "")),
			[]want{
				{"", "ping", "ping: chi, gin ran on srv1→cli1; gin on srv2→cli1: they were measured on different hosts"},
				{"gin", "ping", "the repetitions ran on 2 host pairs: reps 1, 2 on srv1→cli1; rep 3 on srv2→cli1: its median and spread mix machines, so it is judged against no other target; "},
			}},
		{"split target alone", "srv1", join(on("gin", "ping", 2, "srv1", "cli1", ""), on("gin", "ping", 4, "srv1", "cli2", "")[2:]),
			[]want{{"gin", "ping", "the repetitions ran on 2 host pairs: reps 1, 2 on srv1→cli1; reps 3, 4 on srv1→cli2: "}}},
		{"local run", "vm", join(on("gin", "ping", 3, "", "", ""), on("chi", "ping", 3, "", "", "")), nil},
		{"one remote pair", "laptop", join(on("gin", "ping", 3, "srv1", "cli1", ""), on("chi", "ping", 3, "srv1", "cli1", "")), nil},
		{"local name spelled out", "vm", join(on("gin", "ping", 3, "vm", "vm", ""), on("chi", "ping", 3, "", "", "")), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := hostPairAudit(t, writeHostRun(t, tt.hostname, tt.reps))
			if len(fs) != len(tt.want) {
				t.Fatalf("findings:\n%v\nwant %d", fs, len(tt.want))
			}
			for i, w := range tt.want {
				f := fs[i]
				if f.Level != LevelWarning || f.Run != "r1" || f.Target != w.target || f.Scenario != w.scenario || !strings.Contains(f.Message, w.message) {
					t.Errorf("finding %d:\n%s\nwant a warning at r1/%s/%s saying %q", i, f, w.target, w.scenario, w.message)
				}
				if len(f.Dumps) == 0 {
					t.Errorf("finding %d has no dumps", i)
				}
			}
		})
	}
}
