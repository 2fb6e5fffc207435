package collect

import (
	"strings"
	"testing"
	"time"
)

func TestParseSuiteErrors(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"unknown key", "name = \"x\"\n[load]\ntoolz = \"wrk\"\n", `s.toml:3: unknown key "load.toolz"`},
		{"bad type", "name = \"x\"\n[load]\nconnections = \"many\"\n", "s.toml:3:"},
		{"bad duration", "name = \"x\"\n[load]\nduration = \"ten\"\n", "s.toml:3:"},
		{"no targets", "name = \"x\"\n", "s.toml:1: target: no [[target]]"},
		{"bad name", "name = \"x\"\n[[target]]\nname = \"../etc\"\nstart = [\"a\"]\n", `s.toml:3: name: "../etc": use letters`},
		{"no start", "name = \"x\"\n[[target]]\nname = \"a\"\n", "s.toml:2: start: missing"},
		{"bad tool", "name = \"x\"\n[load]\ntool = \"ab\"\n", `s.toml:3: tool: "ab" is not`},
		{"bad path", "name=\"x\"\n[[target]]\nname=\"a\"\nstart=[\"a\"]\n[[scenario]]\nname=\"p\"\nrequest={path=\"x\"}\nexpect={status=200}\n", "s.toml:7: request: path"},
	} {
		_, err := ParseSuite([]byte(c.src), "s.toml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}
}

func TestLoadFor(t *testing.T) {
	s := &Suite{Load: Load{Connections: 10, Duration: Duration(3 * time.Second)}}
	got := s.LoadFor(Scenario{Load: Load{Connections: 2}})
	if got.Connections != 2 || got.Duration.Std() != 3*time.Second || got.Tool != DefaultLoad.Tool {
		t.Errorf("LoadFor = %+v", got)
	}
}
