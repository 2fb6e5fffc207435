package collect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/collect/suite"
)

func TestLoadHostsErrors(t *testing.T) {
	cases := []struct{ text, want string }{
		{"[[host]]\nname = \"a\"\nssh = \"x\"\nroles = [\"client\"]\n", `hosts.toml:4: roles: no host has the role "server"`},
		{"[[host]]\nname = \"a\"\nssh = \"x\"\nroles = [\"db\"]\n", `hosts.toml:4: roles: "db": a host is a "server" or a "client"`},
		{"[[host]]\nname = \"a\"\nssh = \"-oProxyCommand=x\"\nroles = [\"server\"]\n", `hosts.toml:3: ssh: "-oProxyCommand=x"`},
		{"[[host]]\nname = \"a/b\"\nssh = \"x\"\nroles = [\"server\"]\n", `hosts.toml:2: name: "a/b"`},
		{"[[host]]\nname = \"a\"\nssh = \"x\"\nroles = [\"server\"]\n[[host]]\nname = \"b\"\nssh = \"y\"\nroles = [\"server\"]\n", `hosts.toml:8: roles: a second "server"`},
		{"[[host]]\nname = \"a\"\nssh = \"x\"\nrole = \"server\"\n", `hosts.toml:4: unknown key "host.role"`},
		{"name = \"x\"\n", `unknown key "name"`},
		{"", `no [[host]] table`},
	}
	for _, c := range cases {
		name := filepath.Join(t.TempDir(), "hosts.toml")
		os.WriteFile(name, []byte(c.text), 0o644)
		_, err := suite.LoadHosts(name)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err = %v, want %q", c.text, err, c.want)
		}
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"plain/path-1.0": "plain/path-1.0",
		"":               "''",
		"a b":            "'a b'",
		"it's":           `'it'\''s'`,
		"$(rm -rf /)":    "'$(rm -rf /)'",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestReadToolEnd(t *testing.T) {
	log := "0m0.001s 0m0.002s\n0m1.500s 1m0.250s\n" +
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  tool.out\n" +
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b856  tool.err\n" +
		"120 tool.out\n0 tool.err\nfairbench-rc 3\n"
	e, ok := readToolEnd(log)
	if !ok || e.status != 3 || e.cpu != 61.75 || e.size != [2]int64{120, 0} || e.sha[1][63] != '6' {
		t.Errorf("readToolEnd = %+v, %v", e, ok)
	}
	if _, ok := readToolEnd("Connection to x closed\n"); ok {
		t.Error("readToolEnd read a status from a lost link's output")
	}
	if _, ok := readToolEnd(strings.Replace(log, "  tool.err", "  other", 1)); ok {
		t.Error("readToolEnd took a line for another file")
	}
}
