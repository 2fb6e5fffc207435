package collect_test

import (
	"bytes"
	"cmp"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/audit"
	"github.com/fairbench/fairbench/parse/rundir"
	"github.com/fairbench/fairbench/parse/runjson"
)

// TestMergeShards collects shards 1/2 and 2/2 of a three-target suite with
// the real bombardier against real servers, merges them, and checks that
// the merged run holds every dump byte for byte under its sha256, that each
// measurement names its shard and hosts, and that parse and audit read it.
func TestMergeShards(t *testing.T) {
	if testing.Short() {
		t.Skip("loads servers")
	}
	s := parseShardSuite(t, buildHi(t))
	work := t.TempDir()
	runs := filepath.Join(work, "runs")
	var shards []*collect.RunDir
	for i := 1; i <= 2; i++ {
		d, err := runFault(t, s, collect.Options{Out: runs, Shard: collect.Shard{I: i, N: 2}})
		if err != nil {
			t.Fatalf("shard %d/2: %v", i, err)
		}
		shards = append(shards, d)
	}
	out := filepath.Join(work, "merged")
	merged, err := collect.Merge(out, []string{shards[1].Path, shards[0].Path}) // any order
	if err != nil {
		t.Fatal(err)
	}
	m := checkRunDir(t, merged.Path)
	m1, m2 := shards[0].Manifest(), shards[1].Manifest()

	if m.Status != runjson.StatusComplete || m.Shard != "" || m.SuiteSHA256 != s.SHA256() {
		t.Errorf("status %q, shard %q, suite %.12s; want complete, no shard, %.12s", m.Status, m.Shard, m.SuiteSHA256, s.SHA256())
	}
	if want := m1.Start.Format("20060102T150405Z") + "-merged"; m.ID != want || filepath.Base(merged.Path) != want {
		t.Errorf("id %q at %s, want %q", m.ID, merged.Path, want)
	}
	if !m.Start.Equal(m1.Start) || m.End == nil || !m.End.Equal(*m2.End) {
		t.Errorf("start %v end %v, want the first shard's start %v and the last's end %v", m.Start, m.End, m1.Start, m2.End)
	}
	if len(m.Merged) != 2 || m.Merged[0].ID != m1.ID || m.Merged[0].Shard != "1/2" || m.Merged[1].ID != m2.ID || m.Merged[1].Shard != "2/2" {
		t.Errorf("merged = %+v, want %s as 1/2 and %s as 2/2", m.Merged, m1.ID, m2.ID)
	}
	var names []string
	for _, tr := range m.Targets {
		names = append(names, tr.Name)
	}
	if !slices.Equal(names, []string{"a", "b", "c"}) {
		t.Errorf("targets %v, want a, b, c in suite order", names)
	}
	host := m1.Facts.Hostname
	if len(m.Hosts) != 1 || m.Hosts[0].Name != host || !slices.Equal(m.Hosts[0].Roles, []string{"server", "client"}) || m.Hosts[0].Tools["bombardier"].Version == "" {
		t.Errorf("hosts = %+v, want one, %s, server and client, with its tools", m.Hosts, host)
	}
	if m.Tools["bombardier"].Version != m1.Tools["bombardier"].Version {
		t.Errorf("tools = %v, want the shards' bombardier", m.Tools)
	}

	source := map[string]string{"1/2": shards[0].Path, "2/2": shards[1].Path}
	wantShard := map[string]string{"a": "1/2", "b": "2/2", "c": "1/2"}
	lastOf1 := 0
	for _, mr := range m.Measurements {
		if mr.Shard != wantShard[mr.Target] {
			t.Errorf("%s: shard %q, want %q", mr.Dump, mr.Shard, wantShard[mr.Target])
		}
		if mr.ServerHost != host || mr.ClientHost != host {
			t.Errorf("%s: hosts %q, %q, want %q for both", mr.Dump, mr.ServerHost, mr.ClientHost, host)
		}
		for _, rel := range []string{mr.Dump, mr.Stderr} {
			if rel != "" {
				sameFile(t, filepath.Join(source[mr.Shard], rel), filepath.Join(merged.Path, rel))
			}
		}
		if mr.Shard == "1/2" {
			lastOf1 = max(lastOf1, mr.Order)
		} else if mr.Order <= lastOf1 {
			t.Errorf("%s: order %d, want it after shard 1/2's last (%d)", mr.Dump, mr.Order, lastOf1)
		}
	}
	if len(m.Measurements) != 3 {
		t.Errorf("%d measurements, want 3", len(m.Measurements))
	}
	for _, tr := range m.Targets {
		if tr.Host != host {
			t.Errorf("target %s: host %q, want %q", tr.Name, tr.Host, host)
		}
		sameFile(t, filepath.Join(source[wantShard[tr.Name]], tr.Transcript), filepath.Join(merged.Path, tr.Transcript))
	}
	sameFile(t, filepath.Join(shards[0].Path, "suite.toml"), filepath.Join(merged.Path, "suite.toml"))

	run, err := parse.ReadRun(merged.Path)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Merged) != 2 || len(run.Hosts) != 1 {
		t.Errorf("parse.ReadRun: merged %d, hosts %d; want 2 and 1", len(run.Merged), len(run.Hosts))
	}
	set, errs := parse.ReadAll([]string{merged.Path})
	if len(errs) > 0 {
		t.Errorf("parse.ReadAll: %v", errs)
	}
	if len(set.Measurements) != 3 {
		t.Errorf("parse read %d measurements, want 3", len(set.Measurements))
	}
	for _, pm := range set.Measurements {
		if pm.Shard != wantShard[pm.Target] || pm.ServerHost != host || pm.ClientHost != host || pm.RPS <= 0 {
			t.Errorf("parsed %s: shard %q, hosts %q %q, rps %v", pm.Target, pm.Shard, pm.ServerHost, pm.ClientHost, pm.RPS)
		}
	}
	for _, f := range audit.Audit(set, audit.AuditOptions{}) {
		switch f.Rule {
		case audit.RuleDumpMissing, audit.RuleDumpExtra, audit.RuleDumpChanged, audit.RuleDumpOrphan, audit.RuleRunIncomplete, audit.RuleReadWarning:
			t.Errorf("audit of the merged run: %s", f)
		}
	}

	// The same shards merged again give the same run.json, under a new name.
	again, err := collect.Merge(out, []string{shards[0].Path, shards[1].Path})
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(again.Path) != m.ID+"-2" {
		t.Errorf("second merge at %s, want %s-2", again.Path, m.ID)
	}
	first, _ := os.ReadFile(filepath.Join(merged.Path, "run.json"))
	second, _ := os.ReadFile(filepath.Join(again.Path, "run.json"))
	if !bytes.Equal(bytes.Replace(first, []byte(`"`+m.ID+`"`), []byte(`"`+m.ID+`-2"`), 1), second) {
		t.Errorf("merging the same shards twice gave different run.json:\n%s\n%s", first, second)
	}

	// A dump changed after its run finished stops the merge.
	tampered := filepath.Join(shards[1].Path, m2.Measurements[0].Dump)
	if err := os.WriteFile(tampered, []byte("Bombarding nothing\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(work, "fresh")
	_, err = collect.Merge(fresh, []string{shards[0].Path, shards[1].Path})
	if err == nil || !strings.Contains(err.Error(), "the dump changed after it was recorded") || !strings.Contains(err.Error(), m2.Measurements[0].Dump) {
		t.Errorf("merge with a tampered dump: err = %v", err)
	}
	leftNothing(t, fresh)
}

// sameFile fails the test unless the files at a and b hold the same bytes.
func sameFile(t *testing.T, a, b string) {
	t.Helper()
	x, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	y, err := os.ReadFile(b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(x, y) {
		t.Errorf("%s differs from %s", b, a)
	}
}

// leftNothing fails the test when out holds anything.
func leftNothing(t *testing.T, out string) {
	t.Helper()
	entries, err := os.ReadDir(out)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("%s left in %s after a refused merge", e.Name(), out)
	}
}

// fakeShard is a shard run dir written with the run-dir writer but without
// running anything: what merge checks, not what collect measures.
type fakeShard struct {
	shard   string
	suite   string // suite.toml; fakeSuite by default
	targets []string
	status  string // complete by default
	host    runjson.Facts
	tools   map[string]runjson.Version
	start   time.Time
}

const fakeSuite = `name = "fake"
[[target]]
name = "a"
[[target]]
name = "b"
[[target]]
name = "c"
`

// write makes the run dir: per target a transcript, one measurement and
// its dump.
func (f fakeShard) write(t *testing.T) string {
	t.Helper()
	st := []byte(cmp.Or(f.suite, fakeSuite))
	probe := &suite.Suite{Source: st}
	start := f.start
	if start.IsZero() {
		start = time.Date(2026, 11, 29, 18, 50, 0, 0, time.UTC)
	}
	end := start.Add(time.Minute)
	host := f.host
	if host.Hostname == "" {
		host = runjson.Facts{Hostname: "box", CPUModel: "Ryzen", Threads: 8, Kernel: "6.1"}
	}
	tools := f.tools
	if tools == nil {
		tools = map[string]runjson.Version{"bombardier": {Path: "/bin/bombardier", Version: "v1.2.6"}}
	}
	d, err := rundir.Create(t.TempDir(), runjson.Manifest{
		Schema: runjson.SchemaVersion, ID: "run", Suite: "fake", SuiteSHA256: probe.SHA256(),
		Status: cmp.Or(f.status, runjson.StatusComplete), Start: start, End: &end, Facts: host, Tools: tools, Shard: f.shard,
	}, st)
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range f.targets {
		transcript := "conformance/" + name + ".txt"
		if err := d.WriteFile(transcript, []byte("GET / → 200 Hi\nPASS\n")); err != nil {
			t.Fatal(err)
		}
		dump := "dumps/" + name + "/ping/1.txt"
		sum, err := d.WriteDump(dump, []byte("dump of "+name+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		err = d.Update(func(m *runjson.Manifest) {
			m.Targets = append(m.Targets, runjson.Target{Name: name, Conformance: "pass", Transcript: transcript})
			m.Measurements = append(m.Measurements, runjson.Measurement{
				Target: name, Scenario: "ping", Rep: 1, Order: i + 1, Tool: "bombardier", ToolVersion: tools["bombardier"].Version,
				Start: start, End: start.Add(time.Second), Dump: dump, SHA256: sum,
			})
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return d.Path
}

// TestMergeRefuses checks that each bad set of shards is a clear error and
// leaves nothing behind.
func TestMergeRefuses(t *testing.T) {
	s1 := fakeShard{shard: "1/2", targets: []string{"a", "c"}}
	s2 := fakeShard{shard: "2/2", targets: []string{"b"}}
	tests := []struct {
		name   string
		shards []fakeShard
		want   []string
	}{
		{"different suites", []fakeShard{s1, {shard: "2/2", targets: []string{"b"}, suite: fakeSuite + "# edited\n"}}, []string{"were collected from different suites", "merge only shards of one suite"}},
		{"a shard twice", []fakeShard{s1, s2, s1}, []string{"shard 1/2 given twice"}},
		{"a missing shard", []fakeShard{s1}, []string{"shard 2/2 is missing", "-partial"}},
		{"not a shard", []fakeShard{s1, {targets: []string{"b"}}}, []string{"not a shard (run.json has no shard)", "collect -shard I/N"}},
		{"another N", []fakeShard{s1, {shard: "2/3", targets: []string{"b"}}}, []string{"is shard 1/2 but", "is shard 2/3"}},
		{"an unfinished shard", []fakeShard{s1, {shard: "2/2", targets: []string{"b"}, status: runjson.StatusInterrupted}}, []string{"shard 2/2", "is interrupted: finish it with fairbench collect -resume"}},
		{"a target in two shards", []fakeShard{s1, {shard: "2/2", targets: []string{"b", "c"}}}, []string{"target c is in two shards"}},
		{"a target outside its share", []fakeShard{{shard: "1/2", targets: []string{"a"}}, {shard: "2/2", targets: []string{"b", "c"}}}, []string{"shard 2/2 holds target c, which is in shard 1/2's share"}},
		{"a share not all collected", []fakeShard{{shard: "1/2", targets: []string{"a"}}, s2}, []string{"shard 1/2", "has no record of target c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var dirs []string
			for _, f := range tt.shards {
				dirs = append(dirs, f.write(t))
			}
			out := filepath.Join(t.TempDir(), "merged")
			_, err := collect.Merge(out, dirs)
			if err == nil {
				t.Fatal("merge accepted the shards")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err = %v\nwant it to say %q", err, w)
				}
			}
			leftNothing(t, out)
		})
	}

	t.Run("a tampered dump", func(t *testing.T) {
		a, b := s1.write(t), s2.write(t)
		if err := os.WriteFile(filepath.Join(b, "dumps/b/ping/1.txt"), []byte("other bytes\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "merged")
		_, err := collect.Merge(out, []string{a, b})
		if err == nil || !strings.Contains(err.Error(), "dumps/b/ping/1.txt has sha256") || !strings.Contains(err.Error(), "the dump changed after it was recorded") {
			t.Errorf("err = %v, want a sha256 mismatch naming the dump", err)
		}
		leftNothing(t, out)
	})
	t.Run("a transcript missing", func(t *testing.T) {
		a, b := s1.write(t), s2.write(t)
		if err := os.Remove(filepath.Join(b, "conformance/b.txt")); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "merged")
		_, err := collect.Merge(out, []string{a, b})
		if err == nil || !strings.Contains(err.Error(), "conformance/b.txt is listed in run.json but cannot be read") {
			t.Errorf("err = %v, want the missing transcript named", err)
		}
		leftNothing(t, out)
	})
}

// TestMergePartial merges one of two shards with Partial: the run is failed
// and says what is missing.
func TestMergePartial(t *testing.T) {
	a := fakeShard{shard: "1/2", targets: []string{"a", "c"}}.write(t)
	d, err := collect.MergeWith(t.TempDir(), []string{a}, collect.MergeOptions{Partial: true})
	if err != nil {
		t.Fatal(err)
	}
	m := d.Manifest()
	if m.Status != runjson.StatusFailed || len(m.Measurements) != 2 {
		t.Errorf("status %q with %d measurements, want failed with 2", m.Status, len(m.Measurements))
	}
	if !slices.Contains(m.Errors, "partial merge: shard 2/2 is missing") {
		t.Errorf("errors %q do not say shard 2/2 is missing", m.Errors)
	}
}

// TestMergeHostsAndTools checks host naming and tool disagreements: two
// machines of one name become box and box#2, the same machine twice is one
// host, and a tool in two versions is noted.
func TestMergeHostsAndTools(t *testing.T) {
	box := runjson.Facts{Hostname: "box", CPUModel: "Ryzen", Threads: 8, Kernel: "6.1", LoadAvg: []float64{0.1, 0, 0}}
	sameBox := box
	sameBox.LoadAvg = []float64{2, 1, 0.5}
	otherBox := box
	otherBox.CPUModel = "Xeon"
	old := map[string]runjson.Version{"bombardier": {Version: "v1.2.5"}, "go": {Version: "go1.26.8"}}

	t.Run("two machines of one name", func(t *testing.T) {
		d, err := collect.Merge(t.TempDir(), []string{
			fakeShard{shard: "1/3", targets: []string{"a"}, host: box}.write(t),
			fakeShard{shard: "2/3", targets: []string{"b"}, host: otherBox, tools: old}.write(t),
			fakeShard{shard: "3/3", targets: []string{"c"}, host: sameBox}.write(t),
		})
		if err != nil {
			t.Fatal(err)
		}
		m := d.Manifest()
		var hosts []string
		for _, h := range m.Hosts {
			hosts = append(hosts, h.Name)
		}
		if !slices.Equal(hosts, []string{"box", "box#2"}) || m.Hosts[1].Facts.CPUModel != "Xeon" {
			t.Errorf("hosts %v, want box and box#2 (the Xeon)", hosts)
		}
		got := map[string]string{}
		for _, mr := range m.Measurements {
			got[mr.Target] = mr.ServerHost + "," + mr.ClientHost
		}
		if want := map[string]string{"a": "box,box", "b": "box#2,box#2", "c": "box,box"}; !maps.Equal(got, want) {
			t.Errorf("measurement hosts %v, want %v", got, want)
		}
		if m.Tools["bombardier"].Version != "v1.2.6" || m.Tools["go"].Version != "go1.26.8" {
			t.Errorf("tools %v, want shard 1/3's bombardier and shard 2/3's go", m.Tools)
		}
		errs := strings.Join(m.Errors, "\n")
		for _, want := range []string{`bombardier differs between shards: shard 1/3 used "v1.2.6", shard 2/3 used "v1.2.5"`, "targets were served by 2 machines (box served a, c; box#2 served b)"} {
			if !strings.Contains(errs, want) {
				t.Errorf("errors do not say %q:\n%s", want, errs)
			}
		}
	})
	t.Run("remote hosts kept", func(t *testing.T) {
		remote := func(f runjson.Facts) func(m *runjson.Manifest) {
			return func(m *runjson.Manifest) {
				m.Hosts = []runjson.Host{{Name: "srv", Destination: "bench@10.0.0.2", Roles: []string{"server"}, Facts: f}}
				for i := range m.Measurements {
					m.Measurements[i].ServerHost = "srv"
				}
				for i := range m.Targets {
					m.Targets[i].Host = "srv"
				}
			}
		}
		a := fakeShard{shard: "1/2", targets: []string{"a", "c"}, host: box}.write(t)
		b := fakeShard{shard: "2/2", targets: []string{"b"}, host: box}.write(t)
		srv := runjson.Facts{Hostname: "srv1", CPUModel: "EPYC"}
		srv2 := srv
		srv2.Kernel = "6.8"
		for dir, f := range map[string]runjson.Facts{a: srv, b: srv2} {
			d, err := rundir.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Update(remote(f)); err != nil {
				t.Fatal(err)
			}
		}
		d, err := collect.Merge(t.TempDir(), []string{a, b})
		if err != nil {
			t.Fatal(err)
		}
		m := d.Manifest()
		var hosts []string
		for _, h := range m.Hosts {
			hosts = append(hosts, h.Name+" "+strings.Join(h.Roles, "+")+" "+h.Destination)
		}
		if want := []string{"srv server bench@10.0.0.2", "box client ", "srv#2 server bench@10.0.0.2"}; !slices.Equal(hosts, want) {
			t.Errorf("hosts %q, want %q", hosts, want)
		}
		got := map[string]string{}
		for _, mr := range m.Measurements {
			got[mr.Target] = mr.ServerHost + "," + mr.ClientHost
		}
		for _, tr := range m.Targets {
			got[tr.Name] += "," + tr.Host
		}
		if want := map[string]string{"a": "srv,box,srv", "b": "srv#2,box,srv#2", "c": "srv,box,srv"}; !maps.Equal(got, want) {
			t.Errorf("hosts of measurements and targets %v, want %v", got, want)
		}
	})
}

// TestMergeKeepsUnlistedDumps checks that a file under dumps/ that a
// shard's run.json does not list is copied and listed as an orphan.
func TestMergeKeepsUnlistedDumps(t *testing.T) {
	a := fakeShard{shard: "1/2", targets: []string{"a", "c"}}.write(t)
	b := fakeShard{shard: "2/2", targets: []string{"b"}}.write(t)
	if err := os.WriteFile(filepath.Join(b, "dumps/b/ping/2.txt"), []byte("stored, never recorded\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := collect.Merge(t.TempDir(), []string{a, b})
	if err != nil {
		t.Fatal(err)
	}
	m := checkRunDir(t, d.Path)
	if len(m.Orphans) != 1 || m.Orphans[0].Dump != "dumps/b/ping/2.txt" {
		t.Errorf("orphans %+v, want dumps/b/ping/2.txt", m.Orphans)
	}
	sameFile(t, filepath.Join(b, "dumps/b/ping/2.txt"), filepath.Join(d.Path, "dumps/b/ping/2.txt"))
	if !slices.ContainsFunc(m.Errors, func(e string) bool {
		return strings.Contains(e, "shard 2/2: merge: dumps/b/ping/2.txt is on disk but not in run.json")
	}) {
		t.Errorf("errors %q do not name the unlisted dump", m.Errors)
	}
}
