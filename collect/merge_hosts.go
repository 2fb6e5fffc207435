package collect

import (
	"cmp"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/fairbench/fairbench/parse/runjson"
)

// hostSet is the merged run's hosts, unique by name.
type hostSet struct {
	hosts []runjson.Host
}

// addShard adds a shard's SSH hosts and, when anything ran there, the
// shard's own machine. It returns the merged names of the shard's hosts
// that had to change and the merged name of its own machine.
func (hs *hostSet) addShard(s shardRun) (rename map[string]string, local string) {
	rename = map[string]string{}
	for _, h := range s.m.Hosts {
		if got := hs.add(h); got != h.Name {
			rename[h.Name] = got
		}
	}
	var roles []string
	server := slices.ContainsFunc(s.m.Measurements, func(mr runjson.Measurement) bool { return mr.ServerHost == "" }) ||
		slices.ContainsFunc(s.m.Targets, func(t runjson.Target) bool { return t.Host == "" })
	if server {
		roles = append(roles, "server")
	}
	if slices.ContainsFunc(s.m.Measurements, func(mr runjson.Measurement) bool { return mr.ClientHost == "" }) {
		roles = append(roles, "client")
	}
	name := cmp.Or(s.m.Facts.Hostname, "host")
	if len(roles) == 0 {
		return rename, name
	}
	return rename, hs.add(runjson.Host{Name: name, Roles: roles, Facts: s.m.Facts, Tools: s.m.Tools})
}

// add adds h under its name, or under name#2, name#3, … when a host of that
// name with other facts is there already, and returns the name it has. A
// host of that name with the same facts is the same machine: its roles and
// tools are joined.
func (hs *hostSet) add(h runjson.Host) string {
	for n := 1; ; n++ {
		name := h.Name
		if n > 1 {
			name = fmt.Sprintf("%s#%d", h.Name, n)
		}
		i := slices.IndexFunc(hs.hosts, func(o runjson.Host) bool { return o.Name == name })
		if i < 0 {
			h.Name = name
			h.Roles, h.Tools = slices.Clone(h.Roles), maps.Clone(h.Tools)
			hs.hosts = append(hs.hosts, h)
			return name
		}
		o := &hs.hosts[i]
		if !sameMachine(o.Facts, h.Facts) {
			continue
		}
		for _, r := range h.Roles {
			if !slices.Contains(o.Roles, r) {
				o.Roles = append(o.Roles, r)
			}
		}
		for k, v := range h.Tools {
			if _, ok := o.Tools[k]; !ok {
				if o.Tools == nil {
					o.Tools = map[string]runjson.Version{}
				}
				o.Tools[k] = v
			}
		}
		return name
	}
}

// sameMachine reports whether two host facts describe the same machine:
// every fact but the load average, which changes by the minute.
func sameMachine(a, b runjson.Facts) bool {
	a.LoadAvg, b.LoadAvg = nil, nil
	return reflect.DeepEqual(a, b)
}
