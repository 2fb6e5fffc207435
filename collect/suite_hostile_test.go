package collect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/parse/manifest"
)

// TestSuiteHostileInput feeds suites with names that would leave the run
// dir or break a path, unknown keys and wrong types: each is an error that
// names the file and the line.
func TestSuiteHostileInput(t *testing.T) {
	target := func(name string) string {
		return "name = \"x\"\n[[target]]\nname = " + name + "\nstart = [\"a\"]\n" + okScenario
	}
	scenario := func(name string) string {
		return "name = \"x\"\n" + okTarget + "[[scenario]]\nname = " + name + "\nrequest = {path=\"/\"}\nexpect = {status=200}\n"
	}
	for _, c := range []struct{ name, src, want string }{
		{"slash", target(`"a/b"`), `h.toml:3: name: "a/b": use letters`},
		{"absolute", target(`"/etc"`), `h.toml:3: name: "/etc": use letters`},
		{"dot dot", target(`".."`), `h.toml:3: name: "..": use letters`},
		{"dot", target(`"."`), `h.toml:3: name: ".": use letters`},
		{"hidden", target(`".ssh"`), `h.toml:3: name: ".ssh": use letters`},
		{"space", target(`"a b"`), `h.toml:3: name: "a b": use letters`},
		{"trailing space", target(`"a "`), `h.toml:3: name: "a ": use letters`},
		{"control", target(`"a\u0001b"`), `h.toml:3: name: "a\x01b": use letters`},
		{"newline", target(`"a\nb"`), `h.toml:3: name: "a\nb": use letters`},
		{"nul", target(`"a\u0000"`), `h.toml:3: name: "a\x00": use letters`},
		{"backslash", target(`'a\b'`), `h.toml:3: name: "a\\b": use letters`},
		{"non-ASCII", target(`"café"`), `h.toml:3: name: "café": use letters`},
		{"right-to-left", target(`"a\u202eb"`), `h.toml:3: name: "a\u202eb": use letters`},
		{"placeholder", target(`"{bin}"`), `h.toml:3: name: "{bin}": use letters`},
		{"scenario slash", scenario(`"../../etc"`), `h.toml:6: name: "../../etc": use letters`},
		{"scenario space", scenario(`" "`), `h.toml:6: name: " ": use letters`},
		{"service", "name = \"x\"\n[[service]]\nname = \"db/x\"\nversion = [\"v\"]\nstart = [\"db\"]\n" + okTarget + okScenario, `h.toml:3: name: "db/x": use letters`},
		{"empty name", target(`""`), `h.toml:3: name: missing`},
		{"twice", "name = \"x\"\n" + okTarget + okTarget + okScenario, `h.toml:6: name: "a" is listed twice`},
		{"unknown target key", "name = \"x\"\n[[target]]\nname = \"a\"\nstart = [\"a\"]\nouput = \"/tmp\"\n" + okScenario, `h.toml:5: unknown key "target.ouput"`},
		{"unknown top key", "name = \"x\"\nout = \"/\"\n" + okTarget + okScenario, `h.toml:2: unknown key "out"`},
		{"unknown scenario key", "name = \"x\"\n" + okTarget + okScenario + "repeat = 3\n", `h.toml:9: unknown key "scenario.repeat"`},
		{"start not argv", "name = \"x\"\n[[target]]\nname = \"a\"\nstart = \"./server\"\n" + okScenario, "h.toml:4: "},
		{"name not string", "name = \"x\"\n[[target]]\nname = 7\nstart = [\"a\"]\n" + okScenario, "h.toml:3: "},
		{"ready_timeout number", "name = \"x\"\n[[target]]\nname = \"a\"\nstart = [\"a\"]\nready_timeout = 5\n" + okScenario, `h.toml:5: ready_timeout: 5 is not a duration: write it as a string like "5s"`},
		{"timeout number", "name = \"x\"\n[load]\ntimeout = 2\n" + okTarget + okScenario, `h.toml:3: timeout: 2 is not a duration`},
		{"inline warmup number", "name = \"x\"\n" + okTarget + okScenario + "load = { warmup = 0 }\n", `h.toml:9: warmup: 0 is not a duration`},
		{"ready_timeout negative", "name = \"x\"\n[[target]]\nname = \"a\"\nstart = [\"a\"]\nready_timeout = \"-1s\"\n" + okScenario, "h.toml:5: ready_timeout: -1s is negative"},
		{"env not table", "name = \"x\"\n[[target]]\nname = \"a\"\nstart = [\"a\"]\nenv = [\"A=1\"]\n" + okScenario, "h.toml:5: "},
		{"port string", "name = \"x\"\n[[target]]\nname = \"a\"\nstart = [\"a\"]\nport = \"80\"\n" + okScenario, "h.toml:5: "},
		{"port range", "name = \"x\"\n[[target]]\nname = \"a\"\nstart = [\"a\"]\nport = 70000\n" + okScenario, "h.toml:5: port: 70000 is not a port"},
		{"status string", "name = \"x\"\n" + okTarget + "[[scenario]]\nname = \"p\"\nrequest = {path=\"/\"}\nexpect = {status=\"200\"}\n", "h.toml:8: "},
		{"commented number", "name = \"x\"\n# timeout = 2 is what we had\n[load]\ntimeout = 2\n" + okTarget + okScenario, "h.toml:4: timeout: 2 is not a duration"},
		{"binary", "name = \"x\x00\xff\"\n", "h.toml:1: "},
		{"not toml", "<html>\n", "h.toml:1: "},
	} {
		_, err := ParseSuite([]byte(c.src), "h.toml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}
}

// TestRunDirStaysInside checks that nothing is written outside a run dir:
// not through a relative path, an absolute one, or a symbolic link planted
// in it; and that a run id cannot name a folder outside -out.
func TestRunDirStaysInside(t *testing.T) {
	out := t.TempDir()
	d, err := CreateRunDir(out, manifest.Manifest{Schema: manifest.SchemaVersion, ID: "r1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	if err := os.MkdirAll(filepath.Join(d.Path, "dumps"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(d.Path, "dumps", "evil")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "t.txt"), filepath.Join(d.Path, "conformance.txt")); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"../x.txt", "/tmp/x.txt", "dumps/../../x.txt", "dumps/evil/p/1.txt", "dumps/evil/1.txt"} {
		if _, err := d.WriteDump(rel, []byte("x")); err == nil {
			t.Errorf("WriteDump(%q) was accepted", rel)
		}
	}
	for _, rel := range []string{"../x.txt", "dumps/evil/t.txt"} {
		if err := d.WriteFile(rel, []byte("x")); err == nil {
			t.Errorf("WriteFile(%q) was accepted", rel)
		}
	}
	if entries, _ := os.ReadDir(outside); len(entries) > 0 {
		t.Errorf("written outside the run dir: %v", entries)
	}
	for _, id := range []string{"..", "../r2", "a/b", "/abs", ""} {
		if _, err := CreateRunDir(out, manifest.Manifest{Schema: manifest.SchemaVersion, ID: id}, nil); err == nil {
			t.Errorf("CreateRunDir with id %q was accepted", id)
		}
	}
	for _, host := range []string{"../../etc", "a/b", "x\x00y", ".."} {
		if id := runID(time.Date(2026, 11, 29, 18, 50, 0, 0, time.UTC), host); !filepath.IsLocal(id) || strings.ContainsAny(id, `/\`) || strings.Contains(id, "..") {
			t.Errorf("runID for host %q = %q: not one folder name", host, id)
		}
	}
}
