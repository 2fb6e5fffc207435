package collect_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairbench/fairbench/collect"
	"github.com/fairbench/fairbench/collect/suite"
	"github.com/fairbench/fairbench/parse/runjson"
)

const serviceSuite = `
name = "services"

[load]
tool = "bombardier"
connections = 2
duration = "1s"
warmup = "0s"
repetitions = 1
# capped: plumbing, not speed; uncapped, every window takes both cores
# from the tests running beside it
rate = 1000

SERVICE

[[target]]
name = "app"
start = ["HI"]
env = { BODY = "DSN" }

[[scenario]]
name = "ping"
request = { path = "/" }
expect = { status = 200 }
`

// runServiceSuite collects a suite whose target's BODY names the service,
// and returns the manifest and the target's transcript.
func runServiceSuite(t *testing.T, service, dsn string) (runjson.Manifest, string) {
	t.Helper()
	src := strings.NewReplacer("SERVICE", service, "HI", buildHi(t), "DSN", dsn).Replace(serviceSuite)
	st, err := suite.ParseSuite([]byte(src), "services.toml")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir, err := collect.Run(ctx, st, collect.Options{Out: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	transcript, err := os.ReadFile(filepath.Join(dir.Path, "conformance", "app.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return dir.Manifest(), string(transcript)
}

// TestService starts a small real service (another hiserver) before the
// target, seeds it, passes its port to the target, records its version,
// and stops it after the run.
func TestService(t *testing.T) {
	t.Parallel()
	// A copy of its own: the test looks for it among every process.
	svc := filepath.Join(t.TempDir(), "svc")
	hi, err := os.ReadFile(collect.BuiltBinary(t, "hiserver"))
	if err == nil {
		err = os.WriteFile(svc, hi, 0o755)
	}
	if err != nil {
		t.Fatal(err)
	}
	seeded := filepath.Join(t.TempDir(), "seeded")
	m, transcript := runServiceSuite(t, `
[[service]]
name = "cache"
version = ["sh", "-c", "echo cache 1.2.3; echo more"]
start = ["`+svc+`"]
env = { BODY = "service on {port}" }
seed = ["sh", "-c", "echo {port} > `+seeded+`"]
`, "cache at {cache.port}")
	if v := m.Tools["cache"]; v.Version != "cache 1.2.3" {
		t.Errorf("tools[cache] = %+v, want version %q", v, "cache 1.2.3")
	}
	if len(m.Services) != 1 || m.Services[0].Port == 0 || m.Services[0].StartupS <= 0 {
		t.Fatalf("services %+v", m.Services)
	}
	port := strconv.Itoa(m.Services[0].Port)
	if b, err := os.ReadFile(seeded); err != nil || strings.TrimSpace(string(b)) != port {
		t.Errorf("seed wrote %q (%v), want the port %s", b, err, port)
	}
	if !strings.Contains(transcript, `"cache at `+port+`"`) {
		t.Errorf("the target did not get {cache.port} = %s:\n%s", port, transcript)
	}
	for _, p := range allPids() {
		if exe, _ := os.Readlink("/proc/" + strconv.Itoa(p) + "/exe"); exe == svc {
			t.Errorf("service process %d still runs after the run", p)
		}
	}
}

// TestServicePostgres starts a real PostgreSQL (Debian's postgresql
// package), checks readiness with pg_isready and seeds it with psql.
func TestServicePostgres(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts PostgreSQL")
	}
	pg := map[string]string{}
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	for _, c := range []string{"initdb", "postgres", "pg_isready", "psql"} {
		if len(bins) > 0 {
			pg[c] = filepath.Join(bins[len(bins)-1], c) // Debian keeps them off PATH
		} else if p, err := exec.LookPath(c); err == nil {
			pg[c] = p
		}
		if _, err := os.Stat(pg[c]); pg[c] == "" || err != nil {
			t.Skipf("%s not found: apt-get install postgresql (.ci/run does)", c)
		}
	}
	m, transcript := runServiceSuite(t, `
[[service]]
name = "pg"
user = "postgres"
version = ["`+pg["postgres"]+`", "--version"]
init = ["`+pg["initdb"]+`", "-D", "{dir}/data", "-U", "bench", "--auth=trust", "--no-sync"]
start = ["`+pg["postgres"]+`", "-D", "{dir}/data", "-p", "{port}", "-k", "{dir}", "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"]
ready = ["`+pg["pg_isready"]+`", "-q", "-h", "127.0.0.1", "-p", "{port}"]
seed = ["`+pg["psql"]+`", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", "{port}", "-U", "bench", "-d", "postgres", "-c", "CREATE TABLE world (id int); INSERT INTO world VALUES (1)"]
`, "postgres://bench@127.0.0.1:{pg.port}/postgres")
	if v := m.Tools["pg"]; !strings.HasPrefix(v.Version, "postgres (PostgreSQL)") {
		t.Errorf("tools[pg] = %+v, want postgres --version's line", v)
	}
	if len(m.Services) != 1 || m.Services[0].SeedS <= 0 {
		t.Fatalf("services %+v, want pg seeded", m.Services)
	}
	if want := "postgres://bench@127.0.0.1:" + strconv.Itoa(m.Services[0].Port) + "/postgres"; !strings.Contains(transcript, want) {
		t.Errorf("transcript does not show %s:\n%s", want, transcript)
	}
	if m.Status != runjson.StatusComplete || len(m.Measurements) != 1 {
		t.Errorf("status %s with %d measurements", m.Status, len(m.Measurements))
	}
}
