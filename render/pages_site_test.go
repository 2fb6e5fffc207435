package render

import (
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// projectSite is the project's own site (site.toml and its committed runs)
// rendered once for every test of this file that reads it.
var projectSite struct {
	once sync.Once
	dir  string
	err  string
}

// projectPage is a page of the project's site, read whole.
func projectPage(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(projectSiteDir(t), filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// projectSiteDir is the folder of the project's site, rendered on the
// first call.
func projectSiteDir(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("renders the project's site")
	}
	projectSite.once.Do(func() {
		dir, err := os.MkdirTemp("", "fairbench-pages-")
		if err != nil {
			projectSite.err = err.Error()
			return
		}
		set, site := loadSiteRuns(t, filepath.Join("..", "site"))
		if _, err := Build(set, Options{Out: filepath.Join(dir, "site"), Site: site}); err != nil {
			projectSite.err = err.Error()
		}
		projectSite.dir = filepath.Join(dir, "site")
	})
	if projectSite.err != "" {
		t.Fatal(projectSite.err)
	}
	return projectSite.dir
}

// removeProjectSite removes the project's site once the tests are done
// (TestMain calls it).
func removeProjectSite() {
	if projectSite.dir != "" {
		os.RemoveAll(filepath.Dir(projectSite.dir))
	}
}

// visibleText is the text of an HTML fragment outside its <details>
// elements, as a reader sees it before opening any.
func visibleText(fragment string) string {
	fragment = regexp.MustCompile(`(?s)<details.*?</details>`).ReplaceAllString(fragment, "")
	return strings.TrimSpace(html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(fragment, "")))
}
