package history

import (
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse"
)

// TestKeyOfRealRun: a real run dir's key names its load tool and host,
// matches itself, and a kernel change shows as one line saying both.
func TestKeyOfRealRun(t *testing.T) {
	set, errs := parse.ReadAll([]string{"../../render/testdata/runs/20261129T192304Z-vm"})
	if len(errs) > 0 || len(set.Runs) != 1 {
		t.Fatalf("read: %v, %d runs", errs, len(set.Runs))
	}
	run := set.Runs[0]
	k := KeyOf(run, set)
	got := map[string]string{}
	for _, f := range k {
		got[f.Name] = f.Value
	}
	for _, name := range []string{"load tool", "connections", "window", "cpu", "kernel"} {
		if got[name] == "" {
			t.Errorf("key has no %s: %v", name, k)
		}
	}
	if d := k.Diff(KeyOf(run, set)); len(d) != 0 {
		t.Errorf("a key differs from itself: %v", d)
	}
	other := *run
	other.Facts.Kernel = "9.9.9-test"
	d := k.Diff(KeyOf(&other, set))
	if len(d) != 1 || !strings.HasPrefix(d[0], "kernel: "+run.Facts.Kernel+" → 9.9.9-test") {
		t.Errorf("diff after a kernel change: %q", d)
	}
}
