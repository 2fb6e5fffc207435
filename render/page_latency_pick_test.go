package render

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

func TestMedianRepNote(t *testing.T) {
	cell := func(n int) *verdict.Cell { return &verdict.Cell{Reps: make([]*parse.Measurement, n)} }
	for _, tc := range []struct {
		ns   []int
		want string
	}{
		{[]int{8, 8}, "of 8 repetitions the 4th slowest"},
		{[]int{4}, "of 4 repetitions the 2nd slowest"},
		{[]int{5, 8, 5}, "of 8 repetitions the 4th slowest, of 5 the 3rd"},
		{[]int{1}, "of 1 repetition the only one"},
		{[]int{3, 1}, "of 3 repetitions the 2nd slowest, of 1 the only one"},
		{nil, ""},
	} {
		var cs []*verdict.Cell
		for _, n := range tc.ns {
			cs = append(cs, cell(n))
		}
		if got := medianRepNote(cs); got != tc.want {
			t.Errorf("medianRepNote(%v) = %q, want %q", tc.ns, got, tc.want)
		}
	}
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 22: "22nd", 101: "101st", 111: "111th"} {
		if got := ordinal(n); got != want {
			t.Errorf("ordinal(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestLatencyNoteCounts: on the committed site, the repetition each
// scenario page's latency table names agrees with the cells' counts of the
// runs on show (the newest run of each suite), as results.json gives them:
// every count once, each with its lower median.
func TestLatencyNoteCounts(t *testing.T) {
	var doc struct {
		Runs  []struct{ ID, Suite string }
		Cells []struct {
			Run, Scenario string
			N             int
		}
	}
	if err := json.Unmarshal([]byte(projectPage(t, "results.json")), &doc); err != nil {
		t.Fatal(err)
	}
	newest := map[string]string{}
	for _, r := range doc.Runs {
		newest[r.Suite] = max(newest[r.Suite], r.ID)
	}
	shown := map[string]bool{}
	for _, id := range newest {
		shown[id] = true
	}
	counts := map[string][]int{}
	for _, c := range doc.Cells {
		if shown[c.Run] && c.N > 0 && !slices.Contains(counts[c.Scenario], c.N) {
			counts[c.Scenario] = append(counts[c.Scenario], c.N)
		}
	}
	note := regexp.MustCompile(`an observed run, linked to its dump; ([^)]*)\)`)
	part := regexp.MustCompile(`of (\d+)(?: repetitions?)? the (\w+)`)
	checked := 0
	for s, want := range counts {
		m := note.FindStringSubmatch(projectPage(t, "scenario/"+s+".html"))
		if m == nil {
			continue // no latency table
		}
		var got []int
		for _, p := range part.FindAllStringSubmatch(m[1], -1) {
			n, _ := strconv.Atoi(p[1])
			got = append(got, n)
			if wantOrd := ordinal((n + 1) / 2); n > 1 && p[2] != wantOrd {
				t.Errorf("scenario %s: %q names the %s of %d repetitions, the lower median is the %s", s, m[1], p[2], n, wantOrd)
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("scenario %s: the latency table says %q (counts %v), its cells have %v repetitions", s, m[1], got, want)
		}
		checked++
	}
	if checked < 10 {
		t.Errorf("%d scenario pages checked, want every scenario with a latency table (over 10)", checked)
	}
}
