package render

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestPublicPath(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/root/.cache/fairbench/bombardier-v1.2.6/bombardier", "bombardier"},
		{"~/.cache/fairbench/autocannon-9.0.0/node_modules/.bin/autocannon", "autocannon"},
		{"go version -m ~/.cache/fairbench/vegeta-v12.13.0/vegeta", "go version -m vegeta"},
		{"~/.cache/fairbench/collect.lock", "~/.cache/fairbench/collect.lock"},
		{"/home/ann/bench/run.json", "~/bench/run.json"},
		{"/tmp/fairbench-build-4411/koa/scratch/targets.json", "{tmp}/koa/scratch/targets.json"},
		{"-targets=/tmp/fairbench-build-1/a/t.json", "-targets={tmp}/a/t.json"},
		{"go version -m /tmp/fairbench-build-9/gin/server", "go version -m {tmp}/gin/server"},
		{"go version -m {build}/bin/20261204T210313Z-vm-883894279/stdlib-aa/server", "go version -m {bin}/server"},
		{filepath.Join(checkout, "site", "results", "r", "run.json"), "./site/results/r/run.json"},
		{"/usr/bin/wrk", "/usr/bin/wrk"},
		{"http://127.0.0.1:8080/json", "http://127.0.0.1:8080/json"},
		{"/root", "~"},
		{"plain", "plain"},
	} {
		if got := publicPath(tc.in); got != tc.want {
			t.Errorf("publicPath(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestNoMachinePathsPublished: the fixture runs record the collecting
// machine's home and temporary folders in their argvs and tool versions;
// no page or export of the site built from them names those folders or the
// checkout render ran in. The raw runs are published byte for byte and are
// left out.
func TestNoMachinePathsPublished(t *testing.T) {
	set, site := fixture(t)
	out := build(t, set, site)
	private := regexp.MustCompile(`/root/|/home/[^/]+/|/tmp/|\.cache/fairbench/|` + regexp.QuoteMeta(checkout+"/"))
	seen, inRaw := 0, false
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		if strings.HasSuffix(rel, ".tar.gz") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.HasPrefix(filepath.ToSlash(rel), "raw/") {
			inRaw = inRaw || private.Match(b)
			return nil
		}
		seen++
		if loc := private.FindIndex(b); loc != nil {
			t.Errorf("%s names a folder of the machine: %q", rel, b[max(0, loc[0]-40):min(len(b), loc[1]+40)])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 15 || !inRaw {
		t.Fatalf("only %d files checked, machine folders in the raw runs: %v; the fixture must carry some to test", seen, inRaw)
	}
}

// TestProjectSiteNamesNoMachinePath: no page of the project's own site
// (committed runs, some of them written before collect stopped recording
// its machine's folders) names a home, temporary or checkout folder;
// raw/ keeps the runs byte for byte.
func TestProjectSiteNamesNoMachinePath(t *testing.T) {
	projectPage(t, "index.html") // builds the site once
	private := regexp.MustCompile(`/root/|/home/[^/]+/|/tmp/|\.cache/fairbench/|` + regexp.QuoteMeta(checkout+"/"))
	pages := 0
	err := filepath.WalkDir(projectSite.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		rel, _ := filepath.Rel(projectSite.dir, p)
		if strings.HasPrefix(filepath.ToSlash(rel), "raw/") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		pages++
		if loc := private.FindIndex(b); loc != nil {
			t.Errorf("%s names a folder of the machine: %q", rel, b[max(0, loc[0]-60):min(len(b), loc[1]+40)])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if pages < 100 {
		t.Errorf("%d pages read; want the whole site", pages)
	}
}
