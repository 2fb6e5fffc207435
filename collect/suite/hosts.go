package suite

import (
	"errors"
	"slices"
	"strings"

	"github.com/fairbench/fairbench/parse/tomlfile"
)

// HostEntry is a [[host]] table of a suite or a hosts file: how to reach
// a machine over SSH, and its roles. A suite with hosts runs its targets on the host with the server
// role and its load generator on the host with the client role.
type HostEntry struct {
	Name string `toml:"name"`
	// SSH is the destination as ssh takes it: [user@]address.
	SSH        string   `toml:"ssh"`
	Port       int      `toml:"port"`        // 0: ssh's default (22, or the ssh config's)
	Identity   string   `toml:"identity"`    // private key file, -i
	KnownHosts string   `toml:"known_hosts"` // UserKnownHostsFile; empty: ssh's own
	Config     string   `toml:"config"`      // ssh config file, -F; empty: ssh's own
	Roles      []string `toml:"roles"`       // "server", "client"
	// Dir is fairbench's work folder on the host (copied targets, builds,
	// tools, scratch); relative paths are under the login's home. Empty:
	// ".cache/fairbench-remote".
	Dir string `toml:"dir"`
	// Address is where the client host reaches this host's targets; empty:
	// the address part of SSH.
	Address string `toml:"address"`
}

// LoadHosts reads a hosts file: [[host]] tables as in a suite. Hosts kept
// apart from the suite let one suite (one suite hash) run on several host
// pairs, a shard on each.
func LoadHosts(path string) ([]HostEntry, error) {
	src, err := tomlfile.Read(path)
	if err != nil {
		return nil, err
	}
	var f struct {
		Hosts []HostEntry `toml:"host"`
	}
	keys, err := tomlfile.Decode(path, src, &f, "")
	if err != nil {
		return nil, err
	}
	s := &Suite{File: path, Source: src, Hosts: f.Hosts, keys: keys}
	e := &suiteErrors{s: s}
	if len(f.Hosts) == 0 {
		e.add("", "host", "no [[host]] table")
	}
	s.checkHosts(e)
	return f.Hosts, errors.Join(e.errs...)
}

// WithHosts returns the suite with hosts in place of its own [[host]]
// tables; its hash stays the suite file's. The hosts are checked as in a
// suite.
func (s *Suite) WithHosts(hosts []HostEntry) (*Suite, error) {
	c := *s
	c.Hosts = hosts
	return &c, nil
}

// HasRole reports whether a host of the suite has role.
func (s *Suite) HasRole(role string) bool {
	return slices.ContainsFunc(s.Hosts, func(h HostEntry) bool { return slices.Contains(h.Roles, role) })
}

// checkHosts checks the [[host]] tables: named, reachable by a destination,
// one server and at most one client.
func (s *Suite) checkHosts(e *suiteErrors) {
	names := nameSet{}
	has := map[string]int{}
	for i, h := range s.Hosts {
		p := at("host", i)
		checkName(e, p, h.Name, names)
		if h.SSH == "" || strings.HasPrefix(h.SSH, "-") || strings.ContainsAny(h.SSH, "'\"") || HasControl(h.SSH, false) {
			e.add(p, "ssh", "%q: give the destination as ssh takes it: [user@]address", h.SSH)
		}
		if h.Port < 0 || h.Port > 65535 {
			e.add(p, "port", "%d is not a port", h.Port)
		}
		if len(h.Roles) == 0 {
			e.add(p, "roles", "missing: [\"server\"], [\"client\"] or both")
		}
		for _, r := range h.Roles {
			if r != RoleServer && r != RoleClient {
				e.add(p, "roles", "%q: a host is a %q or a %q (services run on the server host, beside the targets)", r, RoleServer, RoleClient)
			}
			has[r]++
			if has[r] == 2 {
				e.add(p, "roles", "a second %q: a run has one server host and one client host (shard the suite to use more)", r)
			}
		}
	}
	if len(s.Hosts) > 0 && has[RoleServer] == 0 {
		e.add(at("host", 0), "roles", "no host has the role %q: the targets run there", RoleServer)
	}
}

// Host roles in a suite's [[host]] tables.
const (
	RoleServer = "server"
	RoleClient = "client"
)
