package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse"
)

// TestTargetAutocannonTables renders a post of three pasted autocannon
// runs and finds on each target's page every cell of its Latency, Req/Sec
// and Bytes/Sec rows, in the post's order and spelling.
func TestTargetAutocannonTables(t *testing.T) {
	post := filepath.Join("..", "parse", "testdata", "post-autocannon-9.0.0__benchmarking_collapsed.md")
	set, errs := parse.ReadAll([]string{post})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	out := build(t, set, nil)
	text, err := os.ReadFile(post)
	if err != nil {
		t.Fatal(err)
	}
	rows := postRows(string(text))
	if len(rows) != 3 {
		t.Fatalf("%d runs in %s, want 3", len(rows), post)
	}
	for target, want := range rows {
		page, err := os.ReadFile(filepath.Join(out, "target", strings.ToLower(target)+".html"))
		if err != nil {
			t.Fatal(err)
		}
		for _, cells := range want {
			var row strings.Builder
			for _, c := range cells {
				row.WriteString(`<td class="num">` + c + `</td>`)
			}
			if !strings.Contains(string(page), row.String()) {
				t.Errorf("%s's target page lacks the row %q as autocannon printed it", target, cells)
			}
		}
	}
}

// postRows reads, per "Benchmarking X at" line of a post, the cells of the
// Latency, Req/Sec and Bytes/Sec rows after it.
func postRows(post string) map[string][][]string {
	rows := map[string][][]string{}
	target := ""
	for _, l := range strings.Split(post, "\n") {
		if _, rest, ok := strings.Cut(l, "Benchmarking "); ok {
			target, _, _ = strings.Cut(rest, " at ")
			continue
		}
		cells := strings.Split(strings.Trim(l, "│ "), "│")
		switch strings.TrimSpace(cells[0]) {
		case "Latency", "Req/Sec", "Bytes/Sec":
			var want []string
			for _, c := range cells[1:] {
				want = append(want, strings.TrimSpace(c))
			}
			rows[target] = append(rows[target], want)
		}
	}
	return rows
}
