package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pinTree is the flags that read a recorded machine of collect/pinning.
func pinTree(name string) []string {
	dir := filepath.Join("..", "..", "collect", "pinning", "testdata", name)
	return []string{"-sysfs", filepath.Join(dir, "sys"), "-procfs", filepath.Join(dir, "proc")}
}

func TestPin(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		code int
		out  []string // in stdout, in order
		err  string   // in stderr
	}{
		{"suggest ryzen", pinTree("ryzen-16c32t"), 0, []string{
			"# CPU topology", "32 CPUs, 1 package, 16 cores, SMT (32 threads), 2 L3 domains",
			"# 16   0        0    0     0,16      0-7,16-23",
			"# warning cpu-boost: boost is on", "echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost",
			"[isolation]\nserver_cpus = \"8-15,24-31\"\nclient_cpus = \"1-7,17-23\"\n"}, ""},
		{"suggest hybrid", pinTree("intel-hybrid"), 0, []string{"hybrid: 16 P and 8 E threads", "P-cores 0-15 only", "server_cpus = \"2-9\"\nclient_cpus = \"10-15\""}, ""},
		{"suggest vm", pinTree("vm"), 0, []string{"2 CPUs, 1 package, no SMT, L3 unknown, governor unknown, boost unknown", "# info pinning: topology unknown here: L3 domains", "server_cpus = \"0\"\nclient_cpus = \"1\""}, ""},
		// The benchmark page's pinning on its own Ryzen.
		{"siblings", append(pinTree("ryzen-16c32t"), "-server", "0-7", "-client", "16-31"), 1, []string{
			"pinning server_cpus = \"0-7\", client_cpus = \"16-31\":", "error pinning: the server and the client share physical cores (server/client SMT siblings: 0/16"},
			"has a problem"},
		{"spans L3", append(pinTree("ryzen-16c32t"), "-server", "4-11,20-27", "-client", "12-15,28-31"), 1, []string{"error pinning: the server's CPUs 4-11,20-27 span 2 L3 domains"}, ""},
		{"E-cores", append(pinTree("intel-hybrid"), "-server", "16-23", "-client", "0-15"), 1, []string{"error pinning: the server runs on E-cores 16-23"}, ""},
		{"fine", append(pinTree("ryzen-16c32t"), "-server", "0-7,16-23", "-client", "8-15,24-31"), 0, []string{"warning cpu-governor", "warning cpu-boost"}, ""},
		{"fine vm", append(pinTree("vm"), "-server", "0", "-client", "1"), 0, []string{"info pinning: topology unknown here"}, ""},
		{"malformed", append(pinTree("vm"), "-server", "0-", "-client", "1"), 2, nil, `server CPUs: CPU list "0-"`},
		{"no such CPU", append(pinTree("vm"), "-server", "0", "-client", "5"), 2, nil, "this machine has no CPU 5 (it has 0-1)"},
		{"one set", append(pinTree("vm"), "-server", "0"), 2, nil, "-server and -client go together"},
		{"format", []string{"-format", "yaml"}, 2, nil, `-format "yaml"`},
		{"nothing known", []string{"-sysfs", "testdata/none", "-procfs", "testdata/none"}, 0, []string{"CPU topology (testdata/none and testdata/none): topology unknown", "# topology unknown: the kernel lists no CPUs here", "# no [isolation] suggested"}, ""},
	} {
		stdout, stderr, code := runCLI(t, append([]string{"pin"}, c.args...)...)
		if code != c.code || !strings.Contains(stderr, c.err) {
			t.Errorf("%s: exit %d, stderr %q; want %d and %q", c.name, code, stderr, c.code, c.err)
		}
		rest := stdout
		for _, want := range c.out {
			i := strings.Index(rest, want)
			if i < 0 {
				t.Errorf("%s: no %q (in order) in\n%s", c.name, want, stdout)
				break
			}
			rest = rest[i+len(want):]
		}
	}
}

// TestPinJSON: -format json carries the suggestion, the topology and the
// findings.
func TestPinJSON(t *testing.T) {
	stdout, stderr, code := runCLI(t, append([]string{"pin", "-format", "json"}, pinTree("intel-hybrid")...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r struct {
		Server   string `json:"server_cpus"`
		Client   string `json:"client_cpus"`
		Topology struct {
			CPUs []struct {
				Type string `json:"type"`
			} `json:"cpus"`
			Boost string `json:"boost"`
		} `json:"topology"`
		Findings []struct{ Rule, Level string } `json:"findings"`
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if r.Server != "2-9" || r.Client != "10-15" || len(r.Topology.CPUs) != 24 || r.Topology.CPUs[20].Type != "E" || r.Topology.Boost != "on" {
		t.Errorf("json: %+v", r)
	}
	if len(r.Findings) != 2 || r.Findings[0].Rule != "cpu-governor" || r.Findings[1].Rule != "cpu-boost" {
		t.Errorf("findings: %+v", r.Findings)
	}
}

// TestPinPastes: the suggestion, pasted into a suite, passes the audit of
// -suite.
func TestPinPastes(t *testing.T) {
	stdout, _, code := runCLI(t, append([]string{"pin"}, pinTree("ryzen-16c32t")...)...)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	suite := filepath.Join(t.TempDir(), "s.toml")
	src := "name = \"x\"\n" + stdout + "\n[[target]]\nname = \"a\"\nstart = [\"a\"]\n\n[[scenario]]\nname = \"p\"\nrequest = { path = \"/\" }\nexpect = { status = 200 }\n"
	if err := os.WriteFile(suite, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runCLI(t, append([]string{"pin", "-suite", suite}, pinTree("ryzen-16c32t")...)...)
	if code != 0 || !strings.Contains(out, `pinning server_cpus = "8-15,24-31", client_cpus = "1-7,17-23":`) || strings.Contains(out, "error pinning") {
		t.Errorf("exit %d, %s\n%s", code, stderr, out)
	}
	_, stderr, code = runCLI(t, append([]string{"pin", "-suite", suite, "-server", "0"}, pinTree("vm")...)...)
	if code != 2 || !strings.Contains(stderr, "-suite and -server/-client together") {
		t.Errorf("-suite with -server: exit %d, %s", code, stderr)
	}
}
