package render

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/verdict"
)

// bunLayout is bun-http-framework-benchmark's results.md, in site.toml.
const bunLayout = `
[results_md]
sort = "average"
decimals = 3
columns = [
  { title = "Framework", value = "target" },
  { title = "Runtime", value = "runtime" },
  { title = "Average", value = "average" },
  { title = "Ping", value = "scenario:ping" },
  { title = "Query", value = "scenario:query" },
  { title = "Body", value = "scenario:body" },
  { title = "Video", value = "scenario:video" },
  { title = "Bundle Size", value = "artifact" },
  { title = "Startup", value = "startup" },
  { title = "Memory Before/After", value = "memory" },
]
`

// TestResultsMDBunLayout renders bun-http-framework-benchmark's own dumps
// (parse/testdata/bun) in its layout and compares with the results.md its
// harness built from the same dumps: the same rows and columns, the same
// facts, and every req/s within 1% of the published one. The published
// table shows bombardier's own figure (a mean of sampled rates); fairbench
// shows completed requests ÷ window, which differ by about 0.4% there (the
// audit's -table check accepts either: parse/audit's TestAuditTableDumps).
func TestResultsMDBunLayout(t *testing.T) {
	root := filepath.Join("..", "parse", "testdata", "bun", "ba1520c", "results")
	want, err := os.ReadFile(filepath.Join(root, "results.md"))
	if err != nil {
		t.Skip("parse/testdata/bun is not there:", err)
	}
	site, err := ParseSite([]byte(bunLayout), "site.toml")
	if err != nil {
		t.Fatal(err)
	}
	set, errs := parse.ReadAll([]string{root})
	for _, err := range errs {
		t.Logf("reading the bun dumps: %v", err)
	}
	got := ResultsMarkdown(set, site, verdict.Thresholds{})
	gotRows, wantRows := mdRows(got), mdRows(want)
	if len(gotRows) != len(wantRows) {
		t.Fatalf("%d rows, want %d\n%s", len(gotRows), len(wantRows), got)
	}
	if strings.Join(gotRows[0], "|") != strings.Join(wantRows[0], "|") {
		t.Errorf("heading %q, want %q", gotRows[0], wantRows[0])
	}
	byName := map[string][]string{}
	for _, r := range gotRows[1:] {
		byName[r[0]+"/"+r[1]] = r
	}
	for _, w := range wantRows[1:] {
		g := byName[w[0]+"/"+w[1]]
		if g == nil {
			t.Errorf("no row for %s on %s", w[0], w[1])
			continue
		}
		for col := range w {
			gv, gok := bunNumber(g[col])
			wv, wok := bunNumber(w[col])
			switch {
			case col >= 2 && col <= 6 && gok && wok:
				if math.Abs(gv/wv-1) > 0.01 {
					t.Errorf("%s/%s %s: %s, published %s: more than 1%% apart", w[0], w[1], wantRows[0][col], g[col], w[col])
				}
			case col >= 7 && len(set.Targets) > 0 && g[col] != w[col]:
				t.Errorf("%s/%s %s: %s, published %s", w[0], w[1], wantRows[0][col], g[col], w[col])
			}
		}
	}
}

// bunNumber reads a req/s cell of the bun table ("262,146.763").
func bunNumber(s string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
	return v, err == nil && v > 0
}

// mdRows splits a Markdown table into trimmed cells, without the heading
// rule and without the notes after the table's first blank line.
func mdRows(b []byte) [][]string {
	var rows [][]string
	table, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n\n")
	for _, line := range strings.Split(table, "\n") {
		if strings.Contains(line, "---") {
			continue
		}
		var cells []string
		// Split at the pipes a Markdown table splits at: not "\|".
		line = strings.ReplaceAll(strings.Trim(line, "|"), `\|`, "\x00")
		for _, c := range strings.Split(line, "|") {
			c = strings.ReplaceAll(c, "\x00", `\|`)
			cells = append(cells, strings.TrimSpace(c))
		}
		rows = append(rows, cells)
	}
	return rows
}

