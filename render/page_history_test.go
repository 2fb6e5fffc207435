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
// whose rows are the targets it measured; each such suite shows its
// comparability key.
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
		runsTable := regexp.MustCompile(`(?s)<table class="runs">.*?</table>`).FindString(section)
		if got := strings.Count(runsTable, "<tr") - 1; got != n {
			t.Errorf("history.html lists %d runs of %s, want %d", got, suite, n)
		}
		if !strings.Contains(section, "What makes these runs comparable") || !strings.Contains(section, "<li>load tool: ") {
			t.Errorf("history.html's section for %s does not show the comparability key", suite)
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
			if cols := runColumns(sp); cols != min(n, historyShown) {
				t.Errorf("%s has %d run columns, want %s's %d", l[1], cols, suite, min(n, historyShown))
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

// runColumns counts the run columns of a scenario page across runs: the
// head of its targets' table (the steps' table above it has its own).
func runColumns(page string) int {
	head := regexp.MustCompile(`(?s)<thead><tr><th scope="col">target</th><th scope="col">trend</th>.*?</thead>`).FindString(page)
	return strings.Count(head, `<th scope="col" class="num`)
}
