package render

import (
	"slices"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse/runjson"
)

// vmPinning is host.pinning as collect records it on this 2-CPU VM: a
// topology without cache or cpufreq entries.
func vmPinning() *runjson.Pinning {
	zero, one := 0, 1
	return &runjson.Pinning{ServerCPUs: "0", ClientCPUs: "1", Topology: runjson.Topology{
		Online: "0-1", SMTControl: "notsupported",
		CPUs: []runjson.CPU{
			{ID: 0, Package: &zero, Die: &zero, Core: &zero, Siblings: "0"},
			{ID: 1, Package: &zero, Die: &zero, Core: &one, Siblings: "1"},
		}}}
}

// TestMethodologyCPUTopology: the methodology page shows a summary line of
// the run's CPU topology, unknowns said so.
func TestMethodologyCPUTopology(t *testing.T) {
	set, site := fixture(t)
	set.Runs[0].Facts.Pinning = vmPinning()
	m := newModel(fromSet(set, Options{Site: site}), site)
	p, err := m.methodologyPage()
	if err != nil {
		t.Fatal(err)
	}
	want := Fact{Label: "CPU topology", Value: "2 CPUs, 1 package, no SMT, L3 unknown, governor unknown, boost unknown"}
	if !slices.Contains(p.Host, want) {
		t.Errorf("host facts %v lack %v", p.Host, want)
	}
}

// TestRunFactsTopology: a change of topology is a change of environment,
// and the history says which.
func TestRunFactsTopology(t *testing.T) {
	in := newInput(Options{}, &spool{at: map[string]span{}})
	set, _ := fixture(t)
	a, b := *set.Runs[0], *set.Runs[0]
	b.ID = "b"
	b.Facts.Pinning = vmPinning()
	fa, fb := in.factsOf(&a), in.factsOf(&b)
	got := envChanges(&fa, &fb)
	if fa.env == fb.env || len(got) != 1 || !strings.HasPrefix(got[0], "CPU topology: (none) → 2 CPUs, 1 package") {
		t.Errorf("changes %q", got)
	}
	c := b
	c.ID = "c"
	c.Facts.Pinning = vmPinning()
	if fc := in.factsOf(&c); fc.env != fb.env {
		t.Error("the same topology does not share an environment")
	}
}
