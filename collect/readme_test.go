package collect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/collect/suite"
)

// TestREADMESuite parses the full suite example of the README, so that the
// documentation cannot drift from the keys the loader takes.
func TestREADMESuite(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Skip("no README next to the package")
	}
	_, rest, ok := strings.Cut(string(b), "## A suite file")
	if !ok {
		t.Fatal("README has no \"## A suite file\" section")
	}
	_, rest, _ = strings.Cut(rest, "```toml\n")
	example, _, ok := strings.Cut(rest, "```")
	if !ok {
		t.Fatal("README's suite section has no ```toml block")
	}
	s, err := suite.ParseSuite([]byte(example), "README.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Services) != 1 || len(s.Targets) != 1 || len(s.Scenarios) != 3 {
		t.Fatalf("README example: %d services, %d targets, %d scenarios; want 1, 1, 3", len(s.Services), len(s.Targets), len(s.Scenarios))
	}
	if l := s.LoadFor(s.Scenarios[1]); l.Tool != "autocannon" || l.Pipelining != 4 {
		t.Errorf("body scenario load = %+v, want autocannon with pipelining 4", l)
	}
}

// TestREADMEHosts loads the hosts file of the README's hosts section.
func TestREADMEHosts(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Skip("no README next to the package")
	}
	_, rest, ok := strings.Cut(string(b), "## Hosts")
	if !ok {
		t.Fatal("README has no \"## Hosts\" section")
	}
	_, rest, _ = strings.Cut(rest, "```toml\n")
	example, _, _ := strings.Cut(rest, "```")
	name := filepath.Join(t.TempDir(), "hosts.toml")
	if err := os.WriteFile(name, []byte(example), 0o644); err != nil {
		t.Fatal(err)
	}
	hosts, err := suite.LoadHosts(name)
	if err != nil {
		t.Fatal(err)
	}
	if len(hosts) != 2 || hosts[0].Roles[0] != suite.RoleServer || hosts[1].Roles[0] != suite.RoleClient {
		t.Errorf("README hosts: %+v", hosts)
	}
}
