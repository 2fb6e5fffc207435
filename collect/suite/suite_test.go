package suite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const okTarget = "[[target]]\nname=\"a\"\nstart=[\"a\"]\n"

const okScenario = "[[scenario]]\nname=\"p\"\nrequest={path=\"/\"}\nexpect={status=200}\n"

func TestParseSuiteErrors(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"unknown key", "name = \"x\"\n[load]\ntoolz = \"wrk\"\n", `s.toml:3: unknown key "load.toolz"`},
		{"bad type", "name = \"x\"\n[load]\nconnections = \"many\"\n", "s.toml:3:"},
		{"bad duration", "name = \"x\"\n[load]\nduration = \"ten\"\n", "s.toml:3:"},
		{"no name", okTarget + okScenario, "s.toml:1: name: missing"},
		{"no targets", "name = \"x\"\n", "s.toml:1: target: no [[target]]"},
		{"bad name", "name = \"x\"\n[[target]]\nname = \"../etc\"\nstart = [\"a\"]\n", `s.toml:3: name: "../etc": use letters`},
		{"no start", "name = \"x\"\n[[target]]\nname = \"a\"\n", "s.toml:2: start: missing"},
		{"bad tool", "name = \"x\"\n[load]\ntool = \"ab\"\n", `s.toml:3: tool: "ab" is not`},
		{"bad path", "name=\"x\"\n" + okTarget + "[[scenario]]\nname=\"p\"\nrequest={path=\"x\"}\nexpect={status=200}\n", "s.toml:7: request: path"},
		{"negative", "name=\"x\"\n[load]\nconnections = -1\n" + okTarget + okScenario, "s.toml:3: connections: -1 is negative"},
		{"negative warmup", "name=\"x\"\n[load]\nwarmup = \"-1s\"\n" + okTarget + okScenario, `s.toml:3: warmup: -1s is negative: write "0s"`},
		{"wrk rate", "name=\"x\"\n[load]\ntool = \"wrk\"\nrate = 100\n" + okTarget + okScenario, "s.toml:4: rate: wrk has no rate cap"},
		{"wrk threads", "name=\"x\"\n[load]\ntool = \"wrk\"\nthreads = 4\nconnections = 2\n" + okTarget + okScenario, "s.toml:4: threads: wrk needs at least as many connections (2) as threads (4)"},
		{"bombardier pipelining", "name=\"x\"\n" + okTarget + okScenario + "load = { pipelining = 8 }\n", "s.toml:9: load.pipelining: bombardier cannot pipeline"},
		{"short window", "name=\"x\"\n[load]\nduration = \"100ms\"\n" + okTarget + okScenario, "s.toml:3: duration: 100ms is shorter than 1s"},
		{"bad cpus", "name=\"x\"\n[isolation]\nserver_cpus = \"zero\"\n" + okTarget + okScenario, `s.toml:3: server_cpus: "zero" is not a CPU list`},
		{"retake slow", "name=\"x\"\n[isolation]\nretake_slow = 1.01\n" + okTarget + okScenario, `s.toml:3: retake_slow: 1.01: give the slowdown`},
		{"bad status", "name=\"x\"\n" + okTarget + "[[scenario]]\nname=\"p\"\nrequest={path=\"/\"}\nexpect={status=2000}\n", "s.toml:8: expect: status 2000"},
		{"two bodies", "name=\"x\"\n" + okTarget + "[[scenario]]\nname=\"p\"\nrequest={path=\"/\"}\nexpect={status=200, body=\"a\", body_json=\"{}\"}\n", "s.toml:8: expect: body, body_file and body_json are exclusive"},
		{"bad json", "name=\"x\"\n" + okTarget + "[[scenario]]\nname=\"p\"\nrequest={path=\"/\"}\nexpect={status=200, body_json=\"{\"}\n", "s.toml:8: expect: body_json is not valid JSON"},
		{"bad regexp", "name=\"x\"\n" + okTarget + "[[scenario]]\nname=\"p\"\nrequest={path=\"/\"}\nexpect={status=200, headers_match={etag=\"(\"}}\n", "s.toml:8: expect: headers_match.etag: error parsing regexp"},
		{"bad sha", "name=\"x\"\n" + okTarget + "[[scenario]]\nname=\"p\"\nrequest={path=\"/\"}\nexpect={status=200, body_sha256=\"abc\"}\n", "s.toml:8: expect: body_sha256 \"abc\" is not 64 hex digits"},
		{"variant", "name=\"x\"\n" + okTarget + okScenario + "[[scenario.variant]]\nrequest={path=\"/\", method=\"get\"}\nexpect={status=200}\n", `s.toml:10: request: method "get" is not an upper-case HTTP method`},
		{"missing body file", "name=\"x\"\n" + okTarget + "[[scenario]]\nname=\"p\"\nrequest={path=\"/\", method=\"POST\", body_file=\"nope.bin\"}\nexpect={status=200}\n", `s.toml:7: request: body_file: open nope.bin: no such file`},
		{"service", "name=\"x\"\n[[service]]\nname=\"db\"\n" + okTarget + okScenario, "s.toml:2: start: missing"},
		{"service version", "name=\"x\"\n[[service]]\nname=\"db\"\nstart=[\"db\"]\n" + okTarget + okScenario, "s.toml:2: version: missing: the argv that prints its version"},
		{"service key", "name=\"x\"\n[[service]]\nname=\"db\"\nstrat=[\"db\"]\n", `s.toml:4: unknown key "service.strat"`},
	} {
		_, err := ParseSuite([]byte(c.src), "s.toml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}
}

func TestLoadFor(t *testing.T) {
	zero, two := Duration(0), Duration(2*time.Second)
	s := &Suite{Load: Load{Connections: 10, Duration: Duration(3 * time.Second), Warmup: &two}}
	for _, c := range []struct {
		name        string
		override    Load
		connections int
		warmup      time.Duration
	}{
		{"suite", Load{}, 10, 2 * time.Second},
		{"override", Load{Connections: 2}, 2, 2 * time.Second},
		{"no warm-up", Load{Warmup: &zero}, 10, 0},
	} {
		got := s.LoadFor(Scenario{Load: c.override})
		if got.Connections != c.connections || got.WarmupWindow() != c.warmup || got.Duration.Std() != 3*time.Second || got.Tool != DefaultLoad.Tool {
			t.Errorf("%s: LoadFor = %+v, warm-up %v; want %d connections, warm-up %v", c.name, got, got.WarmupWindow(), c.connections, c.warmup)
		}
	}
	if got := (&Suite{}).LoadFor(Scenario{}); got.WarmupWindow() != DefaultLoad.WarmupWindow() {
		t.Errorf("default warm-up %v, want %v", got.WarmupWindow(), DefaultLoad.WarmupWindow())
	}
}

func TestWarmupZeroFromTOML(t *testing.T) {
	s, err := ParseSuite([]byte("name=\"x\"\n[load]\nwarmup = \"0s\"\n"+okTarget+okScenario), "s.toml")
	if err != nil {
		t.Fatal(err)
	}
	if w := s.LoadFor(s.Scenarios[0]).WarmupWindow(); w != 0 {
		t.Errorf("warmup = \"0s\" gives a %v warm-up, want none", w)
	}
}

func TestBodyFiles(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "req.json"), []byte(`{"a":1}`), 0o644)
	os.WriteFile(filepath.Join(dir, "resp.bin"), []byte("\x00\x01"), 0o644)
	src := "name=\"x\"\n" + okTarget + "[[scenario]]\nname=\"p\"\nrequest={path=\"/\", method=\"POST\", body_file=\"req.json\"}\nexpect={status=200, body_file=\"resp.bin\"}\n"
	path := filepath.Join(dir, "s.toml")
	os.WriteFile(path, []byte(src), 0o644)
	s, err := LoadSuite(path)
	if err != nil {
		t.Fatal(err)
	}
	sc := s.Scenarios[0]
	if sc.Request.Body != `{"a":1}` || sc.Request.BodyPath != filepath.Join(dir, "req.json") {
		t.Errorf("request body %q from %q", sc.Request.Body, sc.Request.BodyPath)
	}
	if sc.Expect.Body == nil || *sc.Expect.Body != "\x00\x01" {
		t.Errorf("expected body %v", sc.Expect.Body)
	}
}
