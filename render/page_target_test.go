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

// TestTargetPackages writes framework versions into a copy of the fixture
// run's run.json, as the collector records them, and finds them in one
// table on the target pages: gin's two packages in order, chi's unread one
// as —, and no table for stdlib, which names none.
func TestTargetPackages(t *testing.T) {
	dir := fixtureRun(t)
	pkg := func(name, version, source string) map[string]any {
		return map[string]any{"name": name, "version": version, "source": source}
	}
	rewriteRunJSON(t, dir, func(run map[string]any) {
		for _, v := range run["targets"].([]any) {
			tr := v.(map[string]any)
			switch tr["name"] {
			case "gin":
				tr["packages"] = []any{pkg("github.com/gin-gonic/gin", "v1.12.0", "go version -m {tmp}/bin/gin/server"), pkg("github.com/go-playground/validator/v10", "v10.30.1", "go version -m {tmp}/bin/gin/server")}
			case "chi":
				tr["packages"] = []any{pkg("github.com/go-chi/chi/v5", "", "go version -m {tmp}/bin/chi/server")}
			}
		}
	})
	set, errs := parse.ReadAll([]string{dir})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	out := build(t, set, nil)
	row := func(name, version, source string) string {
		return "<tr><td><code>" + name + "</code></td><td>" + version + "</td><td><code>" + source + "</code></td></tr>\n"
	}
	for target, want := range map[string]string{
		"gin": row("github.com/gin-gonic/gin", "v1.12.0", "go version -m {tmp}/bin/gin/server") +
			row("github.com/go-playground/validator/v10", "v10.30.1", "go version -m {tmp}/bin/gin/server"),
		"chi":    row("github.com/go-chi/chi/v5", "—", "go version -m {tmp}/bin/chi/server"),
		"stdlib": "",
	} {
		page, err := os.ReadFile(filepath.Join(out, "target", target+".html"))
		if err != nil {
			t.Fatal(err)
		}
		tables := strings.Count(string(page), `<table class="packages">`)
		switch {
		case want == "" && tables != 0:
			t.Errorf("%s: %d package tables, want none", target, tables)
		case want != "" && (tables != 1 || !strings.Contains(string(page), "<tbody>\n"+want+"</tbody>")):
			t.Errorf("%s: %d package tables, want one with\n%s", target, tables, want)
		}
	}
}

// TestTargetBuildCached: a target whose build ran against a warm build
// cache (run.json's build_cached) has its build time said to be that, not
// a cold build; the others keep the plain label.
func TestTargetBuildCached(t *testing.T) {
	dir := fixtureRun(t)
	rewriteRunJSON(t, dir, func(run map[string]any) {
		for _, v := range run["targets"].([]any) {
			if tr := v.(map[string]any); tr["name"] == "gin" {
				tr["build_cached"] = true
			}
		}
	})
	set, errs := parse.ReadAll([]string{dir})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	out := build(t, set, nil)
	for target, want := range map[string]string{
		"gin": `<th scope="row">build time (warm build cache)</th><td title="the build tool&#39;s up-to-date check`,
		"chi": `<th scope="row">build time</th><td title="from `,
	} {
		page, err := os.ReadFile(filepath.Join(out, "target", target+".html"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(page), want) {
			t.Errorf("%s: the page lacks %s", target, want)
		}
	}
}
