package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/collect/suite"
)

// gatePlan returns the suites to gate so that every program is started
// once: a target is left out when a target planned before it (in its own
// suite or another) runs the same program (programKey) and is gated there
// on every request of its suite (gateKey), as post.toml's targets are by
// js.toml and an A/A twin is by its pair. Of the targets left in a suite
// that build in the same folder with the same command and no {bin} (nest's
// tsc writes nest/dist), only the first builds: Verify gates a suite's
// targets in order, so the others start from its output. The suites come
// back as copies, in the order given, those with no target left out.
func gatePlan(t *testing.T, suites []*suite.Suite) []*suite.Suite {
	t.Helper()
	gated := map[string][]map[string]bool{} // program → the gate keys of each suite that gates it
	var plan []*suite.Suite
	for _, s := range suites {
		requests := requestsOf(s)
		cp := *s
		cp.Targets = nil
		built := map[string]bool{}
		for _, tg := range s.Targets {
			prog := programKey(tg)
			if slices.ContainsFunc(gated[prog], func(by map[string]bool) bool { return covers(by, requests) }) {
				t.Logf("%s: %s is gated as the same program elsewhere", s.File, tg.Name)
				continue
			}
			gated[prog] = append(gated[prog], requests)
			if build := fmt.Sprintf("%q %q", tg.Dir, tg.Build); len(tg.Build) > 0 && !strings.Contains(build, "{bin}") {
				if built[build] {
					tg.Build = nil
				}
				built[build] = true
			}
			cp.Targets = append(cp.Targets, tg)
		}
		if len(cp.Targets) > 0 {
			plan = append(plan, &cp)
		}
	}
	return plan
}

// requestsOf is the set of the suite's gate keys.
func requestsOf(s *suite.Suite) map[string]bool {
	out := map[string]bool{}
	for _, sc := range s.Scenarios {
		out[gateKey(sc)] = true
	}
	return out
}

// covers reports whether every request of want is in have.
func covers(have, want map[string]bool) bool {
	for k := range want {
		if !have[k] {
			return false
		}
	}
	return true
}

// programKey is what a target runs: everything but its name and the
// packages it names.
func programKey(tg suite.Target) string {
	tg.Name, tg.Packages = "", nil
	return jsonKey(tg)
}

// gateKey is what the gate sends and expects for a scenario: everything
// but its name and its load.
func gateKey(sc suite.Scenario) string {
	sc.Name, sc.Load = "", suite.Load{}
	return jsonKey(sc)
}

// jsonKey is v as JSON: pointers followed, map keys sorted.
func jsonKey(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // suites are plain data
	}
	return string(b)
}

// TestGatePlan checks gatePlan on the published suites: each program is
// started once, every target of every suite is gated as itself or as the
// same program on the same requests, and a build shared in one folder runs
// once.
func TestGatePlan(t *testing.T) {
	var suites []*suite.Suite
	for _, path := range gatedSuites(t) {
		suites = append(suites, loadSuite(t, path))
	}
	plan := gatePlan(t, suites)
	started := map[string]string{}
	builds := map[string]int{}
	for _, s := range plan {
		for _, tg := range s.Targets {
			if by, ok := started[programKey(tg)+s.File]; ok {
				t.Errorf("%s: %s starts the program %s already starts", s.File, tg.Name, by)
			}
			started[programKey(tg)+s.File] = tg.Name
			if len(tg.Build) > 0 {
				builds[fmt.Sprintf("%s %q %q", s.File, tg.Dir, tg.Build)]++
			}
		}
	}
	for b, n := range builds {
		if n > 1 && !strings.Contains(b, "{bin}") {
			t.Errorf("%s: built %d times", b, n)
		}
	}
	for _, s := range suites {
		for _, tg := range s.Targets {
			if !gatedIn(plan, tg, s) {
				t.Errorf("%s: target %s is not gated, nor its program on the same requests", s.File, tg.Name)
			}
		}
	}
	// An A/A twin is its pair's program; post.toml's targets are js.toml's
	// on two of its requests.
	for _, p := range plan {
		if filepath.Base(p.File) == "post.toml" {
			t.Errorf("post.toml's targets are started again: %d of them", len(p.Targets))
		}
		for _, tg := range p.Targets {
			if len(p.AAPair) == 2 && tg.Name == p.AAPair[1] {
				t.Errorf("%s: the A/A twin %s is started again", p.File, tg.Name)
			}
		}
	}
}

// gatedIn reports whether the plan gates tg's program on every request of s.
func gatedIn(plan []*suite.Suite, tg suite.Target, s *suite.Suite) bool {
	want := requestsOf(s)
	for _, p := range plan {
		have := requestsOf(p)
		for _, pt := range p.Targets {
			pt.Build = tg.Build // the shared build ran before it
			if programKey(pt) == programKey(tg) && covers(have, want) {
				return true
			}
		}
	}
	return false
}
