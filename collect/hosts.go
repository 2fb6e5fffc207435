package collect

import (
	"bytes"
	"errors"
	"os"
	"slices"

	"github.com/pelletier/go-toml/v2"
)

// LoadHosts reads a hosts file: [[host]] tables as in a suite. Hosts kept
// apart from the suite let one suite (one suite hash) run on several host
// pairs, a shard on each.
func LoadHosts(path string) ([]HostEntry, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f struct {
		Hosts []HostEntry `toml:"host"`
	}
	dec := toml.NewDecoder(bytes.NewReader(src))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, suiteDecodeError(path, err)
	}
	s := &Suite{File: path, Source: src, Hosts: f.Hosts}
	e := &suiteErrors{s: s}
	if len(f.Hosts) == 0 {
		e.add("", 0, "host", "no [[host]] table")
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

// hasRole reports whether a host of the suite has role.
func (s *Suite) hasRole(role string) bool {
	return slices.ContainsFunc(s.Hosts, func(h HostEntry) bool { return slices.Contains(h.Roles, role) })
}
