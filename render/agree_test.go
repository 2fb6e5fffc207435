package render

import (
	"html"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The numbers a reader meets on two pages of the project's site must be
// one number: the audit's totals on the index and on soft.html, the A/A
// twins' difference on results.html and soft.html, and each cell's rank
// and geometric mean in results.html's long table and on its scenario's
// page. TestNumbersAgreeAcrossPages reads them off the rendered HTML, as
// a reader would, and counts every disagreement.

var (
	rowRe    = regexp.MustCompile(`(?s)<tr>(.*?)</tr>`)
	cellRe   = regexp.MustCompile(`(?s)<t[dh](?:\s[^>]*)?>(.*?)</t[dh]>`)
	tagRe    = regexp.MustCompile(`<[^>]+>`)
	changeRe = regexp.MustCompile(`([+\-−]?\d+(?:\.\d+)?)%`)
)

// cellTexts are the texts of a table row's cells, tags stripped.
func cellTexts(row string) []string {
	var out []string
	for _, m := range cellRe.FindAllStringSubmatch(row, -1) {
		out = append(out, strings.TrimSpace(html.UnescapeString(tagRe.ReplaceAllString(m[1], ""))))
	}
	return out
}

// section is page from the first occurrence of start to the next end
// after it; "" when start is not there.
func section(page, start, end string) string {
	i := strings.Index(page, start)
	if i < 0 {
		return ""
	}
	j := strings.Index(page[i:], end)
	if j < 0 {
		return page[i:]
	}
	return page[i : i+j]
}

// percentOf is the relative change a text prints ("~ +1.2%" → 0.012).
func percentOf(s string) (float64, bool) {
	m := changeRe.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(strings.Replace(m[1], "−", "-", 1), 64)
	return v / 100, err == nil
}

func TestNumbersAgreeAcrossPages(t *testing.T) {
	index := projectPage(t, "index.html") // builds the site, or skips under -short
	soft := projectPage(t, "soft.html")
	results := projectPage(t, "results.html")
	disagree := 0
	check := func(what string, a, b any, ok bool) {
		t.Helper()
		if !ok {
			disagree++
			t.Errorf("%s: %v on one page, %v on the other", what, a, b)
		}
	}

	// The audit's totals.
	onIndex := regexp.MustCompile(`Where these numbers are soft</a>: (\d+) errors, (\d+) warnings, (\d+) notes`).FindStringSubmatch(index)
	onSoft := regexp.MustCompile(`What the audit found: (\d+) errors?, (\d+) warnings?, (\d+) notes?\.`).FindStringSubmatch(soft)
	if onIndex == nil || onSoft == nil {
		t.Fatalf("the audit's totals: index %q, soft.html %q", onIndex, onSoft)
	}
	for i, level := range []string{"errors", "warnings", "notes"} {
		check("audit "+level, onIndex[i+1], onSoft[i+1], onIndex[i+1] == onSoft[i+1])
	}

	// The twins: results.html's A/A table against soft.html's floors.
	twins := map[[3]string]float64{} // first, second, scenario → second ÷ first − 1, as soft.html prints it
	pair, floors := "", section(soft, `<section id="noise-floors">`, `</section>`)
	for _, row := range rowRe.FindAllStringSubmatch(floors, -1) {
		cs := cellTexts(row[1])
		if strings.Contains(row[1], "rowspan") && len(cs) >= 8 {
			pair, cs = cs[1], cs[4:]
		}
		names := strings.Split(pair, " = ")
		if len(names) != 2 || len(cs) < 2 {
			continue
		}
		if v, ok := percentOf(cs[1]); ok {
			twins[[3]string{names[0], names[1], cs[0]}] = v
		}
	}
	aa := section(results, `A/A: one program under two names`, `</section>`)
	heads := cellTexts(section(aa, "<thead>", "</thead>"))
	compared := 0
	for _, row := range rowRe.FindAllStringSubmatch(section(aa, "<tbody>", "</tbody>"), -1) {
		cs := cellTexts(row[1])
		if len(cs) != len(heads) || len(cs) < 3 {
			continue
		}
		for k := 2; k < len(cs); k++ {
			v, ok := percentOf(cs[k])
			if !ok {
				continue
			}
			s := heads[k]
			if w, found := twins[[3]string{cs[0], cs[1], s}]; found {
				compared++
				check("A/A "+cs[0]+" → "+cs[1]+" in "+s, v, w, math.Abs(v-w) <= 0.0035)
			} else if w, found := twins[[3]string{cs[1], cs[0], s}]; found {
				compared++
				check("A/A "+cs[1]+" → "+cs[0]+" in "+s, 1/(1+v)-1, w, math.Abs(1/(1+v)-1-w) <= 0.0035)
			}
		}
	}
	if compared < 5 {
		t.Errorf("%d A/A differences found on both pages; the site's twins have more", compared)
	}

	// Each cell's rank and geometric mean: the long table and its scenario's page.
	type key struct{ scenario, target string }
	type shown struct{ rank, geo string }
	long := map[key][]shown{}
	for _, row := range rowRe.FindAllStringSubmatch(section(results, `<table id="cells"`, `</table>`), -1) {
		if cs := cellTexts(row[1]); len(cs) == 8 && !strings.Contains(row[1], "<th") {
			k := key{cs[4], cs[0]}
			long[k] = append(long[k], shown{rank: cs[7], geo: cs[5]})
		}
	}
	if len(long) < 100 {
		t.Fatalf("results.html's long table: %d cells read", len(long))
	}
	scenarios := map[string]bool{}
	for k := range long {
		scenarios[k.scenario] = true
	}
	cells := 0
	for s := range scenarios {
		page := projectPage(t, filepath.ToSlash(filepath.Join("scenario", s+".html")))
		table := section(page, `<table id="results"`, `</table>`)
		if table == "" {
			table = section(page, `<table`, `</table>`)
		}
		runCol := strings.Contains(section(table, "<thead>", "</thead>"), `data-sort="text">run</th>`)
		geoAt := 5
		if runCol {
			geoAt = 6
		}
		for _, row := range rowRe.FindAllStringSubmatch(section(table, "<tbody>", "</tbody>"), -1) {
			cs := cellTexts(row[1])
			if len(cs) <= geoAt {
				continue
			}
			ls := long[key{s, cs[0]}]
			if len(ls) != 1 {
				continue // a target two runs measured here: each run's row is its own
			}
			cells++
			check("rank of "+cs[0]+" in "+s, ls[0].rank, cs[2], ls[0].rank == cs[2])
			check("geometric mean of "+cs[0]+" in "+s, ls[0].geo, cs[geoAt], ls[0].geo == cs[geoAt])
		}
	}
	if cells < 100 {
		t.Errorf("%d cells compared between results.html and the scenario pages; the site has more", cells)
	}
	t.Logf("%d disagreements over the audit's totals, %d twin differences and %d cells' ranks and means", disagree, compared, cells)
}
