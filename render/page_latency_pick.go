package render

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/fairbench/fairbench/parse/verdict"
)

// medianRepNote says which repetition a latency table shows, from the
// cells' own counts: the lower-median one by throughput, of n repetitions
// the ((n+1)/2)-th from the slowest (verdict.Cell.MedianRep). "of 8
// repetitions the 4th slowest"; where the cells' counts differ, each count
// once: "of 8 repetitions the 4th slowest, of 5 the 3rd"; "" without cells.
func medianRepNote(cs []*verdict.Cell) string {
	counts := map[int]bool{}
	for _, c := range cs {
		if len(c.Reps) > 0 {
			counts[len(c.Reps)] = true
		}
	}
	ns := slices.Sorted(maps.Keys(counts))
	slices.Reverse(ns)
	var parts []string
	for i, n := range ns {
		what := fmt.Sprint(n)
		if i == 0 {
			what += " repetition"
			if n != 1 {
				what += "s"
			}
		}
		if n == 1 {
			parts = append(parts, "of "+what+" the only one")
			continue
		}
		if i == 0 {
			parts = append(parts, fmt.Sprintf("of %s the %s slowest", what, ordinal((n+1)/2)))
		} else {
			parts = append(parts, fmt.Sprintf("of %s the %s", what, ordinal((n+1)/2)))
		}
	}
	return strings.Join(parts, ", ")
}

// ordinal is n as "1st", "2nd", "3rd", "4th", … "11th", "12th", "21st".
func ordinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return fmt.Sprintf("%d%s", n, suffix)
}
