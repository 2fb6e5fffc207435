package history

import (
	"cmp"
	"maps"
	"slices"

	"github.com/fairbench/fairbench/parse"
)

// Histories groups a set's run dirs by suite, each suite's runs in the
// order they started (ties by id), with their keys. Runs read from dumps
// without a run dir have no suite and no start: they make no history.
func Histories(set *parse.Set) map[string][]Entry {
	byID := map[string]*Run{}
	for _, r := range RunsOf(set) {
		byID[r.ID] = r
	}
	runs := slices.Clone(set.Runs)
	slices.SortStableFunc(runs, func(a, b *parse.Run) int {
		return cmp.Or(a.Start.Compare(b.Start), cmp.Compare(a.ID, b.ID))
	})
	out := map[string][]Entry{}
	for _, pr := range runs {
		r, ok := byID[pr.ID]
		if !ok || pr.Suite == "" || pr.ID == "" {
			continue
		}
		out[pr.Suite] = append(out[pr.Suite], Entry{Run: r, Key: KeyOf(pr, set), Versions: versions(pr)})
	}
	return out
}

// ChangesOf is every suite's changes in set, suites in name order: the
// list results.json writes as "changes", empty (not nil) when none.
func ChangesOf(set *parse.Set) []Change {
	return ChangesIn(FindAll(Histories(set)))
}

// FindAll searches every suite's history in hs (Histories' shape, each
// suite's entries in the order its runs started), each once. A reader
// that sees runs one at a time keeps their entries (Histories of a set of
// one run) and asks here.
func FindAll(hs map[string][]Entry) map[string]Steps {
	out := make(map[string]Steps, len(hs))
	for suite, e := range hs {
		out[suite] = Find(suite, e)
	}
	return out
}

// ChangesIn is the changes of every suite FindAll searched, suites in
// name order; empty (not nil) when none.
func ChangesIn(found map[string]Steps) []Change {
	out := []Change{}
	for _, suite := range slices.Sorted(maps.Keys(found)) {
		out = append(out, found[suite].Changes...)
	}
	return out
}

// versions are the package versions of each target of a run dir.
func versions(r *parse.Run) map[string]Key {
	out := map[string]Key{}
	for _, t := range r.Targets {
		var k Key
		for _, p := range t.Packages {
			k = append(k, Field{p.Name, p.Version})
		}
		out[t.Name] = k
	}
	return out
}
