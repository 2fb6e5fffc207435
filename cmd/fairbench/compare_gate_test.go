package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCompareGate gates real runs: x taking a slower real target's ping
// repetitions in the new run fails the gate (exit 1, SLOWER); the same
// repetitions on both sides pass (exit 0); another host's run is refused
// as not comparable (exit 2, naming the cpu) unless -any-key; -json
// writes the decision.
func TestCompareGate(t *testing.T) {
	old := writeRealRun(t, t.TempDir(), realRunSpec{id: "r1", host: "box", suite: pingSuite("/"),
		targets: [][2]string{{"x", "nest-fastify-node"}, {"y", "nest-express-bun"}}})
	same := writeRealRun(t, t.TempDir(), realRunSpec{id: "r2", host: "box", suite: pingSuite("/"),
		targets: [][2]string{{"x", "nest-fastify-node"}, {"y", "nest-express-bun"}}})
	slower := writeRealRun(t, t.TempDir(), realRunSpec{id: "r3", host: "box", suite: pingSuite("/"),
		targets: [][2]string{{"x", "nest-express-node"}, {"y", "nest-express-bun"}}})
	moved := writeRealRun(t, t.TempDir(), realRunSpec{id: "r4", host: "other", suite: pingSuite("/"),
		targets: [][2]string{{"x", "nest-fastify-node"}, {"y", "nest-express-bun"}}})

	stdout, stderr, code := runCLI(t, "compare", "-gate", "5%", old, slower)
	if code != 1 || !strings.Contains(stdout, "SLOWER") || !strings.Contains(stderr, "gate failed") {
		t.Errorf("x slower: exit %d, want 1 and SLOWER\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if stdout, stderr, code := runCLI(t, "compare", "-gate", "5%", old, same); code != 0 || strings.Contains(stdout, "SLOWER") {
		t.Errorf("unchanged: exit %d, want 0\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	_, stderr, code = runCLI(t, "compare", "-gate", "5%", old, moved)
	if code != 2 || !strings.Contains(stderr, "cpu: Ryzen box → Ryzen other") {
		t.Errorf("another host: exit %d, want 2 naming the cpu\nstderr:\n%s", code, stderr)
	}
	stdout, stderr, code = runCLI(t, "compare", "-gate", "5%", "-json", "-any-key", old, moved)
	var rep struct {
		Run        string   `json:"run"`
		KeyChanges []string `json:"key_changes"`
		Failed     bool     `json:"failed"`
		Rows       []struct {
			Target string  `json:"target"`
			Ratio  float64 `json:"ratio"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || code != 0 {
		t.Fatalf("-json -any-key: exit %d, %v\nstdout:\n%s\nstderr:\n%s", code, err, stdout, stderr)
	}
	if rep.Run != "r4" || len(rep.KeyChanges) == 0 || len(rep.Rows) != 2 || rep.Failed {
		t.Errorf("-json: %+v", rep)
	}
	if _, _, code := runCLI(t, "compare", "-gate", "five", old, same); code != 2 {
		t.Errorf("-gate five: exit %d, want 2", code)
	}
}
