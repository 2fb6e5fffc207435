package suite

import (
	"regexp"
	"strings"
)

// MaxName is the longest target, scenario, service or host name, in
// characters. A name becomes a folder and a file name in the run dir
// (dumps/<target>/<scenario>/), so it must fit in one path component with
// room to spare on every file system.
const MaxName = 64

// namePattern is what target, scenario, service and host names may be:
// they become paths and placeholders.
var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// Runtimes are the values a target's runtime may take; each is asked its
// version (collect's runtimeFlags) and recorded in run.json. A target
// that runs none of them leaves runtime out.
var Runtimes = []string{"go", "node", "bun", "deno"}

// nameSet holds the names seen so far in one kind of table, keyed by
// their lower case: two names that differ only in case would share a
// folder on a case-insensitive disk (macOS, Windows).
type nameSet map[string]string

// has reports whether name, exactly as written, is in the set.
func (n nameSet) has(name string) bool { return n[strings.ToLower(name)] == name }

// checkName checks a [[table]]'s name: present, path-safe, at most
// MaxName characters and unique, case aside.
func checkName(e *suiteErrors, path, name string, seen nameSet) {
	key := strings.ToLower(name)
	first, dup := seen[key]
	switch {
	case name == "":
		e.add(path, "name", "missing")
	case !namePattern.MatchString(name):
		e.add(path, "name", "%q: use letters, digits, '.', '_' and '-' only, starting with a letter or digit", name)
	case len(name) > MaxName:
		e.add(path, "name", "%q is %d characters: keep it to %d (it becomes a folder in the run dir)", name, len(name), MaxName)
	case dup && first == name:
		e.add(path, "name", "%q is listed twice", name)
	case dup:
		e.add(path, "name", "%q differs from %q only in case: rename one (they would share a folder on a case-insensitive disk)", name, first)
	}
	if !dup {
		seen[key] = name
	}
}

// checkRuntime checks a target's runtime: empty or one of Runtimes.
func checkRuntime(e *suiteErrors, path, runtime string) {
	if runtime == "" {
		return
	}
	for _, r := range Runtimes {
		if runtime == r {
			return
		}
	}
	e.add(path, "runtime", "%q is not one of %s: name the runtime the target runs on, or leave runtime out", runtime, strings.Join(Runtimes, ", "))
}