func TestGrouped(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{262146.7634, "262,146.763"}, {418, "418"}, {1625.4, "1,625.4"}, {177178.3, "177,178.3"},
		{164676.94, "164,676.94"}, {0.0004, "0"}, {-1234.5, "-1,234.5"}, {999.9996, "1,000"},
	} {
		if got := Grouped(c.v, 3); got != c.want {
			t.Errorf("Grouped(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

// TestGroup checks the whole-number grouping every count on the site
// uses, signs and the int64 extremes included.
func TestGroup(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0", 999: "999", 1000: "1,000", -999: "-999", -1000: "-1,000", 1234567: "1,234,567",
		math.MaxInt64: "9,223,372,036,854,775,807", math.MinInt64: "-9,223,372,036,854,775,808",
	} {
		if got := group(n); got != want {
			t.Errorf("group(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestRewriteReadme(t *testing.T) {
	path := filepath.Join(t.TempDir(), "README.md")
	os.WriteFile(path, []byte("# Bench\n\nIntro.\n\n<!-- fairbench:start -->\nold table\n<!-- fairbench:end -->\n\nMore.\n"), 0o644)
	table := []byte("| a |\n| --- |\n| 1 |\n")
	changed, err := RewriteReadme(path, table)
	if err != nil || !changed {
		t.Fatalf("changed %v, err %v", changed, err)
	}
	got, _ := os.ReadFile(path)
	want := "# Bench\n\nIntro.\n\n<!-- fairbench:start -->\n\n| a |\n| --- |\n| 1 |\n\n<!-- fairbench:end -->\n\nMore.\n"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if changed, err := RewriteReadme(path, table); err != nil || changed {
		t.Errorf("second rewrite: changed %v, err %v", changed, err)
	}
	os.WriteFile(path, []byte("no markers\n"), 0o644)
	if _, err := RewriteReadme(path, table); err == nil || !strings.Contains(err.Error(), "no <!-- fairbench:start -->") {
		t.Errorf("no markers: %v", err)
	}
}

// TestResultsMDEscapes renders hostile names through results.md and
// checks every one stays text in its cell: no HTML, no markup, no extra
// cell or row, and a name carrying the README's end marker does not break
// the next rewrite.
func TestResultsMDEscapes(t *testing.T) {
	hostile := []string{"<b>x</b>", "a|b", "a\nb", "a&amp;b", "*em* _u_ `code` [l](u)", ReadmeEnd, "=cmd", "\xff\xfe"}
	for _, name := range hostile {
		got := escapeCell(name)
		for _, bad := range []string{"<", ">", "\n", "\r"} {
			if strings.Contains(got, bad) {
				t.Errorf("escapeCell(%q) = %q keeps %q", name, got, bad)
			}
		}
		if strings.Count(got, "|") != strings.Count(got, `\|`) {
			t.Errorf("escapeCell(%q) = %q has an unescaped pipe", name, got)
		}
		for _, mark := range []string{"*", "_", "`", "["} {
			if strings.Count(got, mark) != strings.Count(got, `\`+mark) {
				t.Errorf("escapeCell(%q) = %q has an unescaped %q", name, got, mark)
			}
		}
	}
	if got := escapeCell("a&amp;b"); got != "a&amp;amp;b" {
		t.Errorf("an entity in a name must show as written: %q", got)
	}
	table := markdownTable([][]string{{"Target", "n"}, {ReadmeEnd + "|x\ny", "1"}}, []bool{false, true})
	src := []byte("intro\n" + ReadmeStart + "\nold\n" + ReadmeEnd + "\nend\n")
	once, err := spliceReadme(src, table)
	if err != nil {
		t.Fatal(err)
	}
	twice, err := spliceReadme(once, table)
	if err != nil {
		t.Fatalf("the second rewrite fails after a name with the end marker: %v\n%s", err, once)
	}
	if !bytes.Equal(once, twice) {
		t.Errorf("the second rewrite changed the README:\n%s\n---\n%s", once, twice)
	}
	if rows := mdRows(table); len(rows) != 2 || len(rows[1]) != 2 {
		t.Errorf("the hostile name split the table: %q", rows)
	}
}

// TestScenarioTitle checks an unnamed scenario or a name that is not UTF-8
// gets a heading without U+FFFD.
func TestScenarioTitle(t *testing.T) {
	for in, want := range map[string]string{"": "(unnamed scenario)", "ping": "Ping", "\xffab": "\xffab", "été": "Été"} {
		got := scenarioTitle(in)
		if got != want || strings.Contains(got, "\uFFFD") {
			t.Errorf("scenarioTitle(%q) = %q, want %q", in, got, want)
		}
	}
	if got := titleCase(""); got != "" {
		t.Errorf("titleCase(\"\") = %q", got)
	}
}

// TestResultsMDPerRun: the committed site's results.md never ranks across
// runs: a table per run on show under its heading, each target at most
// once in a table, and every Ping figure the median of that run's own
// cell (results.json), not another run's.
func TestResultsMDPerRun(t *testing.T) {
	md := projectPage(t, "results.md")
	var doc struct {
		Cells []struct {
			Run, Scenario, Name string
			Median              float64
		}
	}
	if err := json.Unmarshal([]byte(projectPage(t, "results.json")), &doc); err != nil {
		t.Fatal(err)
	}
	median := map[[3]string]float64{}
	for _, c := range doc.Cells {
		median[[3]string{c.Run, c.Scenario, c.Name}] = c.Median
	}
	sections := regexp.MustCompile(`(?m)^### (\S+) \(run (\S+)\)$`).FindAllStringSubmatchIndex(md, -1)
	if len(sections) < 3 {
		t.Fatalf("results.md has %d run tables, want one per run on show with a Ping column (3)", len(sections))
	}
	checked := 0
	for i, sec := range sections {
		run := md[sec[4]:sec[5]]
		end := len(md)
		if i+1 < len(sections) {
			end = sections[i+1][0]
		}
		seen := map[string]bool{}
		for _, line := range strings.Split(md[sec[1]:end], "\n") {
			cells := strings.Split(line, "|")
			if len(cells) < 6 || strings.Contains(line, "---") || strings.Contains(line, "Framework") {
				continue
			}
			name, ping := strings.TrimSpace(cells[1]), strings.TrimSpace(cells[4]) // Framework, Runtime, Average, Ping
			if seen[name] {
				t.Errorf("results.md: %s twice in the table of run %s", name, run)
			}
			seen[name] = true
			want, ok := median[[3]string{run, "ping", name}]
			if !ok {
				if ping != "n/a" {
					t.Errorf("results.md: %s in run %s shows Ping %s, the run has no such cell", name, run, ping)
				}
				continue
			}
			if ping != Grouped(want, 0) {
				t.Errorf("results.md: %s in run %s shows Ping %s, that run's median is %s", name, run, ping, Grouped(want, 0))
			}
			checked++
		}
	}
	if checked < 20 {
		t.Errorf("%d Ping figures checked, want the 25 of the three runs", checked)
	}
}
