package collect

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/rundir"
	"github.com/fairbench/fairbench/parse/runjson"
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
		_, err := suite.ParseSuite([]byte(c.src), "h.toml")
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
	d, err := rundir.Create(out, runjson.Manifest{Schema: runjson.SchemaVersion, ID: "r1"}, nil)
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
		if _, err := rundir.Create(out, runjson.Manifest{Schema: runjson.SchemaVersion, ID: id}, nil); err == nil {
			t.Errorf("CreateRunDir with id %q was accepted", id)
		}
	}
	for _, host := range []string{"../../etc", "a/b", "x\x00y", ".."} {
		if id := runID(time.Date(2026, 11, 29, 18, 50, 0, 0, time.UTC), host); !filepath.IsLocal(id) || strings.ContainsAny(id, `/\`) || strings.Contains(id, "..") {
			t.Errorf("runID for host %q = %q: not one folder name", host, id)
		}
	}
}

// TestSuiteZeroIsNotUnset refuses a zero that would have been read as "use
// the default" (issue 13 item 6), bounds what no benchmark asks for, and
// lets a scenario's rate = 0 lift the suite's cap.
func TestSuiteZeroIsNotUnset(t *testing.T) {
	top := func(load string) string {
		return "name = \"x\"\n[load]\n" + load + "\n" + okTarget + okScenario
	}
	inScenario := func(load string) string {
		return "name = \"x\"\n" + okTarget + "[[scenario]]\nname=\"p\"\nrequest={path=\"/\"}\nexpect={status=200}\nload = { " + load + " }\n"
	}
	target := func(keys string) string {
		return "name = \"x\"\n[[target]]\nname = \"a\"\nstart = [\"a\"]\n" + keys + "\n" + okScenario
	}
	for _, c := range []struct{ name, src, want string }{
		{"duration 0s", top(`duration = "0s"`), `h.toml:3: duration: 0s is shorter than 1s`},
		{"connections 0", top(`connections = 0`), `h.toml:3: connections: 0: give at least 1, or leave it out for the default (64)`},
		{"repetitions 0", top(`repetitions = 0`), `h.toml:3: repetitions: 0: give at least 1`},
		{"threads 0", top(`threads = 0`), `h.toml:3: threads: 0: give at least 1`},
		{"pipelining 0", top(`pipelining = 0`), `h.toml:3: pipelining: 0: give at least 1`},
		{"timeout 0s", top(`timeout = "0s"`), `h.toml:3: timeout: 0s would fail every request`},
		{"scenario connections 0", inScenario(`connections = 0`), `h.toml:9: load.connections: 0: give at least 1`},
		{"scenario duration 0s", inScenario(`duration = "0s"`), `h.toml:9: load.duration: 0s is shorter than 1s`},
		{"connections 1e9", top(`connections = 1_000_000_000`), `h.toml:3: connections: 1000000000 is over the limit of 100000`},
		{"repetitions 1e9", top(`repetitions = 1_000_000_000`), `h.toml:3: repetitions: 1000000000 is over the limit of 1000`},
		{"duration 1000h", top(`duration = "1000h"`), `h.toml:3: duration: 1000h0m0s is over the limit of 1h0m0s`},
		{"warmup 1000h", top(`warmup = "1000h"`), `h.toml:3: warmup: 1000h0m0s is over the limit of 1h0m0s`},
		{"warmup 500ms", top(`warmup = "500ms"`), `h.toml:3: warmup: 500ms is shorter than 1s, the shortest window every tool keeps`},
		{"rate 1e12", top(`rate = 1_000_000_000_000`), `h.toml:3: rate: 1000000000000 is over the limit of 10000000`},
		{"ready_timeout 0s", target(`ready_timeout = "0s"`), `h.toml:5: ready_timeout: 0s: give the time`},
		{"ready_timeout 1000h", target(`ready_timeout = "1000h"`), `h.toml:5: ready_timeout: 1000h0m0s is over the limit of 1h0m0s`},
		{"env A=B", target(`env = { "A=B" = "1" }`), `h.toml:5: env: "A=B" is not a variable name`},
		{"env empty", target(`env = { "" = "1" }`), `h.toml:5: env: "" is not a variable name`},
		{"env digit", target(`env = { 1A = "1" }`), `h.toml:5: env: "1A" is not a variable name`},
		{"env NUL", target(`env = { A = "x\u0000y" }`), `h.toml:5: env: A: value holds a NUL byte`},
		{"service env", "name = \"x\"\n[[service]]\nname = \"db\"\nversion = [\"v\"]\nstart = [\"db\"]\nenv = { \"X=Y\" = \"1\" }\n" + okTarget + okScenario, `h.toml:6: env: "X=Y" is not a variable name`},
	} {
		_, err := suite.ParseSuite([]byte(c.src), "h.toml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}

	src := "name = \"x\"\n[load]\ntool = \"bombardier\"\nrate = 500\n" + okTarget +
		"[[scenario]]\nname=\"capped\"\nrequest={path=\"/\"}\nexpect={status=200}\n" +
		"[[scenario]]\nname=\"open\"\nrequest={path=\"/\"}\nexpect={status=200}\nload = { rate = 0 }\n"
	s, err := suite.ParseSuite([]byte(src), "h.toml")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.LoadFor(s.Scenarios[0]).Rate; got != 500 {
		t.Errorf("capped: rate %d, want the suite's 500", got)
	}
	if got := s.LoadFor(s.Scenarios[1]).Rate; got != 0 {
		t.Errorf("open: rate %d, want 0 (the scenario lifts the cap)", got)
	}
	built := &suite.Suite{Load: suite.Load{Connections: 8}}
	if got := built.LoadFor(suite.Scenario{}); got.Connections != 8 || got.Repetitions != suite.DefaultLoad.Repetitions {
		t.Errorf("a suite built in Go: %+v, want connections 8 and the default repetitions", got)
	}
}

// TestSuiteControlCharacters refuses a CR, LF or other control character
// in a request's path or headers at load (issue 13 item 7): sent as written
// it would end a header early, and the gate would blame the server.
func TestSuiteControlCharacters(t *testing.T) {
	scenario := func(request, expect string) string {
		return "name = \"x\"\n" + okTarget + "[[scenario]]\nname = \"p\"\nrequest = " + request + "\nexpect = " + expect + "\n"
	}
	for _, c := range []struct{ name, src, want string }{
		{"CRLF in header value", scenario(`{ path = "/", headers = { x-a = "1\r\nX-Injected: 1" } }`, `{ status = 200 }`), `h.toml:7: request: headers.x-a: value "1\r\nX-Injected: 1" holds a control character`},
		{"LF in header value", scenario(`{ path = "/", headers = { x-a = "1\n" } }`, `{ status = 200 }`), `h.toml:7: request: headers.x-a: value "1\n" holds a control character`},
		{"NUL in header value", scenario(`{ path = "/", headers = { x-a = "\u0000" } }`, `{ status = 200 }`), `holds a control character`},
		{"CRLF in header name", scenario(`{ path = "/", headers = { "x\r\ny" = "1" } }`, `{ status = 200 }`), `h.toml:7: request: headers: header name "x\r\ny" is not an HTTP token`},
		{"space in header name", scenario(`{ path = "/", headers = { "x y" = "1" } }`, `{ status = 200 }`), `header name "x y" is not an HTTP token`},
		{"CRLF in path", scenario(`{ path = "/a\r\nHost: evil" }`, `{ status = 200 }`), `h.toml:7: request: path "/a\r\nHost: evil" holds a space or control character`},
		{"space in path", scenario(`{ path = "/a b" }`, `{ status = 200 }`), `path "/a b" holds a space or control character: percent-encode it`},
		{"DEL in path", scenario(`{ path = "/a\u007f" }`, `{ status = 200 }`), `holds a space or control character`},
		{"CRLF in expected header", scenario(`{ path = "/" }`, `{ status = 200, headers = { x-a = "1\r\n" } }`), `h.toml:8: expect: headers.x-a: value "1\r\n" holds a control character`},
		{"CRLF in variant", scenario(`{ path = "/" }`, "{ status = 200 }\n[[scenario.variant]]\nrequest = { path = \"/\", headers = { a = \"\\r\" } }\nexpect = { status = 200 }"), `h.toml:10: request: headers.a: value "\r" holds a control character`},
		{"CRLF in ready", "name = \"x\"\n[[target]]\nname = \"a\"\nstart = [\"a\"]\nready = \"/r\\r\\n\"\n" + okScenario, `h.toml:5: ready: path "/r\r\n" must start with / and hold no spaces or control characters`},
		{"newline in ssh", "name = \"x\"\n[[host]]\nname = \"s\"\nssh = \"a\\u000bb\"\nroles = [\"server\"]\n" + okTarget + okScenario, `h.toml:4: ssh: "a\vb"`},
	} {
		_, err := suite.ParseSuite([]byte(c.src), "h.toml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}
	ok := scenario(`{ path = "/a%0D%0A", headers = { x-a = "tab\there", accept = "*/*" } }`, `{ status = 200 }`)
	if _, err := suite.ParseSuite([]byte(ok), "h.toml"); err != nil {
		t.Errorf("a percent-encoded path and a tab in a value: %v", err)
	}
}

// TestSuiteAAPair checks aa_pair: two different targets of the suite, at
// its line.
func TestSuiteAAPair(t *testing.T) {
	two := "[[target]]\nname = \"a\"\nstart = [\"a\"]\n[[target]]\nname = \"a-aa\"\nstart = [\"a\"]\n"
	for _, c := range []struct{ name, src, want string }{
		{"not a target", "name = \"x\"\naa_pair = [\"a\", \"b\"]\n" + two + okScenario, `h.toml:2: aa_pair: "b" is not a target of this suite`},
		{"one name", "name = \"x\"\naa_pair = [\"a\"]\n" + two + okScenario, `h.toml:2: aa_pair: ["a"]: name two different targets`},
		{"same twice", "name = \"x\"\naa_pair = [\"a\", \"a\"]\n" + two + okScenario, `h.toml:2: aa_pair: ["a" "a"]: name two different targets`},
		{"not a list", "name = \"x\"\naa_pair = \"a\"\n" + two + okScenario, `h.toml:2: aa_pair: `},
	} {
		_, err := suite.ParseSuite([]byte(c.src), "h.toml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}
	s, err := suite.ParseSuite([]byte("name = \"x\"\naa_pair = [\"a\", \"a-aa\"]\n"+two+okScenario), "h.toml")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.AAPair, []string{"a", "a-aa"}) {
		t.Errorf("aa_pair %q", s.AAPair)
	}
}

// TestSuiteAAPairs checks aa_pairs: pairs as aa_pair's, a target in one
// pair at most, not beside aa_pair; the first pair is the suite's AAPair.
func TestSuiteAAPairs(t *testing.T) {
	four := "[[target]]\nname = \"a\"\nstart = [\"a\"]\n[[target]]\nname = \"a-aa\"\nstart = [\"a\"]\n" +
		"[[target]]\nname = \"g\"\nstart = [\"g\"]\n[[target]]\nname = \"g-aa\"\nstart = [\"g\"]\n"
	for _, c := range []struct{ name, src, want string }{
		{"both keys", "name = \"x\"\naa_pair = [\"a\", \"a-aa\"]\naa_pairs = [[\"g\", \"g-aa\"]]\n" + four + okScenario, `h.toml:3: aa_pairs: set aa_pair or aa_pairs, not both`},
		{"not a target", "name = \"x\"\naa_pairs = [[\"a\", \"a-aa\"], [\"g\", \"h\"]]\n" + four + okScenario, `h.toml:2: aa_pairs: "h" is not a target of this suite`},
		{"same twice", "name = \"x\"\naa_pairs = [[\"g\", \"g\"]]\n" + four + okScenario, `h.toml:2: aa_pairs: ["g" "g"]: name two different targets`},
		{"in two pairs", "name = \"x\"\naa_pairs = [[\"a\", \"a-aa\"], [\"a\", \"g\"]]\n" + four + okScenario, `h.toml:2: aa_pairs: "a" is in two pairs`},
	} {
		_, err := suite.ParseSuite([]byte(c.src), "h.toml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}
	s, err := suite.ParseSuite([]byte("name = \"x\"\naa_pairs = [[\"a\", \"a-aa\"], [\"g\", \"g-aa\"]]\n"+four+okScenario), "h.toml")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.AAPair, []string{"a", "a-aa"}) || len(s.AAPairs) != 2 {
		t.Errorf("aa_pair %q, aa_pairs %q", s.AAPair, s.AAPairs)
	}
}

// TestSuitePlanted checks planted_on: another target of the suite that is
// itself no planted one, at the target's line.
func TestSuitePlanted(t *testing.T) {
	targets := func(a, b string) string {
		return "name = \"x\"\n[[target]]\nname = \"a\"\nstart = [\"a\"]\n" + a +
			"[[target]]\nname = \"b\"\nstart = [\"b\"]\n" + b + okScenario
	}
	for _, c := range []struct{ name, src, want string }{
		{"itself", targets("", "planted_on = \"b\"\n"), `h.toml:8: planted_on: "b" names the target itself`},
		{"not a target", targets("", "planted_on = \"c\"\n"), `h.toml:8: planted_on: "c" is not a target of this suite`},
		{"planted on planted", targets("planted_on = \"b\"\n", "planted_on = \"a\"\n"), `planted_on: "b" is itself planted on another target`},
	} {
		_, err := suite.ParseSuite([]byte(c.src), "h.toml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}
	s, err := suite.ParseSuite([]byte(targets("", "planted_on = \"a\"\n")), "h.toml")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Planted(); len(got) != 1 || got["b"] != "a" {
		t.Errorf("Planted() = %v, want b on a", got)
	}
}

// TestSuitePackages refuses a packages name that could read outside
// node_modules, or is listed twice, at its target's packages line, and
// takes npm names, scoped ones and Go module paths.
func TestSuitePackages(t *testing.T) {
	target := func(pkgs string) string {
		return "name = \"x\"\n[[target]]\nname = \"a\"\nstart = [\"a\"]\npackages = " + pkgs + "\n" + okScenario
	}
	for _, c := range []struct{ name, pkgs, want string }{
		{"parent", `["../../etc/passwd"]`, `h.toml:5: packages: "../../etc/passwd" is not an npm package name or a Go module path`},
		{"inner parent", `["@nestjs/../../x"]`, `"@nestjs/../../x" is not`},
		{"absolute", `["/etc/passwd"]`, `"/etc/passwd" is not`},
		{"empty", `[""]`, `"" is not`},
		{"space", `["a b"]`, `"a b" is not`},
		{"twice", `["express", "express"]`, `h.toml:5: packages: "express" is listed twice`},
	} {
		_, err := suite.ParseSuite([]byte(target(c.pkgs)), "h.toml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}
	ok := `["@nestjs/platform-express", "express", "koa-static", "github.com/go-playground/validator/v10", "github.com/go-chi/chi/v5"]`
	s, err := suite.ParseSuite([]byte(target(ok)), "h.toml")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Targets[0].Packages; len(got) != 5 || got[0] != "@nestjs/platform-express" {
		t.Errorf("packages %q", got)
	}
}

// TestSuiteSpecialFiles refuses a suite, hosts file or body file that is a
// device, a FIFO or too big, at once and saying which (issue 13 item 13:
// verify -suite /dev/zero grew to 1 GB).
func TestSuiteSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.toml")
	if err := os.WriteFile(big, bytes.Repeat([]byte("# padding\n"), 200_000), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		load func() error
		want string
	}{
		{"suite /dev/zero", func() error { _, err := suite.LoadSuite("/dev/zero"); return err }, "/dev/zero: not a regular file (a device)"},
		{"suite FIFO", func() error { _, err := suite.LoadSuite(fifo); return err }, fifo + ": not a regular file (a FIFO)"},
		{"suite too big", func() error { _, err := suite.LoadSuite(big); return err }, big + ": over the 1024 KiB limit of a TOML file"},
		{"hosts /dev/zero", func() error { _, err := suite.LoadHosts("/dev/zero"); return err }, "/dev/zero: not a regular file (a device)"},
		{"body_file /dev/zero", func() error {
			_, err := suite.ParseSuite([]byte("name = \"x\"\n"+okTarget+"[[scenario]]\nname = \"p\"\nrequest = { path = \"/\", method = \"POST\", body_file = \"/dev/zero\" }\nexpect = { status = 200 }\n"), filepath.Join(dir, "s.toml"))
			return err
		}, "s.toml:7: request: body_file: /dev/zero: not a regular file (a device)"},
		{"expected body_file FIFO", func() error {
			_, err := suite.ParseSuite([]byte("name = \"x\"\n"+okTarget+"[[scenario]]\nname = \"p\"\nrequest = { path = \"/\" }\nexpect = { status = 200, body_file = \"fifo\" }\n"), filepath.Join(dir, "s.toml"))
			return err
		}, "s.toml:8: expect: body_file: " + fifo + ": not a regular file (a FIFO)"},
	} {
		done := make(chan error, 1)
		go func() { done <- c.load() }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: still reading after 5 s", c.name)
		}
	}
}

// FuzzParseSuite feeds suites built from this project's own and from the
// hostile cases above: a suite is read or refused, never a panic, and each
// problem is reported as file:line.
func FuzzParseSuite(f *testing.F) {
	suites, _ := filepath.Glob("../site/suites/*.toml")
	for _, name := range suites {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		"name = \"x\"\n[load]\nconnections = 0\nduration = \"1000h\"\n" + okTarget + okScenario,
		"name = \"x\"\n" + okTarget + "[[scenario]]\nname = \"p\"\nrequest = { path = \"/a\\r\\n\", headers = { \"x\\ny\" = \"1\\r\\n\" } }\nexpect = { status = 200 }\nload = { rate = 0 }\n",
		"name = \"x\"\naa_pair = [\"a\", \"b\"]\n[[target]]\nname = \"a\"\nstart = [\"a\"]\nenv = { \"A=B\" = \"\" }\n" + okScenario,
		"\"a\\n0\" =", // a quoted key with a newline, at the end of the file (CI's finding)
		"name = \"x\"\n[[host]]\nname = \"s\"\nssh = \"a\\u000bb\"\nroles = [\"server\"]\n" + okTarget + okScenario,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if bytes.Contains(src, []byte("body_file")) {
			return // reads files: not this target's business
		}
		s, err := suite.ParseSuite(src, "f.toml")
		if err == nil {
			if len(s.Targets) == 0 || len(s.Scenarios) == 0 {
				t.Errorf("accepted a suite without targets or scenarios")
			}
			return
		}
		for _, line := range strings.Split(err.Error(), "\n") {
			if !strings.HasPrefix(line, "f.toml:") {
				t.Errorf("a problem without file:line: %q", line)
			}
		}
	})
}

// The smallest valid target and scenario tables, for suites built in tests.

const okTarget = "[[target]]\nname=\"a\"\nstart=[\"a\"]\n"

const okScenario = "[[scenario]]\nname=\"p\"\nrequest={path=\"/\"}\nexpect={status=200}\n"
