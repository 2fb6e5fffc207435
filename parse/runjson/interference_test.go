package runjson

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// Runs written before interference was measured read, and write back
// without the key; runs that measured it keep it. parse/testdata/runs
// holds real runs of both kinds.
func TestOldRunsWithoutInterference(t *testing.T) {
	files, _ := filepath.Glob("../testdata/runs/*/run.json")
	if len(files) == 0 {
		t.Fatal("no run.json under parse/testdata/runs")
	}
	seen := map[bool]int{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Decode(b)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		recorded := bytes.Contains(b, []byte(`"interference"`))
		seen[recorded]++
		for _, mr := range m.Measurements {
			if !recorded && mr.Interference != nil {
				t.Errorf("%s: %s/%s rep %d: interference %+v from a run that recorded none", f, mr.Target, mr.Scenario, mr.Rep, mr.Interference)
			}
		}
		out, err := Encode(m)
		if err != nil {
			t.Fatal(err)
		}
		if got := bytes.Contains(out, []byte(`"interference"`)); got != recorded {
			t.Errorf("%s: interference key written back: %v, read: %v", f, got, recorded)
		}
	}
	if seen[true] == 0 || seen[false] == 0 {
		t.Errorf("runs with interference: %d, without: %d; the fixtures must hold both", seen[true], seen[false])
	}
}
