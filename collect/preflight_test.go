package collect

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/collect/machine"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

// TestMissingToolFailsFirst checks that a missing load generator, taskset,
// service binary and flock (a build into {bin} runs under it in the build
// cache) are all reported, with how to install them, before anything
// starts or any run dir is made.
func TestMissingToolFailsFirst(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	suite, err := suite.ParseSuite([]byte(`
name = "missing"
[load]
tool = "wrk"
[isolation]
server_cpus = "0"
client_cpus = "1"
[[service]]
name = "db"
version = ["postgres", "--version"]
start = ["postgres"]
[[target]]
name = "a"
build = ["/bin/true", "{bin}/a"]
start = ["/bin/true"]
[[scenario]]
name = "p"
request = { path = "/" }
expect = { status = 200 }
`), "missing.toml")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	_, err = Run(context.Background(), suite, Options{Out: out})
	if err == nil {
		t.Fatal("Run succeeded without wrk, taskset and postgres on PATH")
	}
	for _, want := range []string{"wrk not found on PATH: apt-get install wrk", "taskset not found on PATH: apt-get install util-linux", "service db: version: postgres not found on PATH: apt-get install postgresql",
		"build cache: lock: flock not found on PATH: apt-get install util-linux"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not say %q:\n%v", want, err)
		}
	}
	if entries, _ := os.ReadDir(out); len(entries) > 0 {
		t.Errorf("a run dir was made before the tools were found: %v", entries)
	}
}

// TestPortTakenNamesHolder holds a port and checks that starting a server
// on it fails with an error naming this process.
func TestPortTakenNamesHolder(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	_, err = machine.StartServer(context.Background(), &machine.Local{}, suite.Target{Name: "a", Start: []string{"/bin/true"}}, "", port, "")
	if err == nil {
		t.Fatal("a server started on a taken port")
	}
	if want := "port " + strconv.Itoa(port) + " is taken"; !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want %q", err, want)
	}
	if _, lerr := exec.LookPath("ss"); lerr != nil {
		Missing(t, "ss", "apt-get install iproute2")
	}
	if want := "pid=" + strconv.Itoa(os.Getpid()); !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want it to name the holder (%s)", err, want)
	}
}

func TestRuntimeVersionAsksTheTargetsOwnBinary(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "node_modules", ".bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	// A stand-in runtime that only answers --version.
	script := "#!/bin/sh\n[ \"$1\" = --version ] && echo 9.9.9-own\n"
	if err := os.WriteFile(filepath.Join(bin, "bun"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	v, ok := runtimeVersion(context.Background(), &machine.Local{}, suite.Target{Runtime: "bun", Start: []string{"node_modules/.bin/bun", "app.js"}}, dir)
	if !ok || v.Version != "9.9.9-own" || v.Path != filepath.Join(bin, "bun") {
		t.Errorf("runtimeVersion = %+v, %v; want the target's own bun asked", v, ok)
	}
}

// versionCounter is a machine that counts the versions asked of it.
type versionCounter struct {
	machine.Machine
	asked [][]string
}

func (m *versionCounter) Version(ctx context.Context, argv []string) (runjson.Version, error) {
	m.asked = append(m.asked, argv)
	return m.Machine.Version(ctx, argv)
}

// TestRuntimeAskedOnce: targets on one runtime binary ask it once, and
// one that starts its own binary asks that one too.
func TestRuntimeAskedOnce(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go on PATH")
	}
	tools := map[string]runjson.Version{}
	m := &versionCounter{Machine: &machine.Local{Tools: tools}}
	targets := []suite.Target{{Name: "a", Runtime: "go"}, {Name: "b", Runtime: "go"}, {Name: "c", Runtime: "go"}, {Name: "d", Runtime: "bun", Start: []string{"/nonexistent/bun"}}, {Name: "e"}}
	askRuntimes(context.Background(), m, targets, func(suite.Target) string { return "" })
	if want := [][]string{{"go", "version"}, {"/nonexistent/bun", "--version"}}; !slices.EqualFunc(m.asked, want, slices.Equal) {
		t.Errorf("asked %q, want %q", m.asked, want)
	}
	if !strings.HasPrefix(tools["go"].Version, "go version go") || tools["bun"].Version != "" {
		t.Errorf("tools %+v", tools)
	}
}
