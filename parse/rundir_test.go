package parse

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestRealRunsRead reads the real runs under testdata/runs (collected by
// fairbench, one without interference and two with it) with the loader
// render uses: each has its measurements, CPU seconds and dumps.
func TestRealRunsRead(t *testing.T) {
	dirs, err := filepath.Glob("testdata/runs/*/run.json")
	if err != nil || len(dirs) < 3 {
		t.Fatalf("want 3 real runs under testdata/runs, found %q: %v", dirs, err)
	}
	for _, name := range dirs {
		run, err := ReadRun(filepath.Dir(name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if run.ID == "" || run.Facts.Hostname == "" || len(run.Measurements) == 0 {
			t.Errorf("%s: id %q, host %q, %d measurements", name, run.ID, run.Facts.Hostname, len(run.Measurements))
		}
		for _, mr := range run.Measurements {
			if mr.ServerCPUSeconds <= 0 || mr.ServerCPUList == "" {
				t.Errorf("%s: %s: server CPU %v s on %q", name, mr.Dump, mr.ServerCPUSeconds, mr.ServerCPUList)
			}
			if _, err := os.Stat(filepath.Join(run.Path, mr.Dump)); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
}

// TestRunDirWorkersAndCeiling reads a latency point and the ceiling
// measurement before it from a run dir: each carries run.json's workers as
// its connections; the ceiling has no offered rate (-rate=0: as fast as
// the workers go) and the send rate run.json recorded.
func TestRunDirWorkersAndCeiling(t *testing.T) {
	dir := t.TempDir()
	dump := readFixture(t, vegetaPrefix+"behind_rundir.txt")
	for _, name := range []string{"latency-50pct/1.txt", "ceiling/1.txt"} {
		file := filepath.Join(dir, "dumps/a/ping", name)
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, dump, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := `{"schema":1,"id":"r1","status":"complete","targets":[{"name":"a","runtime":"go"}],
"measurements":[{"target":"a","scenario":"ping","rep":1,"order":1,"tool":"vegeta","phase":"ceiling","connections":4,
"send_rate":900.5,"client_load":0.97,"client_bound":true,"limit":810.45,
"argv":["vegeta","attack","-rate=0","-duration=2s","-workers=4","-max-workers=4"],"dump":"dumps/a/ping/ceiling/1.txt"},
{"target":"a","scenario":"ping","rep":1,"order":2,"tool":"vegeta","phase":"latency","connections":4,"rate":500,"rate_fraction":0.5,"capacity":1000,
"argv":["vegeta","attack","-rate=500/1s","-duration=2s","-workers=4","-max-workers=4"],"dump":"dumps/a/ping/latency-50pct/1.txt"}]}`
	if err := os.WriteFile(filepath.Join(dir, "run.json"), []byte(run), 0o644); err != nil {
		t.Fatal(err)
	}
	byPhase := map[string]*Measurement{}
	errs := Walk([]string{dir}, func(r Record) error {
		if m, ok := r.(*Measurement); ok {
			byPhase[m.Phase] = m
		}
		return nil
	})
	if len(errs) > 0 || len(byPhase) != 2 {
		t.Fatalf("measurements %v, errors %v", byPhase, errs)
	}
	if c := byPhase[PhaseCeiling]; c == nil || c.Connections != 4 || c.Rate != 0 || c.Open.SendRate != 900.5 || c.Window != 2*time.Second {
		t.Errorf("ceiling: %+v", c)
	}
	if l := byPhase[PhaseLatency]; l == nil || l.Connections != 4 || l.Rate != 500 || l.Open.Fraction != 0.5 {
		t.Errorf("latency point: %+v", l)
	}
}
