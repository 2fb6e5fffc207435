package audit

import (
	"slices"
	"strings"
)

// capitalize is s with its first byte in upper case.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// uniqueSorted is s sorted, each value once.
func uniqueSorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return slices.Compact(out)
}

// scopeSpace is scope and a space, or "" when scope is "".
func scopeSpace(scope string) string {
	if scope == "" {
		return ""
	}
	return scope + " "
}

// joinWords writes "a", "a and b", "a, b and c".
func joinWords(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
