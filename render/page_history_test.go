package render

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse"
)

// TestHistoryEverySuite: the committed site's History has a section for
// every suite, and every suite of two runs or more links its scenarios
// across its runs, each a page whose columns are that suite's runs and
// whose rows are the targets it measured.
func TestHistoryEverySuite(t *testing.T) {
	page := projectPage(t, "history.html")
	runs, err := filepath.Glob(filepath.Join("..", "site", "results", "*", "run.json"))
	if err != nil || len(runs) == 0 {
		t.Fatalf("no committed runs: %v", err)
	}
	count := map[string]int{}
	for _, rj := range runs {
		run, err := parse.ReadRun(filepath.Dir(rj))
		if err != nil {
			t.Fatal(err)
		}
		count[run.Suite]++
	}
	continued := 0
	for suite, n := range count {
		section := regexp.MustCompile(`(?s)<section id="suite-` + regexp.QuoteMeta(slug(suite)) + `">.*?</section>`).FindString(page)
		if section == "" {
			t.Errorf("history.html has no section for suite %s", suite)
			continue
		}
		if got := strings.Count(section, "<tr") - 1; got != n {
			t.Errorf("history.html lists %d runs of %s, want %d", got, suite, n)
		}
		links := regexp.MustCompile(`href="(history/[^"]+)">([^<]+) across runs`).FindAllStringSubmatch(section, -1)
		if n < 2 {
			if len(links) > 0 {
				t.Errorf("suite %s has one run, yet links %d scenarios across runs", suite, len(links))
			}
			continue
		}
		continued++
		if len(links) == 0 {
			t.Errorf("suite %s has %d runs, but History links none of its scenarios", suite, n)
		}
		for _, l := range links {
			sp := projectPage(t, l[1])
			if cols := strings.Count(sp[:strings.Index(sp, "</thead>")], `<th scope="col" class="num`); cols != n {
				t.Errorf("%s has %d run columns, want %s's %d", l[1], cols, suite, n)
			}
			if strings.Count(sp, `<tr><td><a href=`) == 0 {
				t.Errorf("%s has no target", l[1])
			}
		}
	}
	if continued < 5 {
		t.Errorf("%d suites with two runs or more, want the committed site's 5", continued)
	}
	if _, err := os.Stat(filepath.Join(projectSite.dir, "history", "ping.html")); err == nil {
		t.Error("history/ping.html is still written: a scenario across runs belongs to its suite")
	}
}
