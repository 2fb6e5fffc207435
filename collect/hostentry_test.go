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
