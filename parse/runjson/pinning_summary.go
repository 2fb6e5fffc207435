package runjson

import (
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
	parts = append(parts, "boost "+or(t.Boost, "unknown"))
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
			return "SMT " + or(t.SMTControl, "unknown")
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

// listed reads a CPU list without strides ("0-3,8", as the kernel writes
// its own); false when it is empty or not one.
func listed(list string) (map[int]bool, bool) {
	cpus := map[int]bool{}
	for _, item := range strings.Split(list, ",") {
		lo, hi, isRange := strings.Cut(item, "-")
		a, err := strconv.Atoi(lo)
		b := a
		if err == nil && isRange {
			b, err = strconv.Atoi(hi)
		}
		if err != nil || a < 0 || b < a || b-a > 8192 {
			return nil, false
		}
		for c := a; c <= b; c++ {
			cpus[c] = true
		}
	}
	return cpus, true
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

func or(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
