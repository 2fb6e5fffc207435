package render

import (
	"sort"
	"time"
)

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
