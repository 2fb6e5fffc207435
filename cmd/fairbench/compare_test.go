package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// pingSuite is a suite of targets x and y whose ping scenario asks path.
func pingSuite(path string) string {
	return `name = "hosts"
[[target]]
name = "x"
[[target]]
name = "y"
[[scenario]]
name = "ping"
request = { path = "` + path + `" }
`
}

// TestCompareTwoRunsOnOneSide: a side holding x/ping in two runs (about
// 22k req/s in one, 38k in the other) is refused, naming both runs, rather
// than compared on the first run's cells alone.
func TestCompareTwoRunsOnOneSide(t *testing.T) {
	before := t.TempDir()
	r1 := writeRealRun(t, before, realRunSpec{id: "r1", host: "box", suite: pingSuite("/"), targets: [][2]string{{"x", "nest-express-node"}}})
	r2 := writeRealRun(t, before, realRunSpec{id: "r2", host: "box", suite: pingSuite("/"), targets: [][2]string{{"x", "nest-fastify-node"}}})
	after := writeRealRun(t, t.TempDir(), realRunSpec{id: "r3", host: "box", suite: pingSuite("/"), targets: [][2]string{{"x", "nest-express-bun"}}})
	stdout, stderr, code := runCLI(t, "compare", before, after)
	if code != 2 {
		t.Errorf("compare of a side with two runs of x/ping: exit %d, want 2\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if want := "A has x/ping in run r1 and in run r2: give each side one run"; !strings.Contains(stderr, want) {
		t.Errorf("stderr does not say %q:\n%s", want, stderr)
	}
	if strings.Contains(stdout, "%") {
		t.Errorf("a delta printed for a refused comparison:\n%s", stdout)
	}
	// Each run on its own compares.
	for _, r := range []string{r1, r2} {
		if _, stderr, code := runCLI(t, "compare", r, after); code != 0 {
			t.Errorf("compare %s %s: exit %d\n%s", filepath.Base(r), filepath.Base(after), code, stderr)
		}
	}
}

// TestCompareDifferentRequests: two runs of different suites whose ping
// scenario asks another path (real dumps of GET / and of GET /json) are not compared row by row: each row reads
// "≠ request", an ERROR note names both requests, and the exit status is 1.
func TestCompareDifferentRequests(t *testing.T) {
	a := writeRealRun(t, t.TempDir(), realRunSpec{id: "ra", host: "box", suite: pingSuite("/"),
		targets: [][2]string{{"x", "nest-fastify-node"}, {"y", "nest-fastify-bun"}}})
	b := writeRealRun(t, t.TempDir(), realRunSpec{id: "rb", host: "box", suite: pingSuite("/json"), from: "json",
		targets: [][2]string{{"x", "nest-express-node"}, {"y", "nest-express-bun"}}})
	stdout, stderr, code := runCLI(t, "compare", a, b)
	if code != 1 {
		t.Errorf("compare of different requests: exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"x/ping  ", "≠ request",
		"note: ERROR in ping: x was sent different requests, as its dumps record: GET / in run ra, GET /json in run rb; the row is not compared",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout does not say %q:\n%s", want, stdout)
		}
	}
	for _, line := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(line, "x/ping") || strings.HasPrefix(line, "y/ping") || strings.HasPrefix(line, "geomean") {
			if strings.Contains(line, "%") || strings.HasPrefix(line, "geomean") {
				t.Errorf("a change claimed across different requests: %s", line)
			}
		}
	}
}

// TestCompareDifferentSuiteBodies: the same path with another body (only
// the suites say so) is found from the run dirs' suite.toml.
func TestCompareDifferentSuiteBodies(t *testing.T) {
	body := func(b string) string {
		return strings.Replace(pingSuite("/"), `path = "/" }`, `path = "/", method = "POST", body = "`+b+`" }`, 1)
	}
	a := writeRealRun(t, t.TempDir(), realRunSpec{id: "ra", host: "box", suite: body("small"), targets: [][2]string{{"x", "nest-fastify-node"}}})
	b := writeRealRun(t, t.TempDir(), realRunSpec{id: "rb", host: "box", suite: body("a much larger body"), targets: [][2]string{{"x", "nest-express-node"}}})
	stdout, stderr, code := runCLI(t, "compare", a, b)
	if code != 1 || !strings.Contains(stdout, "≠ request") || !strings.Contains(stdout, "as the runs' suites define: POST / body 5 bytes") {
		t.Errorf("compare of different bodies: exit %d, want 1 and the row refused\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}
