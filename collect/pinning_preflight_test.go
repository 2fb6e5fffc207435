package collect

import (
	"github.com/fairbench/fairbench/parse/audit"

	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect/pinning"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse"
)

// TestPinningRefused: on the recorded Ryzen, the benchmark page's pinning
// (wrk on the SMT siblings of the server's cores) stops collect and verify
// before anything starts, and says how to go on.
func TestPinningRefused(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("pinning", "testdata", "ryzen-16c32t")
	ryzen := pinning.Roots{Sys: filepath.Join(dir, "sys"), Proc: filepath.Join(dir, "proc")}
	src := strings.ReplaceAll(gateSuite, "BIN", "/bin/true") + "\n[isolation]\nserver_cpus = \"0-7\"\nclient_cpus = \"16-31\"\n"
	suite, err := suite.ParseSuite([]byte(src), "ryzen.toml")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	_, err = Run(context.Background(), suite, Options{Out: out, pinningRoots: ryzen})
	for _, want := range []string{`ryzen.toml: isolation: server_cpus = "0-7", client_cpus = "16-31" on this machine: the server and the client share physical cores (server/client SMT siblings: 0/16`, "or run anyway with -force-pinning"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("collect: error %v, want %q", err, want)
		}
	}
	if entries, _ := os.ReadDir(out); len(entries) > 0 {
		t.Errorf("a run dir was made: %v", entries)
	}
	if _, err := Verify(context.Background(), suite, Options{pinningRoots: ryzen}); err == nil || !strings.Contains(err.Error(), "share physical cores") {
		t.Errorf("verify: error %v", err)
	}
	// A CPU the machine does not have is refused even when forced.
	suite.Isolation.ClientCPUs = "32"
	if _, err := Verify(context.Background(), suite, Options{ForcePinning: true, pinningRoots: ryzen}); err == nil || !strings.Contains(err.Error(), "this machine has no CPU 32 (it has 0-31)") {
		t.Errorf("verify, CPU 32, forced: error %v", err)
	}
}

// TestPinningForced runs a short collect on this machine with server and
// client on one CPU under -force-pinning: run.json records the topology
// and the problem, and the run's audit reports it as rule pinning.
func TestPinningForced(t *testing.T) {
	t.Parallel()
	bin := buildHiServer(t)
	// no warm-up: the run is read for its pinning, not its numbers
	src := strings.NewReplacer("BIN", bin, `warmup = "1s"`, `warmup = "0s"`).Replace(gateSuite) + "\n[isolation]\nserver_cpus = \"0\"\nclient_cpus = \"0\"\n"
	suite, err := suite.ParseSuite([]byte(src), "same.toml")
	if err != nil {
		t.Fatal(err)
	}
	suite.Targets = suite.Targets[:1]
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir, err := Run(ctx, suite, Options{Out: t.TempDir(), ForcePinning: true})
	if err != nil {
		t.Fatal(err)
	}
	p := dir.Manifest().Facts.Pinning
	if p == nil || !p.Forced || p.ServerCPUs != "0" || len(p.Topology.CPUs) != len(pinning.Read(pinning.DefaultRoots).CPUs) {
		t.Fatalf("run.json host.pinning: %+v", p)
	}
	set, errs := parse.ReadAll([]string{dir.Path})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var found bool
	for _, f := range audit.Audit(set, audit.AuditOptions{}) {
		if f.Rule == audit.RulePinning && f.Level == audit.LevelError {
			found = strings.Contains(f.Message, "CPU 0 is in both the server's and the client's set") && strings.HasSuffix(f.Message, "(collect ran with -force-pinning)")
		}
	}
	if !found {
		t.Errorf("the audit has no pinning error for CPU 0 in both sets, forced")
	}
}
