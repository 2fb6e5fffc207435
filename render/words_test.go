package render

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse/audit"
)

// tagPattern matches one HTML tag, comment or the whole of a script or
// style element.
var tagPattern = regexp.MustCompile(`(?is)<script\b.*?</script>|<style\b.*?</style>|<!--.*?-->|<(/?)([a-z][a-z0-9]*)\b[^>]*>`)

// readerText is the text of a whole HTML page a reader sees without opening
// anything: tags, scripts, styles and attributes removed, and whatever a
// closed <details> fold holds (its <summary> line stays).
func readerText(page string) string {
	var out strings.Builder
	depth := 0     // open <details> folds
	inSummary := 0 // open <summary> inside the innermost fold
	last := 0
	for _, m := range tagPattern.FindAllStringSubmatchIndex(page, -1) {
		if depth == 0 || inSummary > 0 {
			out.WriteString(page[last:m[0]])
		}
		last = m[1]
		if m[4] < 0 {
			continue // a script, style or comment
		}
		closing, name := page[m[2]:m[3]] == "/", strings.ToLower(page[m[4]:m[5]])
		switch {
		case name == "details" && !closing:
			depth++
		case name == "details" && closing && depth > 0:
			depth--
		case name == "summary" && depth == 1 && !closing:
			inSummary++
		case name == "summary" && depth == 1 && closing && inSummary > 0:
			inSummary--
		}
		out.WriteByte(' ')
	}
	if depth == 0 {
		out.WriteString(page[last:])
	}
	return out.String()
}

func TestReaderText(t *testing.T) {
	page := `<p>shown <b>bold</b></p><details><summary>the fold's line</summary><p>inside rule-x</p>` +
		`<details><summary>nested line</summary>deep</details>after</details><script>var s = "<p>no</p>"</script><p title="attr">end</p>`
	got := strings.Join(strings.Fields(readerText(page)), " ")
	if want := "shown bold the fold's line end"; got != want {
		t.Errorf("readerText = %q, want %q", got, want)
	}
}

// TestNoInternalWordsShown: outside a details fold, no page of the
// committed site shows an audit rule's ID (a reader gets its title; the
// ID, which the audit command and results.json use, sits in a fold), and
// none shows a path of the machine that collected or built it. The dump
// pages, which show a tool's command line, are left to
// TestNoMachinePathsPublished. Nor does any page, folds and attributes
// included, print a number that is not one (NaN, Inf).
func TestNoInternalWordsShown(t *testing.T) {
	dir := projectSiteDir(t)
	var ids []string
	for _, r := range audit.Rules() {
		if strings.Contains(r.ID, "-") {
			ids = append(ids, regexp.QuoteMeta(r.ID))
		}
	}
	ruleID := regexp.MustCompile(`(^|[^a-z0-9-])(` + strings.Join(ids, "|") + `)($|[^a-z0-9-])`)
	checkout, _ := filepath.Abs("..")
	private := regexp.MustCompile(`/root/|/home/[^/]+/|/tmp/|\.cache/fairbench/|` + regexp.QuoteMeta(checkout+"/"))
	notNumber := regexp.MustCompile(`\bNaN\b|[+-]?\bInf\b`)
	shown := map[string][]string{} // the word → the pages that show it
	pages := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(rel, "dump/") || rel == "soft-dumps.html" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		pages++
		for _, m := range notNumber.FindAllString(string(b), -1) {
			shown[m] = append(shown[m], rel)
		}
		text := readerText(string(b))
		for _, m := range ruleID.FindAllStringSubmatch(text, -1) {
			shown[m[2]] = append(shown[m[2]], rel)
		}
		for _, m := range private.FindAllString(text, -1) {
			shown[m] = append(shown[m], rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d pages read", pages)
	for word, at := range shown {
		t.Errorf("%q is shown outside a fold on %d pages, the first %s", word, len(at), at[0])
	}
}
