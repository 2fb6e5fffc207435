package collect

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect/suite"
)

// TestBuildsSideBySide: targets whose builds write into {bin} build side
// by side, as many at a time as the machine has CPUs, each timed by
// itself; builds that write into a dir they share build one after
// another, and the same build for two targets runs once; a failed build
// keeps its output and fails only its target.
func TestBuildsSideBySide(t *testing.T) {
	shared, own, running := t.TempDir(), t.TempDir(), t.TempDir()
	seen := filepath.Join(t.TempDir(), "seen")
	// Every build counts the builds running beside it (itself too).
	count := "touch " + running + "/$$; ls " + running + " | wc -l >> " + seen + "; sleep 0.4; rm " + running + "/$$"
	// The shared dir's builds also refuse to run beside each other.
	exclusive := []string{"sh", "-c", "if [ -e busy ]; then echo overlapped; exit 1; fi; touch busy; " + count + "; rm busy"}
	// a and b differ in argv: the same argv would share a build cache
	// entry, whose lock lets one build at a time.
	slow := func(name string) []string {
		return []string{"sh", "-c", count + "; echo built > {bin}/server # " + name}
	}
	suite := &suite.Suite{Targets: []suite.Target{
		{Name: "a", Dir: own, Build: slow("a"), Artifact: "{bin}/server"},
		{Name: "b", Dir: own, Build: slow("b"), Artifact: "{bin}/server"},
		{Name: "n1", Dir: shared, Build: exclusive},
		{Name: "n2", Dir: shared, Build: append(slices.Clone(exclusive[:2]), exclusive[2]+"; true")},
		{Name: "n1-again", Dir: shared, Build: exclusive},
		{Name: "broken", Dir: own, Build: []string{"sh", "-c", "echo no such package >&2; exit 2"}},
	}}
	c := newCollector(suite, Options{buildCache: t.TempDir()})
	c.here.Dir = t.TempDir()
	cpus := onlineCPUs(context.Background(), c.server)
	start := time.Now()
	got := c.buildAll(context.Background(), suite.Targets)
	wall := time.Since(start)
	for _, name := range []string{"a", "b", "n1", "n2", "n1-again"} {
		b := got[name]
		if b.err != nil {
			t.Errorf("%s: %v", name, b.err)
		}
		if b.seconds < 0.4 || b.seconds > wall.Seconds() {
			t.Errorf("%s: build took %.3f s of the %.3f s all took: want its own 0.4 s or more", name, b.seconds, wall.Seconds())
		}
	}
	if got["a"].artifact != int64(len("built\n")) {
		t.Errorf("a's artifact %d bytes, want %d", got["a"].artifact, len("built\n"))
	}
	if err := got["broken"].err; err == nil || !strings.Contains(err.Error(), "no such package") {
		t.Errorf("broken: %v, want the build's output in its error", err)
	}
	if got["n1-again"] != got["n1"] {
		t.Errorf("n1-again built %+v, n1 %+v: want n1's build shared (the same argv in the same dir)", got["n1-again"], got["n1"])
	}
	b, err := os.ReadFile(seen)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(strings.Fields(string(b))); n != 4 {
		t.Errorf("%d builds ran, want 4 (a, b, n1, n2; n1-again is n1's)", n)
	}
	most := 0
	for _, f := range strings.Fields(string(b)) {
		n, _ := strconv.Atoi(f)
		most = max(most, n)
	}
	if want := min(cpus, 3); most != want {
		t.Errorf("at most %d builds ran at once on %d CPUs, want %d (three lanes: a, b, the shared dir's)", most, cpus, want)
	}
}

// TestBuildLanes: a build naming {bin} is a lane of its own, the others
// share their dir's lane in suite order.
func TestBuildLanes(t *testing.T) {
	targets := []suite.Target{
		{Name: "go1", Dir: "go", Build: []string{"go", "build", "-o", "{bin}/server", "./stdlib"}},
		{Name: "nest1", Dir: "js", Build: []string{"tsc", "-p", "nest"}},
		{Name: "go2", Dir: "go", Build: []string{"go", "build", "-o", "{bin}/server", "./gin"}},
		{Name: "nest2", Dir: "js", Build: []string{"tsc", "-p", "nest"}},
		{Name: "bun", Dir: "bun"},
	}
	lanes := buildLanes(targets, func(t suite.Target) string { return t.Dir })
	var got []string
	for _, lane := range lanes {
		var names []string
		for _, t := range lane {
			names = append(names, t.Name)
		}
		got = append(got, strings.Join(names, "+"))
	}
	if want := "go1 nest1+nest2 go2 bun"; strings.Join(got, " ") != want {
		t.Errorf("lanes %q, want %q", strings.Join(got, " "), want)
	}
}
