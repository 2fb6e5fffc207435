package collect_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse"
)

// toolSuite drives the stdlib server with TOOL: a GET, a POST with a
// header and a body, and a third scenario (EXTRA) that exercises a load
// key the tool supports.
const toolSuite = `
name = "tools"

[load]
tool = "TOOL"
connections = 8
threads = 2
duration = "1s"
warmup = "0s"
repetitions = 1
timeout = "2s"

[[target]]
name = "stdlib"
runtime = "go"
start = ["BIN"]

[[scenario]]
name = "ping"
request = { method = "GET", path = "/" }
expect = { status = 200, headers = { content-type = "text/plain*" }, body = "Hi" }

[[scenario]]
name = "body"
request = { method = "POST", path = "/json", headers = { content-type = "application/json" }, body = '{"hello":"world"}' }
expect = { status = 200, headers_match = { content-type = '^application/json' }, body_json = '{ "hello": "world" }', body_length = 17 }

[[scenario]]
name = "extra"
request = { method = "GET", path = "/id/1?name=bun" }
expect = { status = 200, body = "1 bun" }
load = { EXTRA }
`

// TestToolsAgainstGoServer runs wrk, bombardier and autocannon for real
// against the stdlib server and checks that parse reads every dump, that
// the requests were the suite's (no error statuses), and that CPU time and
// peak RSS were taken.
func TestToolsAgainstGoServer(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("drives the real load generators")
	}
	bin := collect.BuiltBinary(t, "stdlib")
	for _, c := range []struct {
		tool, extra string
		// check looks at the "extra" scenario's measurement.
		check func(t *testing.T, m *parse.Measurement)
	}{
		{"wrk", "pipelining = 4", func(t *testing.T, m *parse.Measurement) {
			if m.Threads != 2 {
				t.Errorf("wrk threads %d, want 2", m.Threads)
			}
		}},
		{"bombardier", "rate = 200", func(t *testing.T, m *parse.Measurement) {
			if m.Requests > 600 { // uncapped, it makes thousands
				t.Errorf("bombardier capped at 200/s made %d requests in 1s", m.Requests)
			}
		}},
		{"autocannon", "pipelining = 4, rate = 300", func(t *testing.T, m *parse.Measurement) {
			if m.Pipelining != 4 {
				t.Errorf("autocannon pipelining %d, want 4", m.Pipelining)
			}
			if m.Requests > 900 { // uncapped, it makes thousands
				t.Errorf("autocannon capped at 300/s made %d requests in 1s", m.Requests)
			}
		}},
	} {
		t.Run(c.tool, func(t *testing.T) {
			t.Parallel()
			if c.tool == "wrk" {
				if _, err := exec.LookPath("wrk"); err != nil {
					collect.Missing(t, "wrk", "apt-get install wrk")
				}
			}
			src := strings.NewReplacer("TOOL", c.tool, "BIN", bin, "EXTRA", c.extra).Replace(toolSuite)
			st, err := suite.ParseSuite([]byte(src), "tools.toml")
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			var progress bytes.Buffer
			dir, err := collect.Run(ctx, st, collect.Options{Out: t.TempDir(), Progress: collect.NewLineProgress(&progress)})
			if err != nil {
				t.Fatalf("%v\n%s", err, progress.String())
			}
			m := dir.Manifest()
			if v := m.Tools[c.tool]; v.Version == "" || len(v.Asked) == 0 {
				t.Errorf("tools[%s] = %+v: the version must be asked of the binary", c.tool, v)
			}
			if len(m.Measurements) != 3 {
				t.Fatalf("%d measurements, want 3 (no warm-ups with warmup = \"0s\"):\n%s", len(m.Measurements), progress.String())
			}
			for _, mr := range m.Measurements {
				if mr.ExitStatus != 0 || mr.Error != "" {
					t.Errorf("%s: exit %d %s", mr.Dump, mr.ExitStatus, mr.Error)
				}
				if mr.ServerCPUSeconds <= 0 || mr.ClientCPUSeconds <= 0 {
					t.Errorf("%s: server %.3f s, client %.3f s of CPU, want both > 0", mr.Dump, mr.ServerCPUSeconds, mr.ClientCPUSeconds)
				}
				if mr.RSSPeak <= 0 || mr.RSSPeak < mr.RSSBefore {
					t.Errorf("%s: peak RSS %d, RSS before %d", mr.Dump, mr.RSSPeak, mr.RSSBefore)
				}
				pm := readDump(t, filepath.Join(dir.Path, mr.Dump))
				if pm.Tool != c.tool {
					t.Errorf("%s: parse says tool %q", mr.Dump, pm.Tool)
				}
				if pm.Requests <= 0 || pm.GoodRequests() != pm.Requests {
					t.Errorf("%s: %d requests, %d good: the tool's requests must get 2xx\n%s", mr.Dump, pm.Requests, pm.GoodRequests(), readFile(t, filepath.Join(dir.Path, mr.Dump)))
				}
				if mr.Scenario == "extra" {
					c.check(t, pm)
				}
			}
		})
	}
}

// readDump parses a dump that must hold exactly one measurement.
func readDump(t *testing.T, name string) *parse.Measurement {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := parse.NewReader(f, name)
	var ms []*parse.Measurement
	for r.Scan() {
		if m, ok := r.Result().(*parse.Measurement); ok {
			ms = append(ms, m)
		}
	}
	if err := r.Err(); err != nil {
		t.Fatalf("parse %s: %v", name, err)
	}
	if len(ms) != 1 {
		t.Fatalf("%s: %d measurements, want 1:\n%s", name, len(ms), readFile(t, name))
	}
	return ms[0]
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, _ := os.ReadFile(name)
	return string(b)
}
