package render

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// A page shows only site-relative paths: the folders of the machine that
// collected a run or renders the site (a home folder, a temporary build
// folder, the checkout itself) are the publisher's, not the reader's, and a
// reader could not use them anyway. Runs keep their bytes as collected (the
// raw files are published as they are); what pages and exports print of
// their paths goes through publicPath.

var (
	// homeDir is a home folder as the collecting machine wrote it.
	homeDir = regexp.MustCompile(`(^|[\s='":])(/root|/home/[^/\s'"]+|/Users/[^/\s'"]+)(/|$|[\s'"])`)
	// tempDir is a folder fairbench (or a test) made under a temporary
	// folder: /tmp/fairbench-build-123/… is {tmp}/….
	tempDir = regexp.MustCompile(`(^|[\s='":])(/tmp|/var/tmp|/var/folders/[^\s'"]*?/T)/[^/\s'"]+`)
	// toolCache is a program collect installed in its own cache
	// (~/.cache/fairbench/bombardier-v1.2.6/bombardier): a reader runs
	// the tool by its name, at the version the page gives beside it.
	toolCache = regexp.MustCompile(`(^|[\s='":])~/\.cache/fairbench/[^\s'"]*/([^/\s'"]+)`)
	// runBin is a target's folder in the collect's build scratch folder
	// ({build}/bin/<run>-<n>/<target>/…, as run.json writes it): what the
	// suite's build argv calls {bin}.
	runBin = regexp.MustCompile(`\{build\}/bin/[^/\s'"]+/[^/\s'"]+/`)
)

// checkout is the folder render runs in, as an absolute path, so that a
// path below it can be shown relative to it.
var checkout = func() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	return filepath.Clean(wd)
}()

// publicPath is s with every absolute path of a machine made public-safe:
// the checkout render runs in becomes ".", a home folder "~", a folder
// made under a temporary folder "{tmp}", a target's build folder "{bin}",
// and a program of collect's tool cache its name.
func publicPath(s string) string {
	if !strings.Contains(s, "/") {
		return s
	}
	if checkout != "" && checkout != "/" {
		s = strings.ReplaceAll(s, checkout+"/", "./")
		if s == checkout {
			s = "."
		}
	}
	s = tempDir.ReplaceAllString(s, "$1{tmp}")
	s = homeDir.ReplaceAllString(s, "$1~$3")
	s = runBin.ReplaceAllString(s, "{bin}/")
	return toolCache.ReplaceAllString(s, "$1$2")
}

// publicArgv is argv with publicPath applied to each argument.
func publicArgv(argv []string) []string {
	if argv == nil {
		return nil
	}
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = publicPath(a)
	}
	return out
}
