package runjson

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// PhysicalCore names the physical core c belongs to: its sibling list, else
// its package, die and core number; "" when the kernel says neither.
func (c CPU) PhysicalCore() string {
	if c.Siblings != "" {
		return "siblings " + c.Siblings
	}
	if c.Package == nil || c.Core == nil {
		return ""
	}
	die := 0
	if c.Die != nil {
		die = *c.Die
	}
	return fmt.Sprintf("package %d die %d core %d", *c.Package, die, *c.Core)
}

// Summary is t on one line, what is unknown said so: "2 CPUs, 1 package,
// no SMT, L3 unknown, governor unknown, boost unknown".
func (t Topology) Summary() string {
	if len(t.CPUs) == 0 {
		return "topology unknown"
	}
	online := t.CPUs
	if on, ok := listed(t.Online); ok {
		online = slices.DeleteFunc(slices.Clone(t.CPUs), func(c CPU) bool { return !on[c.ID] })
	}
	parts := []string{plural(len(t.CPUs), "CPU")}
	if off := len(t.CPUs) - len(online); off > 0 {
		parts[0] += fmt.Sprintf(" (%d offline)", off)
	}
	parts = append(parts, distinct(online, "package", "packages unknown", func(c CPU) string {
		if c.Package == nil {
			return ""
		}
		return strconv.Itoa(*c.Package)
	}))
	parts = append(parts, smt(t, online))
	var p, e int
	for _, c := range online {
		p += btoi(c.Type == "P")
		e += btoi(c.Type == "E")
	}
	if p+e > 0 {
		parts = append(parts, fmt.Sprintf("hybrid: %d P and %d E threads", p, e))
	}
	parts = append(parts, distinct(online, "L3 domain", "L3 unknown", func(c CPU) string { return c.L3 }))
	var govs []string
	for _, c := range online {
		if g := strings.TrimSpace(c.Governor + " " + paren(c.Driver)); c.Governor != "" && !slices.Contains(govs, g) {
			govs = append(govs, g)
		}
	}
	if len(govs) == 0 || len(govs) < len(online) && slices.ContainsFunc(online, func(c CPU) bool { return c.Governor == "" }) {
		govs = append(govs, "unknown")
	}
	parts = append(parts, "governor "+strings.Join(govs, ", "))
	parts = append(parts, "boost "+cmp.Or(t.Boost, "unknown"))
	if t.Isolated != nil && *t.Isolated != "" {
		parts = append(parts, "isolated "+*t.Isolated)
	}
	return strings.Join(parts, ", ")
}

// smt says whether the online CPUs share physical cores.
func smt(t Topology, online []CPU) string {
	cores := map[string]bool{}
	for _, c := range online {
		k := c.PhysicalCore()
		if k == "" {
			return "SMT " + cmp.Or(t.SMTControl, "unknown")
		}
		cores[k] = true
	}
	switch {
	case t.SMTControl == "off" || t.SMTControl == "forceoff":
		return fmt.Sprintf("%s, SMT off", plural(len(cores), "core"))
	case len(cores) == len(online):
		return "no SMT"
	}
	return fmt.Sprintf("%s, SMT (%d threads)", plural(len(cores), "core"), len(online))
}

// distinct counts the distinct values of key over cpus, as "2 packages";
// unknown when any CPU has none.
func distinct(cpus []CPU, noun, unknown string, key func(CPU) string) string {
	seen := map[string]bool{}
	for _, c := range cpus {
		k := key(c)
		if k == "" {
			return unknown
		}
		seen[k] = true
	}
	return plural(len(seen), noun)
}

// listed is the CPU list's CPUs as a set; false when it is empty or not a
// CPU list.
func listed(list string) (map[int]bool, bool) {
	cpus, err := ParseCPUList(list)
	if err != nil || len(cpus) == 0 {
		return nil, false
	}
	set := make(map[int]bool, len(cpus))
	for _, c := range cpus {
		set[c] = true
	}
	return set, true
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func paren(s string) string {
	if s == "" {
		return ""
	}
	return "(" + s + ")"
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
