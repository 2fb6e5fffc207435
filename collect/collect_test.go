package collect

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/rundir"
	"github.com/fairbench/fairbench/parse/runjson"
)

// buildHiServer is testdata/hiserver, built once per test binary.
func buildHiServer(t *testing.T) string {
	t.Helper()
	return testBinary(t, "hiserver")
}

const gateSuite = `
name = "gate"

[load]
tool = "bombardier"
connections = 4
duration = "1s"
warmup = "1s"
repetitions = 1
# capped: plumbing, not speed; uncapped, every window takes both cores
# from the tests running beside it
rate = 1000

[[target]]
name = "good"
start = ["BIN"]
env = { BODY = "Hi" }

[[target]]
name = "bad"
start = ["BIN"]
env = { BODY = "Hi!" }

[[scenario]]
name = "ping"
request = { method = "GET", path = "/" }
expect = { status = 200, headers = { content-type = "text/plain*" }, body = "Hi" }
`

func TestGateSkipsWrongBytes(t *testing.T) {
	t.Parallel()
	bin := buildHiServer(t)
	// aa_pair and planted_on (here only to see them carried into run.json
	// and read back).
	src := strings.Replace(strings.ReplaceAll(gateSuite, "BIN", bin), "name = \"gate\"\n", "name = \"gate\"\naa_pair = [\"good\", \"bad\"]\n", 1)
	src = strings.Replace(src, "name = \"bad\"\n", "name = \"bad\"\nplanted_on = \"good\"\n", 1)
	// good's packages: its module's version, read from the binary it starts.
	src = strings.Replace(src, "name = \"good\"\n", "name = \"good\"\nruntime = \"go\"\npackages = [\"github.com/fairbench/fairbench\"]\n", 1)
	suite, err := suite.ParseSuite([]byte(src), "gate.toml")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir, err := Run(ctx, suite, Options{Out: out})
	if !errors.Is(err, ErrGateFailed) || !strings.Contains(err.Error(), "bad (ping)") {
		t.Fatalf("err = %v, want ErrGateFailed naming bad (ping): a target failed the gate", err)
	}
	m := dir.Manifest()
	if m.Status != runjson.StatusComplete {
		t.Errorf("status %q, want %q", m.Status, runjson.StatusComplete)
	}
	run, err := parse.ReadRun(dir.Path)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(run.AAPair, []string{"good", "bad"}) {
		t.Errorf("run.json aa_pair read back as %q, want [good bad]", run.AAPair)
	}
	if len(run.Planted) != 1 || run.Planted["bad"] != "good" {
		t.Errorf("run.json planted read back as %v, want bad on good", run.Planted)
	}
	verdicts := map[string]string{}
	for _, tr := range m.Targets {
		verdicts[tr.Name] = tr.Conformance
	}
	checkGoodPackages(t, m, bin)
	if verdicts["good"] != "pass" || verdicts["bad"] != "fail" {
		t.Errorf("verdicts %v, want good pass, bad fail", verdicts)
	}
	transcript, err := os.ReadFile(filepath.Join(dir.Path, "conformance", "bad.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(transcript), `got  3 bytes: "Hi!"`) || !strings.Contains(string(transcript), "FAIL") {
		t.Errorf("bad transcript does not show the byte diff:\n%s", transcript)
	}
	for _, mr := range m.Measurements {
		if mr.Target == "bad" {
			t.Errorf("bad target was measured: %+v", mr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir.Path, "dumps", "bad")); !os.IsNotExist(err) {
		t.Errorf("dumps/bad exists (err %v); a failing target must leave no dump", err)
	}
	var measured int
	for _, mr := range m.Measurements {
		b, err := os.ReadFile(filepath.Join(dir.Path, mr.Dump))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		if hex.EncodeToString(sum[:]) != mr.SHA256 {
			t.Errorf("%s: sha256 differs from run.json", mr.Dump)
		}
		if !mr.Warmup {
			measured++
		}
	}
	if measured != 1 {
		t.Errorf("%d measurements of good, want 1", measured)
	}
}

func TestVerify(t *testing.T) {
	t.Parallel()
	bin := buildHiServer(t)
	suite, err := suite.ParseSuite([]byte(strings.ReplaceAll(gateSuite, "BIN", bin)), "gate.toml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Verify(context.Background(), suite, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 || len(res[0].Failed) != 0 || len(res[1].Failed) != 1 {
		t.Errorf("verify = %+v, want good passing and bad failing ping", res)
	}
}

// checkGoodPackages checks that run.json records the good target's module
// version as the test binary's own build info gives it (hiserver is built
// in the same module), and no packages for bad, which names none.
func checkGoodPackages(t *testing.T, m runjson.Manifest, bin string) {
	t.Helper()
	info, ok := debug.ReadBuildInfo()
	if !ok {
		t.Fatal("the test binary has no build info")
	}
	want := map[string][]runjson.Package{
		// run.json names the binary as rundir.PortablePath writes it: {tmp}/….
		"good": {{Name: info.Main.Path, Version: info.Main.Version, Source: "go version -m " + rundir.PortablePath((&collector{}).places(), bin)}},
		"bad":  nil,
	}
	for _, tr := range m.Targets {
		if !reflect.DeepEqual(tr.Packages, want[tr.Name]) {
			t.Errorf("%s: packages %+v, want %+v", tr.Name, tr.Packages, want[tr.Name])
		}
	}
}
